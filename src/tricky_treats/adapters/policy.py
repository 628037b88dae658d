"""Learned policies: the shipped value policy, and a linear policy over the observation.

``ValuePolicyAgent`` is the ``policy`` bot (``make_bot("policy")``, ``tricky-treats ladder
--bots policy``): it looks one action ahead, as the greedy bot does, and plays the legal
action whose afterstate its learned linear value rates highest. The value reads the numbers
``afterstate_features`` lists (``FEATURE_NAMES``), only what the player sees, and its
weights ship with the package (``ValuePolicyAgent.shipped()``), trained by self-play on the
vector environment (``python -m tricky_treats.adapters.training``, see docs/bots.md).

``LinearPolicyAgent.load(path)`` reads the ``.npz`` file ``examples/train_policy.py`` writes:
``weights`` (one row per action code), ``bias``, ``players`` and ``observation_version``. The
agent encodes its view (``tricky_treats.adapters.observation``), divides it by the encoding's
bounds (``high``, at least 1), scores every action code by ``weights @ x + bias`` and plays
the legal action with the highest score. It draws nothing: ``rng`` is not used.

``load_policy(path)`` reads either kind of file, within limits (``MAX_POLICY_FILE_BYTES``,
``MAX_POLICY_WEIGHTS``) that it checks before any array is made; it refuses a file it cannot
use with ``PolicyFileError``. numpy is needed (the ``policy``, ``pettingzoo`` and
``openspiel`` extras bring it); ``import tricky_treats`` never imports this module.
"""

from __future__ import annotations

import collections
import functools
import importlib.resources
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from tricky_treats.actions import Action
from tricky_treats.adapters._npz import NpzField, read_npz
from tricky_treats.adapters.observation import OBSERVATION_VERSION, ObservationEncoding
from tricky_treats.agents import _costume_potential, determinize
from tricky_treats.components import FEATURES, CostumeType, Treat, TrickIcon
from tricky_treats.dealing import _MAX_PLAYERS, new_game
from tricky_treats.errors import ConfigurationError, InvalidActionError, PolicyFileError, brief
from tricky_treats.model import GameState
from tricky_treats.scoring import score_sheet
from tricky_treats.simulator import Simulator, value_policy_codes
from tricky_treats.views import PlayerView

__all__ = [
    "FEATURE_NAMES",
    "MAX_POLICY_FILE_BYTES",
    "MAX_POLICY_WEIGHTS",
    "POLICY_FEATURES_VERSION",
    "SEAT_FEATURES",
    "SHIPPED_POLICY",
    "LinearPolicyAgent",
    "PolicyFileError",
    "ValuePolicyAgent",
    "afterstate_features",
    "load_policy",
    "shipped_policy_codes",
]

_TREATS = tuple(Treat)
_ICONS = tuple(TrickIcon)
_FEATURES = tuple(FEATURES)

MAX_POLICY_FILE_BYTES = 16 * 1024 * 1024
"""The largest policy file ``load_policy`` reads (16 MiB; a 4-player linear policy is 0.4 MB)."""
MAX_POLICY_WEIGHTS = 1 << 20
"""The most weights a policy file's ``weights`` may hold (a 4-player linear policy has 51,831)."""


def _real_array(value: npt.ArrayLike, what: str) -> npt.NDArray[np.float64]:
    """``value`` as a read-only array of finite float64s; ConfigurationError if it is not one."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError) as exc:  # ragged lists, objects numpy cannot hold
        raise ConfigurationError(
            f"{what} must be an array of real numbers ({brief(str(exc), 120)})"
        ) from None
    if array.dtype.kind not in "fiu":
        raise ConfigurationError(f"{what} must be real numbers, got an array of {array.dtype}")
    result = array.astype(np.float64)  # a copy: the caller's array may change later
    if not np.all(np.isfinite(result)):
        raise ConfigurationError(f"{what} must be finite numbers, got NaN or infinity")
    result.setflags(write=False)
    return result


class LinearPolicyAgent:
    """Plays the legal action whose linear score of the observation is highest.

    ``weights`` (actions by observation size) and ``bias`` (one per action) are real, finite
    numbers, kept as read-only float64 arrays; ``players`` is the player count it plays.
    """

    def __init__(self, weights: npt.ArrayLike, bias: npt.ArrayLike, players: int) -> None:
        matrix = _real_array(weights, "a linear policy's weights")
        offsets = _real_array(bias, "a linear policy's bias")
        if matrix.ndim != 2 or offsets.shape != (matrix.shape[0],):
            raise ConfigurationError(
                f"a linear policy has weights of shape (actions, observation size) and a bias "
                f"per action, got {matrix.shape} and {offsets.shape}"
            )
        if not isinstance(players, (int, np.integer)) or not 2 <= players <= _MAX_PLAYERS:
            raise ConfigurationError(
                f"a linear policy plays games of 2 to {_MAX_PLAYERS} players, got {brief(players)}"
            )
        self.weights = matrix
        self.bias = offsets
        self.players = int(players)
        self._encodings: dict[tuple[str, ...], tuple[ObservationEncoding, Any]] = {}

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicyAgent:
        """The policy in the ``.npz`` file at ``path`` (as ``examples/train_policy.py`` writes)."""
        return _load_as(path, LinearPolicyAgent)

    def _encoding(self, view: PlayerView) -> tuple[ObservationEncoding, Any]:
        key = tuple(ref.name for ref in view.variants)
        known = self._encodings.get(key)
        if known is None:
            encoding = ObservationEncoding(new_game(self.players, seed=0, variants=key))
            if self.weights.shape != (encoding.action_space.size, encoding.size):
                raise ConfigurationError(
                    f"the policy's weights have shape {self.weights.shape}, the game needs "
                    f"{(encoding.action_space.size, encoding.size)}"
                )
            known = (encoding, 1.0 / np.maximum(encoding.high, 1.0))
            self._encodings[key] = known
        return known

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The legal action with the highest score."""
        if len(view.players) != self.players:
            raise ConfigurationError(
                f"this policy plays {self.players}-player games, the view has "
                f"{len(view.players)} players"
            )
        encoding, scale = self._encoding(view)
        scores = self.weights @ (encoding.encode(view) * scale) + self.bias
        encode = encoding.action_space.encode
        return max(legal_actions, key=lambda action: scores[encode(action)])

    def __repr__(self) -> str:
        return f"LinearPolicyAgent(players={self.players}, actions={self.weights.shape[0]})"


# -- the learned value policy ---------------------------------------------------------------

POLICY_FEATURES_VERSION = 1
"""The version of ``afterstate_features``' list; a policy file names the version it read."""

SEAT_FEATURES: tuple[str, ...] = (
    "points",
    "costume_potential",
    "visitable_houses",
    "visitable_pumpkins",
    "visitable_treats",
    "visitable_value",
    "tile_progress",
    "treat_value",
    "treats",
    "footprints",
    "top_icons",
    "trickable_houses",
    "tricked_houses",
    "complete_kids",
)
"""What ``afterstate_features`` reads of one seat, in order (see ``FEATURE_NAMES``)."""

FEATURE_NAMES: tuple[str, ...] = (
    *(f"own_{name}" for name in SEAT_FEATURES),
    *(f"leader_{name}" for name in SEAT_FEATURES),
    "margin",
    "deck_size",
    "pumpkins_left",
    "end_triggered",
    "own_move",
)
"""The names of ``afterstate_features``' numbers, in order (version ``POLICY_FEATURES_VERSION``).

Per seat, for the player (``own_``) and for the other player with the most visible points
(``leader_``; the next in turn order on a tie): ``points``, the total so far (R24; the
player's own secret tile counts, the leader's does not, as the player cannot see it);
``costume_potential``, the greedy bot's value of unfinished costumes; ``visitable_houses``,
the nice houses the seat reaches and has not visited (R5, R6), ``visitable_pumpkins``, those
of them with their pumpkin still on, ``visitable_treats``, the treats visiting each of them
now would give, and ``visitable_value``, those treats each worth what it is worth to the
seat's trick tiles (below); ``tile_progress``, over the trick tiles the seat has access to
(R14), each tile's points times the share of its next set already held; ``treat_value``, the
treats held, each worth what it is worth to the seat's tiles (a tile of ``p`` points for a
set of ``k`` treats makes each of its treats worth ``p / k``); ``treats``, the treats on the
seat's tracks; ``footprints``, those left; ``top_icons``, the most kids showing one trick
icon (R3); ``trickable_houses``, the mean houses the seat could trick now (R4);
``tricked_houses``; ``complete_kids``, kids wearing all their cards. Then
``margin`` (own points less the leader's), ``deck_size``, ``pumpkins_left`` on all houses,
``end_triggered`` (1 once the end is triggered, R10) and ``own_move`` (1 when the player is
to move, as after a refresh, R8). Points and counts are divided by 10, yes/no are 0 or 1.
"""


def _seat_features(state: GameState, seat: int, secret_tile: bool) -> list[float]:
    player = state.players[seat]
    sheet = score_sheet(state, seat, secret_tile=secret_tile)
    progress = 0.0
    worth = [0.0] * len(_TREATS)  # what one more treat of each kind is worth to the tiles
    for line in sheet.trick_tiles:
        needed = collections.Counter(line.tile.treats)
        held = 0.0
        # In Treat's order, whatever order the tile lists them in: the sum of three shares
        # may round differently in another order, and the compact core sums in this one.
        for index, treat in enumerate(_TREATS):
            count = needed[treat]
            if count:
                left = player.treats[index] - line.sets * count
                held += min(1.0, left / count)
                worth[index] += line.tile.points / len(line.tile.treats)
        progress += line.tile.points * held / len(needed)
    grid = state.setup.grid
    # The nice houses the seat reaches and has not visited (R5, R6).
    visitable = [
        house
        for house, where in enumerate(grid)
        if house not in player.visited
        and player.count(where.neighbour.wants) >= where.neighbour.minimum
    ]
    pumpkins = treats = 0
    value = 0.0
    for house in visitable:
        pumpkins += state.pumpkin_on_house[house]
        given = grid[house].neighbour.treats_for(player.count(grid[house].neighbour.wants))
        treats += given
        value += given * worth[_TREATS.index(grid[house].treat)]
    held_value = sum(w * t for w, t in zip(worth, player.treats, strict=True))
    top = max(player.icon_count(icon) for icon in TrickIcon)
    setup = state.setup
    if setup.rules.any_mean_house:
        trickable = sum(1 for m in range(len(setup.mean_houses)) if m not in player.tricked)
        trickable = trickable if top >= 3 else 0
    else:
        trickable = sum(
            1
            for m, house in enumerate(setup.mean_houses)
            if m not in player.tricked and player.icon_count(house.icon) >= 3
        )
    cards_per_kid = len(CostumeType)
    return [
        sheet.total / 10,
        _costume_potential(state, seat) / 10,
        len(visitable) / 10,
        pumpkins / 10,
        treats / 10,
        value / 10,
        progress / 10,
        held_value / 10,
        sum(player.treats) / 10,
        player.footprints / 10,
        top / 10,
        trickable / 10,
        len(player.tricked) / 10,
        sum(1 for kid in player.kids if len(kid) == cards_per_kid) / 10,
    ]


def afterstate_features(state: GameState, seat: int) -> list[float]:
    """The numbers ``ValuePolicyAgent`` values ``state`` by for ``seat`` (``FEATURE_NAMES``).

    They read only what ``seat`` sees: the other seats' secret tiles, the deck order and the
    seed never change them. Any player count; the leader is the other seat with the most
    visible points.
    """
    players = len(state.players)
    others = [(seat + k) % players for k in range(1, players)]
    leader = others[0]
    if players > 2:
        totals = {p: score_sheet(state, p, secret_tile=False).total for p in others}
        leader = max(others, key=lambda p: totals[p])  # max keeps the first on a tie
    own = _seat_features(state, seat, True)
    best = _seat_features(state, leader, False)
    pumpkins = sum(state.pumpkin_on_house) + sum(state.pumpkin_on_mean_house)
    return [
        *own,
        *best,
        own[0] - best[0],
        state.deck_size / 10,
        pumpkins / 10,
        1.0 if state.end_trigger is not None else 0.0,
        1.0 if state.current_player == seat else 0.0,
    ]


SHIPPED_POLICY = "policy.npz"
"""The file of the shipped value policy's weights, in the package's ``tricky_treats.data``."""

_VALUE_POLICY = "afterstate-value"  # the ``kind`` a value policy's file names


@functools.cache
def _shipped_weights() -> npt.NDArray[np.float64]:
    """The shipped weights, read once a process (the ladder makes its bots game by game)."""
    resource = importlib.resources.files("tricky_treats.data") / SHIPPED_POLICY
    policy = _read(resource.read_bytes(), f"the shipped {SHIPPED_POLICY}")
    if not isinstance(policy, ValuePolicyAgent):  # pragma: no cover - the file is ours
        raise ConfigurationError(f"the shipped {SHIPPED_POLICY} is not a value policy")
    return policy.weights


class ValuePolicyAgent:
    """Plays the legal action whose afterstate its learned linear value rates highest.

    ``value(state, seat) = weights @ afterstate_features(state, seat)``. To choose, the agent
    completes its view with one sample of the hidden information (``determinize``), plays
    each legal action on it and keeps the first action of highest value: on the compact core
    where it plays the game (``choose_codes``' features and values, the same floats), else by
    the rules. The value is summed left to right (``_values``). The features read
    only what the player sees, so the sample never changes the choice: the agent plays the
    same action for the same view whatever ``rng`` holds.
    """

    def __init__(self, weights: npt.ArrayLike) -> None:
        array = _real_array(weights, f"a value policy's {len(FEATURE_NAMES)} weights")
        if array.shape != (len(FEATURE_NAMES),):
            raise ConfigurationError(
                f"a value policy has {len(FEATURE_NAMES)} finite weights, one per name of "
                f"FEATURE_NAMES, got an array of shape {array.shape}"
            )
        self.weights = array
        self._floats = tuple([float(weight) for weight in array])

    @classmethod
    def shipped(cls) -> ValuePolicyAgent:
        """The value policy whose weights ship with the package (``SHIPPED_POLICY``)."""
        return cls(_shipped_weights())

    @classmethod
    def load(cls, path: str | Path) -> ValuePolicyAgent:
        """The value policy in the ``.npz`` file at ``path`` (as ``save`` writes it)."""
        return _load_as(path, ValuePolicyAgent)

    def save(self, path: str | Path, *, about: str = "") -> None:
        """Write the weights to the ``.npz`` file at ``path``; ``about`` says how they were made."""
        np.savez(
            path,
            kind=np.array(_VALUE_POLICY),
            weights=self.weights,
            feature_names=np.array(FEATURE_NAMES),
            features_version=np.array(POLICY_FEATURES_VERSION),
            about=np.array(about),
        )

    def value(self, state: GameState, seat: int) -> float:
        """How good ``state`` is for ``seat``, by the learned weights."""
        return float(self._values(np.array([afterstate_features(state, seat)]))[0])

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The legal action whose afterstate has the highest value (the first on a tie)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self._best(determinize(view, rng), view.player, legal_actions)

    def choose_codes(self, simulators: Sequence[Simulator], rng: object = None) -> list[int]:
        """Per simulator, the code of the action ``choose`` plays for the player to move.

        For a whole batch of games at once, such as the opponents of a Gymnasium env
        (``opponents="policy"``; any value policy: ``opponents=agent.choose_codes``): where
        the compact core plays the game and no variant adds scoring lines, the core computes
        every legal action's features and value itself (``simulator.value_policy_codes``; the
        compiled build runs the whole batch natively); any other game is valued by the rules
        on its state, after the others. The same codes ``choose`` gives on each mover's view.

        Draws nothing: ``rng`` is not used (it is there for the env's opponents'
        signature). ``choose`` draws a sample of the hidden information from its ``rng``
        (``determinize``), which never changes its choice: the features read only what the
        player sees. Each simulator is left as it was. Raises ``ConfigurationError`` for an
        empty sequence or anything but a ``Simulator``, and ``IllegalActionError`` for a game
        that is over.
        """
        return value_policy_codes(simulators, self._floats, self._code_by_rules)

    def _code_by_rules(self, sim: Simulator) -> int:
        """``choose``'s code in ``sim``, valued by the rules on its state."""
        state = sim.state()
        seat = state.current_player
        assert seat is not None, "choose_codes chooses for games that go on"
        legal = state.legal_actions()
        rows = self._rows(state, seat, legal)
        choice = legal[0] if len(legal) == 1 else legal[int(np.argmax(self._values(rows)))]
        return state.action_space.encode(choice)

    def _best(self, state: GameState, seat: int, legal_actions: Sequence[Action]) -> Action:
        """The best of ``legal_actions`` in ``state``, a full state (the trainer's true one).

        Valued on the compact core (``choose_codes``: the same features and values) where
        ``legal_actions`` are the state's own, in their order; else by the rules.
        """
        if seat == state.current_player:
            encode = state.action_space.encode
            try:
                codes = [encode(action) for action in legal_actions]
            except InvalidActionError:  # not one of the game's: the rules say what is wrong
                codes = []
            sim = Simulator(state)
            if sim.fast and codes == sim.legal_codes():
                found = value_policy_codes([sim], self._floats, self._code_by_rules)[0]
                return legal_actions[codes.index(found)]
        return legal_actions[int(np.argmax(self._values(self._rows(state, seat, legal_actions))))]

    @staticmethod
    def _rows(
        state: GameState, seat: int, legal_actions: Sequence[Action]
    ) -> npt.NDArray[np.float64]:
        """The features of each action's afterstate, a row per action."""
        return np.array([afterstate_features(state.apply(a), seat) for a in legal_actions])

    def _values(self, rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``rows @ weights``, summed left to right: ``0.0 + w[0] * f[0] + w[1] * f[1] ...``.

        A row's value does not depend on the other rows, so ties are exact (the first action
        wins) and ``choose_codes``, which sums the same way in the compact core, gets the
        very same values. (A matrix product may round a row differently by where it stands
        among the others: blocks of rows in BLAS.)
        """
        values = np.zeros(len(rows))
        for k, weight in enumerate(self.weights):
            values += weight * rows[:, k]
        return values

    def __repr__(self) -> str:
        return f"ValuePolicyAgent(weights={len(self.weights)})"


@functools.cache
def _shipped_agent() -> ValuePolicyAgent:
    return ValuePolicyAgent.shipped()


def shipped_policy_codes(simulators: Sequence[Simulator], rng: object = None) -> list[int]:
    """The shipped value policy's code in each game: a Gymnasium env's ``opponents="policy"``.

    ``ValuePolicyAgent.shipped().choose_codes(simulators)``, for the whole batch at once;
    draws nothing (``rng`` is not used).
    """
    return _shipped_agent().choose_codes(simulators)


def load_policy(path: str | Path) -> ValuePolicyAgent | LinearPolicyAgent:
    """The policy in the ``.npz`` file at ``path``: a value policy or a linear policy.

    The file is read within limits before any array is made: at most
    ``MAX_POLICY_FILE_BYTES``, the arrays a policy file holds and no other, stored or
    deflated as ``np.savez`` and ``np.savez_compressed`` write them, each member unpacked
    never past the size it declares, and each array's header (type, shape) checked against
    what that field may be: real floats for weights (at most ``MAX_POLICY_WEIGHTS``), whole
    numbers for versions and players, short texts for names; pickles are never loaded.
    Raises ``PolicyFileError`` (a ``ConfigurationError``), naming the file, the problem and
    what to do, for a file that cannot be read, breaks a limit, lacks a field, holds weights
    that are not finite, or was written for another feature or observation version.
    """
    name = f"the policy file {_shown(path)}"
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_POLICY_FILE_BYTES:  # checked before anything is read
                raise _refusal(name, f"{size:,} bytes, more than {MAX_POLICY_FILE_BYTES:,}")
            # read(MAX + 1) would take 16 MiB even for a small file; a device, which tells
            # no size, is read up to the limit.
            data = file.read((size or MAX_POLICY_FILE_BYTES) + 1)
    except OSError as exc:
        raise PolicyFileError(
            f"cannot read {name}: {brief(exc.strerror or str(exc), 120)}"
        ) from None
    return _read(data, name)


def _shown(path: str | Path) -> str:
    """``path`` for a message: as given, or cut short if it is long."""
    text = str(path)
    return text if len(text) <= 200 else brief(text, 200)


_Policy = TypeVar("_Policy", "ValuePolicyAgent", LinearPolicyAgent)


def _load_as(path: str | Path, kind: type[_Policy]) -> _Policy:
    """The policy at ``path``, which must be of ``kind``."""
    policy = load_policy(path)
    if not isinstance(policy, kind):
        names = {ValuePolicyAgent: "a value policy", LinearPolicyAgent: "a linear policy"}
        raise PolicyFileError(
            f"the policy file {_shown(path)} holds {names[type(policy)]}, not {names[kind]}: "
            "load it with load_policy(), which reads either"
        )
    return policy


_HINT = (
    "write it with ValuePolicyAgent.save() (python -m tricky_treats.adapters.training) "
    "or examples/train_policy.py"
)
"""What to do about a bad policy file, the end of every ``PolicyFileError``."""

_TEXT = 64  # the longest kind or feature name, in characters
_FIELDS = {
    # A value policy (ValuePolicyAgent.save).
    "kind": NpzField("one text", "U", (0,), 1, _TEXT),
    "weights": NpzField("an array of real floats", "f", (1, 2), MAX_POLICY_WEIGHTS),
    "feature_names": NpzField("a list of texts", "U", (1,), 1024, _TEXT),
    "features_version": NpzField("one whole number", "iu", (0,), 1),
    "about": NpzField("one text", "U", (0,), 1, 64 * 1024),
    # A linear policy (examples/train_policy.py), which has weights too.
    "bias": NpzField("a list of real floats", "f", (1,), 1 << 16),
    "players": NpzField("one whole number", "iu", (0,), 1),
    "observation_version": NpzField("one whole number", "iu", (0,), 1),
}
"""Every array a policy file may hold, and what each may be."""


def _refusal(name: str, problem: str) -> PolicyFileError:
    return PolicyFileError(f"{name}: {problem}: {_HINT}")


def _read(data: bytes, name: str) -> ValuePolicyAgent | LinearPolicyAgent:
    if len(data) > MAX_POLICY_FILE_BYTES:
        raise _refusal(name, f"more than {MAX_POLICY_FILE_BYTES:,} bytes")
    fields = read_npz(data, name, _FIELDS, _HINT)
    if "kind" not in fields:
        return _linear_policy(fields, name)
    kind = str(fields["kind"][()])
    if kind != _VALUE_POLICY:
        raise _refusal(name, f"it holds a policy of unknown kind {brief(kind)}")
    _check_present(fields, ("weights", "feature_names", "features_version"), name)
    version = int(fields["features_version"][()])
    names = tuple(str(n) for n in fields["feature_names"])
    if version != POLICY_FEATURES_VERSION or names != FEATURE_NAMES:
        raise PolicyFileError(
            f"{name} is for features version {version}, this library computes version "
            f"{POLICY_FEATURES_VERSION} ({len(FEATURE_NAMES)} features): train it again"
        )
    weights = cast("npt.NDArray[np.float64]", fields["weights"])
    if weights.shape != (len(FEATURE_NAMES),):
        raise _refusal(
            name,
            f"a value policy has {len(FEATURE_NAMES)} finite weights, one per name of "
            f"FEATURE_NAMES, got an array of shape {weights.shape}",
        )
    _check_finite(fields, ("weights",), name)
    return ValuePolicyAgent(weights)


def _linear_policy(fields: dict[str, npt.NDArray[Any]], name: str) -> LinearPolicyAgent:
    _check_present(fields, ("weights", "bias", "players", "observation_version"), name)
    version = int(fields["observation_version"][()])
    if version != OBSERVATION_VERSION:
        raise PolicyFileError(
            f"{name} is for observation version {brief(version)}, this library "
            f"encodes version {OBSERVATION_VERSION}: train it again"
        )
    players = int(fields["players"][()])
    if not 2 <= players <= _MAX_PLAYERS:
        raise _refusal(name, f"players is {brief(players)}, not 2 to {_MAX_PLAYERS}")
    weights, bias = fields["weights"], fields["bias"]
    if weights.ndim != 2 or bias.shape != (weights.shape[0],):
        raise _refusal(
            name,
            f"a linear policy has weights of shape (actions, observation size) and a bias "
            f"per action, got {weights.shape} and {bias.shape}",
        )
    _check_finite(fields, ("weights", "bias"), name)
    return LinearPolicyAgent(weights, bias, players)


def _check_present(fields: dict[str, npt.NDArray[Any]], keys: Sequence[str], name: str) -> None:
    missing = sorted(set(keys) - set(fields))
    if missing:
        raise _refusal(name, f"it lacks {missing}")


def _check_finite(fields: dict[str, npt.NDArray[Any]], keys: Sequence[str], name: str) -> None:
    for key in keys:
        bad = np.flatnonzero(~np.isfinite(fields[key]))
        if bad.size:
            raise _refusal(
                name,
                f"{key} holds NaN or infinity ({bad.size:,} of its values, the first at index "
                f"{bad[0]}), where a policy's weights are finite numbers",
            )

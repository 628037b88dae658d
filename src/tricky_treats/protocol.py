"""A small protocol for turn-based games with hidden information, and what works on any of them.

The random bot, the information-set search bot and the runner that plays many seeded games do
not depend on Tricky Treats. This module states what they need from a game as a
``typing.Protocol`` (``TurnBasedGame``) and implements them once, so that sibling engines (the
candy games under ``examples/``) use them instead of copying them. ``TrickyTreatsGame`` adapts
a Tricky Treats ``GameState`` to the protocol.

A game state satisfying the protocol is immutable: ``apply()`` returns a new state. Agents
never see the state itself, only an ``InformationSet``: the acting player's view, the legal
actions and a way to sample full states consistent with the view (``determinize``). Chance
(shuffles, dice) lives in the state's hidden information, so a determinized state samples it
afresh.

>>> from tricky_treats.protocol import TrickyTreatsGame, RandomPlayer, play_match
>>> import tricky_treats as tt
>>> final = play_match(TrickyTreatsGame(tt.new_game(2, seed=1)), [RandomPlayer()] * 2, seed=1)
>>> final.is_over, sum(final.returns())
(True, 1.0)
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Generic, Protocol, Self, TypeVar, runtime_checkable

import attrs
import cattrs

from tricky_treats.errors import ConfigurationError
from tricky_treats.model import GameState

__all__ = [
    "ActionLogRecords",
    "Agent",
    "InformationSet",
    "MatchSummary",
    "RandomPlayer",
    "SearchPlayer",
    "TerminalPlayer",
    "TrickyTreatsGame",
    "TurnBasedGame",
    "make_player",
    "play_match",
    "run_console",
    "simulate",
]

_G = TypeVar("_G", bound="TurnBasedGame")


@runtime_checkable
class TurnBasedGame(Protocol):
    """What the generic agents and runner need from a game state.

    ``returns()`` gives each seat's share of the result once the game is over: winners share
    1.0, everybody else gets 0.0 (so the returns of a finished game sum to 1.0).
    """

    @property
    def num_players(self) -> int:
        """The number of seats."""
        ...  # pragma: no cover - a protocol

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        ...  # pragma: no cover - a protocol

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...  # pragma: no cover - a protocol

    def legal_actions(self) -> Sequence[Hashable]:
        """The actions the current player may take, in a fixed order; empty once over."""
        ...  # pragma: no cover - a protocol

    def apply(self, action: Any) -> Self:
        """The state after ``action``; raises the game's own error if it is not legal."""
        ...  # pragma: no cover - a protocol

    def returns(self) -> tuple[float, ...]:
        """Per seat, its share of the win (only meaningful once the game is over)."""
        ...  # pragma: no cover - a protocol

    def view(self, player: int) -> object:
        """What ``player`` may see of this state."""
        ...  # pragma: no cover - a protocol

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A full state that ``player`` cannot tell from this one, hidden parts drawn with ``rng``.

        It must depend only on ``view(player)`` and ``rng``: a search agent calls it to imagine
        the hidden information, so reading the real hidden information here would be cheating.
        """
        ...  # pragma: no cover - a protocol


@attrs.frozen
class InformationSet:
    """What an agent is given when it must act: never the state itself."""

    player: int
    view: object
    legal_actions: tuple[Hashable, ...]
    _state: TurnBasedGame = attrs.field(repr=False, alias="state")

    def determinize(self, rng: random.Random) -> TurnBasedGame:
        """A full state consistent with ``view``, the hidden information sampled with ``rng``."""
        return self._state.determinize(self.player, rng)


class Agent(Protocol):
    """Anything that picks one of the legal actions of an information set."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Return one of ``info.legal_actions``."""
        ...  # pragma: no cover - a protocol


@attrs.frozen
class RandomPlayer:
    """Chooses uniformly among the legal actions."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Return a legal action drawn uniformly with ``rng``."""
        return info.legal_actions[rng.randrange(len(info.legal_actions))]


@attrs.frozen
class TerminalPlayer:
    """A person at a terminal: shows the view, lists the legal actions and reads one.

    An action is chosen by its text (``str(action)``, in any letter case) or its number in the
    list; ``help`` prints ``help`` (the game explained in a few lines). ``render`` turns the
    view into text; ``read`` and ``write`` default to ``input`` and ``print``.
    """

    render: Callable[[Any], str] = str
    read: Callable[[str], str] = input
    write: Callable[[str], None] = print
    help: str = ""
    """What ``help`` prints: the game in a few lines and its notation."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Ask until the answer names a legal action; end of input raises ``EOFError``."""
        self.write(self.render(info.view))
        texts = [str(a) for a in info.legal_actions]
        self.write("legal: " + ", ".join(f"[{i}] {t}" for i, t in enumerate(texts)))
        # Actions are matched without regard to case: "play k4 2" and "play K4 2" are one action.
        folded = [" ".join(t.lower().split()) for t in texts]
        while True:
            answer = self.read(f"player {info.player}> ").strip()
            key = " ".join(answer.lower().split())
            if key.isdigit() and int(key) < len(texts):
                return info.legal_actions[int(key)]
            if key in folded:
                return info.legal_actions[folded.index(key)]
            if key in ("help", "?"):
                self.write(self.help or "type one of the legal actions or its number")
                continue
            self.write(
                f"{answer[:40]!r} is not legal now; type one of the actions or its number"
                " (help explains the game)"
            )


class _Node:
    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


@attrs.frozen
class SearchPlayer:
    """Information-set Monte Carlo tree search (single observer, UCB1 with availability counts).

    Each iteration samples a determinization of the information set, descends the shared tree
    among the actions legal in that sample, expands one action, finishes the game with uniform
    random moves (or ``rollout_policy(state, rng)``, a game's own quick policy) and credits each
    seat its ``returns()``. It is game-independent: it needs only ``TurnBasedGame``.
    """

    iterations: int = 200
    exploration: float = 0.7
    max_rollout_actions: int = 10_000
    """A guard against a game that never ends; reaching it is an error of the game."""
    rollout_policy: Callable[[Any, random.Random], Hashable] | None = None
    """Chooses the actions of the playouts; uniform among the legal actions when None."""
    action_filter: Callable[[Any], Sequence[Hashable]] | None = None
    """The actions the search considers in a state, a non-empty subset of the legal ones
    (for example, no accusation the accuser cannot know to be right); all legal when None.
    It applies to every seat in the tree and to uniform playouts."""
    playout_cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None
    """``playout_cutoff(start, state)`` may stop a playout early: called after each playout
    action with the state the playout began from, it returns each seat's estimated share (for
    example at the end of a hand of a long match) or None to play on. None plays to the end."""

    def choose(self, info: InformationSet, rng: random.Random) -> Hashable:
        """Return the most visited root action after ``iterations`` iterations."""
        if len(info.legal_actions) == 1:
            return info.legal_actions[0]
        if self.action_filter is not None:
            # The filter reads only what the player knows, so any sample gives the same answer.
            considered = self.action_filter(info.determinize(rng))
            if len(considered) == 1:
                return considered[0]
        root = _Node()
        for _ in range(self.iterations):
            self._iterate(root, info.determinize(rng), rng)
        legal = set(info.legal_actions)
        tried = [(a, n) for a, n in root.children.items() if a in legal]
        return max(tried, key=lambda item: (item[1].visits, item[1].reward))[0]

    def _iterate(self, root: _Node, state: TurnBasedGame, rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        considered = self.action_filter or _legal
        while not state.is_over:
            legal = considered(state)
            seat = state.current_player
            assert seat is not None
            untried = [a for a in legal if a not in node.children]
            for action in legal:
                if action in node.children:
                    node.children[action].available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = _Node()
                child.available += 1
                path.append((child, seat))
                state = state.apply(action)
                break
            action = max(legal, key=lambda a: self._ucb(node.children[a]))
            node = node.children[action]
            path.append((node, seat))
            state = state.apply(action)
        policy = self.rollout_policy
        if policy is None and self.action_filter is not None:
            policy = _uniform_among(self.action_filter)
        shares = _playout_shares(state, rng, self.max_rollout_actions, policy, self.playout_cutoff)
        for child, seat in path:
            child.visits += 1
            child.reward += shares[seat]

    def _ucb(self, node: _Node) -> float:
        return node.reward / node.visits + self.exploration * math.sqrt(
            math.log(max(node.available, 1)) / node.visits
        )


def _legal(state: Any) -> Sequence[Hashable]:
    return state.legal_actions()  # type: ignore[no-any-return]


def _uniform_among(
    actions: Callable[[Any], Sequence[Hashable]],
) -> Callable[[Any, random.Random], Hashable]:
    def policy(state: Any, rng: random.Random) -> Hashable:
        options = actions(state)
        return options[rng.randrange(len(options))]

    return policy


def _playout_shares(
    state: TurnBasedGame,
    rng: random.Random,
    limit: int,
    policy: Callable[[Any, random.Random], Hashable] | None = None,
    cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None,
) -> tuple[float, ...]:
    """Each seat's share at the end of a random playout from ``state`` (or at ``cutoff``)."""
    start = state
    for _ in range(limit):
        if state.is_over:
            return state.returns()
        if policy is not None:
            state = state.apply(policy(state, rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        shares = None if cutoff is None else cutoff(start, state)
        if shares is not None:
            return shares
    if not state.is_over:
        raise ConfigurationError(f"a playout did not end within {limit} actions")
    return state.returns()


def play_match(
    game: _G,
    agents: Sequence[Agent],
    seed: int = 0,
    max_actions: int = 100_000,
    on_action: Callable[[_G, Hashable], None] | None = None,
) -> _G:
    """Play ``game`` to the end with one agent per seat and return the final state.

    The agents draw from one ``random.Random(seed)``, so the same game, agents and seed always
    play the same way. ``on_action(state, action)`` is called before each action is applied.
    """
    if len(agents) != game.num_players:
        raise ConfigurationError(f"need {game.num_players} agents, one per seat, got {len(agents)}")
    rng = random.Random(seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        seat = game.current_player
        assert seat is not None
        info = InformationSet(seat, game.view(seat), tuple(game.legal_actions()), state=game)
        action = agents[seat].choose(info, rng)
        if on_action is not None:
            on_action(game, action)
        game = game.apply(action)
    if not game.is_over:
        raise ConfigurationError(f"the game did not end within {max_actions} actions")
    return game


@attrs.frozen
class MatchSummary:
    """The outcome of many games: per seat, the wins (shared wins count fractionally)."""

    games: int
    wins: tuple[float, ...]
    actions: int
    """Actions played over all games."""

    def win_rates(self) -> tuple[float, ...]:
        """Per seat, the share of games won."""
        return tuple(w / self.games for w in self.wins) if self.games else ()

    def __str__(self) -> str:
        rates = ", ".join(f"seat {p}: {r:.0%}" for p, r in enumerate(self.win_rates()))
        return f"{self.games} games, {self.actions} actions; wins {rates}"


def simulate(
    new_game: Callable[[int], TurnBasedGame],
    agents: Sequence[Agent],
    games: int,
    seed: int = 0,
) -> MatchSummary:
    """Play ``games`` games: game ``i`` is ``new_game(seed + i)``, played with seed ``seed + i``."""
    if games < 0:
        raise ConfigurationError(f"cannot play {games} games; give 0 or more")
    wins: list[float] = []
    actions = 0
    for i in range(games):
        counter = _Counter()
        final = play_match(new_game(seed + i), agents, seed + i, on_action=counter)
        actions += counter.count
        if not wins:
            wins = [0.0] * final.num_players
        for p, share in enumerate(final.returns()):
            wins[p] += share
    return MatchSummary(games, tuple(wins), actions)


class _Counter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, state: object, action: Hashable) -> None:
        self.count += 1


@attrs.frozen
class TrickyTreatsGame:
    """A Tricky Treats ``GameState`` seen through ``TurnBasedGame``: the names differ a little."""

    state: GameState

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.state.players)

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return self.state.current_player

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over

    def legal_actions(self) -> Sequence[Hashable]:
        """The legal actions of the wrapped state."""
        return self.state.legal_actions()

    def apply(self, action: Any) -> TrickyTreatsGame:
        """The wrapped state after ``action``."""
        return TrickyTreatsGame(self.state.apply(action))

    def returns(self) -> tuple[float, ...]:
        """Winners (R15) share 1.0."""
        won = self.state.winners()
        return tuple(1.0 / len(won) if p in won else 0.0 for p in range(self.num_players))

    def view(self, player: int) -> object:
        """The player's ``PlayerView``."""
        return self.state.view(player)

    def determinize(self, player: int, rng: random.Random) -> TrickyTreatsGame:
        """A state sampled from the player's view by ``tricky_treats.determinize``."""
        from tricky_treats.agents import determinize  # the agents module imports much more

        return TrickyTreatsGame(determinize(self.state.view(player), rng))


def make_player(
    spec: str,
    rollout_policy: Callable[[Any, random.Random], Hashable] | None = None,
    action_filter: Callable[[Any], Sequence[Hashable]] | None = None,
    playout_cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None,
) -> Agent:
    """A generic bot from its name: ``random``, ``search`` or ``search:ITERATIONS``.

    A search bot plays its playouts with ``rollout_policy``, considers only the actions
    ``action_filter`` gives and stops playouts at ``playout_cutoff``, when they are given (see
    ``SearchPlayer``).
    """
    name, _, budget = spec.partition(":")
    if name == "random" and not budget:
        return RandomPlayer()
    if name == "search" and (not budget or (budget.isdigit() and 0 < int(budget) <= 100_000)):
        return SearchPlayer(
            iterations=int(budget) if budget else SearchPlayer().iterations,
            rollout_policy=rollout_policy,
            action_filter=action_filter,
            playout_cutoff=playout_cutoff,
        )
    raise ConfigurationError(
        f"no bot {spec!r}; choose random, search or search:ITERATIONS (1 to 100000)"
    )


def run_console(
    prog: str,
    new_game: Callable[..., TurnBasedGame],
    render: Callable[[Any], str],
    argv: Sequence[str] | None = None,
    players: tuple[int, int] = (2, 2),
    describe: Callable[[Any, Hashable, int], str] | None = None,
    rollout_policy: Callable[[Any, random.Random], Hashable] | None = None,
    *,
    help_text: str = "",
    outcome: Callable[[Any, int], str] | None = None,
    game_options: Mapping[str, Mapping[str, Any]] | None = None,
    action_filter: Callable[[Any], Sequence[Hashable]] | None = None,
    playout_cutoff: Callable[[Any, Any], tuple[float, ...] | None] | None = None,
) -> int:
    """A small command line for a game on this protocol: ``play`` against bots, ``simulate``.

    ``new_game(players, seed, **options)`` builds a game, ``options`` being the values of
    ``game_options`` (option name to ``argparse`` arguments, e.g. ``{"specials": {"type":
    int, "default": 0}}`` for ``--specials``), offered by both commands. ``play`` seats a
    ``TerminalPlayer`` (unless ``--watch``) and bots; ``simulate`` plays many seeded games and
    prints the summary. ``describe(state, action, seat)`` writes an action as ``seat`` may
    learn of it (default: ``str(action)``); the person at the terminal sees actions only that
    way. ``outcome(final_state, seat)`` explains the end of the game to ``seat`` (default: the
    winners). ``help_text`` explains the game: the commands' description and what ``help``
    prints while playing. Search bots play their playouts with ``rollout_policy``, consider
    the actions of ``action_filter`` and stop playouts at ``playout_cutoff``, when given.
    """
    parser = argparse.ArgumentParser(prog=prog, description=help_text or None)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play against bots in the terminal", description=help_text)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--players", type=int, default=players[0])
    play.add_argument("--seat", type=int, default=0, help="your seat")
    play.add_argument("--bot", default="search:200", help="random, search or search:N")
    play.add_argument("--watch", action="store_true", help="bots only, printing each action")
    sim = sub.add_parser("simulate", help="play many seeded games between bots")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int, default=players[0])
    sim.add_argument("--bots", default="random", help="comma-separated, one per seat or one")
    options = dict(game_options or {})
    for name, spec in options.items():
        for command in (play, sim):
            command.add_argument(f"--{name.replace('_', '-')}", dest=name, **spec)
    args = parser.parse_args(argv)
    if not players[0] <= args.players <= players[1]:
        parser.error(f"--players must be from {players[0]} to {players[1]}")
    chosen = {name: getattr(args, name) for name in options}

    def start(seed: int) -> TurnBasedGame:
        return new_game(args.players, seed, **chosen)

    try:
        start(args.seed)
    except ValueError as error:  # the game's ConfigurationError for a bad option
        parser.error(str(error))
    if args.command == "simulate":
        specs = args.bots.split(",")
        specs = specs * args.players if len(specs) == 1 else specs
        if len(specs) != args.players:
            parser.error(f"give one bot or {args.players} bots")
        agents = [
            make_player(spec, rollout_policy, action_filter, playout_cutoff) for spec in specs
        ]
        summary = simulate(start, agents, args.games, args.seed)
        print(summary)
        return 0
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat must be from 0 to {args.players - 1}")
    bot = make_player(args.bot, rollout_policy, action_filter, playout_cutoff)
    seated: list[Agent] = [bot] * args.players
    if not args.watch:
        seated[args.seat] = TerminalPlayer(render=render, help=help_text)

    def show(state: TurnBasedGame, action: Hashable) -> None:
        told = str(action) if describe is None or args.watch else describe(state, action, args.seat)
        print(f"player {state.current_player}: {told}")

    try:
        final = play_match(start(args.seed), seated, args.seed, on_action=show)
    except (EOFError, KeyboardInterrupt):
        print("\ngame abandoned")
        return 1
    print(render(final.view(args.seat)))
    if outcome is not None:
        print(outcome(final, args.seat))
        return 0
    shares = final.returns()
    print("winners: " + ", ".join(f"player {p}" for p, r in enumerate(shares) if r > 0))
    return 0


# -- records -------------------------------------------------------------------------------------

_S = TypeVar("_S")
_C = TypeVar("_C")


def _strictly(kind: type) -> Callable[[object, type], object]:
    def structure(value: object, _: type) -> object:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {value!r:.40}")
        return value

    return structure


class ActionLogRecords(Generic[_S, _C]):
    """JSON records of a game as its settings and its actions, replayed on load.

    A record is ``{"format": FORMAT, "version": VERSION, "config": {...}, "actions": [...]}``
    with each action tagged by ``"type"`` (its class name in lower case). Reading is strict
    JSON (no NaN, no duplicate keys), at most ``max_bytes`` long, and refuses unknown keys,
    wrong types, another format or version, and actions the rules refuse, all as
    ``record_error``. ``start(config)`` deals the game a record's settings describe; states
    must have ``config`` and ``history`` attributes and an ``apply(action)`` method. Each
    codec has a converter of its own, strict like the library's (no "3" for 3, no true for 1).
    ``old_versions`` are earlier versions still read: their settings and actions must be
    readable as this version's (new settings have defaults that play the old game). A record
    is always written as ``version``.
    """

    def __init__(
        self,
        *,
        format: str,
        title: str,
        config_type: type[_C],
        action_type: Any,
        start: Callable[[_C], _S],
        record_error: type[Exception],
        game_error: type[Exception],
        version: int = 1,
        max_bytes: int = 1_000_000,
        old_versions: tuple[int, ...] = (),
    ) -> None:
        from cattrs.strategies import configure_tagged_union

        self.format, self.title, self.version, self.max_bytes = format, title, version, max_bytes
        self.old_versions = old_versions
        self._start, self._error, self._game_error = start, record_error, game_error
        self._record = attrs.make_class(
            "_Record",
            {
                "format": attrs.field(type=str),
                "version": attrs.field(type=int),
                "config": attrs.field(type=config_type),
                "actions": attrs.field(type=tuple[action_type, ...]),
            },
            frozen=True,
        )
        self._converter = cattrs.Converter(forbid_extra_keys=True)
        for kind in (int, bool, str):
            self._converter.register_structure_hook(kind, _strictly(kind))
        configure_tagged_union(
            action_type,
            self._converter,
            tag_name="type",
            tag_generator=lambda cls: cls.__name__.lower(),
        )

    def dumps(self, state: _S) -> str:
        """The game so far as a JSON record (it holds the seed: keep it from the players)."""
        record = self._record(self.format, self.version, state.config, state.history)  # type: ignore[attr-defined]
        return json.dumps(self._converter.unstructure(record), sort_keys=True, allow_nan=False)

    def loads(self, text: str | bytes) -> _S:
        """The game a record describes, rebuilt by replaying its actions from the start."""
        from tricky_treats._json import StrictJSONError, strict_loads

        if len(text) > self.max_bytes:
            raise self._error(
                f"a record is at most {self.max_bytes} characters; this one is longer"
            )
        try:
            data: Any = strict_loads(text, max_bytes=self.max_bytes)
        except StrictJSONError as error:
            raise self._error(f"a record must be strict JSON text: {error}") from None
        if not isinstance(data, dict) or data.get("format") != self.format:
            raise self._error(f'not a {self.title} record: expected "format": "{self.format}"')
        version = data.get("version")
        if type(version) is not int or (
            version != self.version and version not in self.old_versions
        ):
            known = ", ".join(map(str, (*self.old_versions, self.version)))
            raise self._error(
                f"record version {version!r:.40} is not supported; expected one of {known}"
            )
        try:
            record: Any = self._converter.structure(data, self._record)
        except Exception as error:  # cattrs raises several types; all mean a malformed record
            detail = (
                "; ".join(cattrs.transform_error(error)[:10])
                if isinstance(error, cattrs.BaseValidationError)
                else str(error)
            )
            raise self._error(f"malformed record: {detail}") from None
        try:
            state = self._start(record.config)
            for action in record.actions:
                state = state.apply(action)  # type: ignore[attr-defined]
        except self._game_error as error:
            raise self._error(f"record does not replay: {error}") from None
        return state

"""Tricky Treats as the OpenSpiel game ``python_tricky_treats`` (extra ``openspiel``).

Importing this module registers the game with ``pyspiel.register_game``:

>>> import pyspiel
>>> import tricky_treats.adapters.openspiel
>>> game = pyspiel.load_game("python_tricky_treats", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[:2]
(True, [(0, 0.1), (1, 0.1)])
>>> while state.is_chance_node():                # the deal: one chance node per draw
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)

Parameters: ``players`` (2 to 4, default 2) and ``variants`` (variant names joined by
``+``, as ``"family+open-objectives"``, default none; commas are taken too and written as
``+``, since a comma ends a parameter in OpenSpiel's game strings). Imperfect information,
sequential, zero-sum, terminal rewards, explicit stochastic. The returns
(``openspiel_returns``) are ``outcome_rewards`` (+1 for a sole winner, ``-1/(n-1)`` for the
others, shared wins split the +1) on the whole-number scale ``(n-1)**2``: with 2 players +1
and -1, with 3 a sole winner +4 and the others -2, with 4 a sole winner +9 and the others -3
(two winners +3 each, three +1 each). Whole numbers sum to exactly 0 in floating point, as
OpenSpiel's ``test_constant_sum`` checks; -1/3 has no exact binary fraction, so 4-player
rewards of +1 and -1/3 summed to 1.1e-16.

The deal is a run of chance nodes, one per draw of the engine's deal
(``tt.deal_draws``): a shuffle of ``n`` items makes ``n - 1`` draws, the
first choosing among ``n`` equally likely outcomes which item goes last, and so on, as
``random.shuffle`` does; the base game makes 101 draws (nice neighbours, house treat tokens,
street bonus tokens, trick tiles, then the 72-card deck). After the last one the state is
``tt.deal_from_draws`` of those outcomes, so a state is described by its
history alone: it serializes, pickles and deep-copies, and whoever samples the chance
outcomes (``rl_environment``'s seed, ``random_sim_test``'s) controls the deal. The engine's
seeded deal of ``new_game(seed=s)`` is the history of its ``deal_draws``. Actions are the
codes of ``game.action_space``, legal actions in ascending order.

Observations go through OpenSpiel's observer API. The observation tensor is the encoding of
``tricky_treats.adapters.observation`` (``OBSERVATION_VERSION``), with one named piece per
section; the information-state tensor adds ``history``, the public action log as action
code + 1 per turn (0 for turns not yet played), so it has perfect recall. The tensors are
read from the state's ``tt.Simulator``, whose compact core lists them (``adapters._encoder``,
the vector env's encoder: the numbers of ``ObservationEncoding.encode(view)``, without
building the view). The strings are a plain-text rendering of the player's view, and for
the information state its history in action notation. During the deal, tensors are zeros
and strings say so. Seats are named ``player_0`` to ``player_{n-1}``, as OpenSpiel numbers
them. Public-only and private-only observations are not provided (``make_py_observer``
returns None for them, as OpenSpiel expects).

``resample_from_infostate(state, player, rng)`` builds a state consistent with what
``player`` sees (``tt.determinize``), with one ``Determinizer`` (``tricky_treats.agents``)
per state and player reused by every resample of that state (IS-MCTS resamples one state
once a simulation); OpenSpiel's IS-MCTS bot takes it with ``bot.set_resampler``, and
``ismcts_bot`` makes such a bot ready for ``evaluate_bots.evaluate_bots``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from tricky_treats.actions import Action
from tricky_treats.adapters._encoder import CoreEncoder
from tricky_treats.adapters._text import outcome_rewards, view_text
from tricky_treats.adapters.observation import ObservationEncoding, max_game_length
from tricky_treats.agents import Determinizer, determinize
from tricky_treats.dealing import deal_draws, deal_from_draws, new_game
from tricky_treats.errors import ConfigurationError, InvalidActionError
from tricky_treats.model import GameState
from tricky_treats.simulator import Simulator
from tricky_treats.views import PlayerView

__all__ = [
    "GAME_NAME",
    "ISMCTSAgent",
    "TrickyTreatsGame",
    "TrickyTreatsObserver",
    "TrickyTreatsState",
    "ismcts_bot",
    "openspiel_returns",
    "outcome_rewards",
    "resample_from_infostate",
    "returns_scale",
]

GAME_NAME = "python_tricky_treats"
"""The name to give ``pyspiel.load_game``."""

_DEFAULTS: dict[str, Any] = {"players": 2, "variants": ""}


def returns_scale(players: int) -> int:
    """The factor ``(players - 1) ** 2`` that makes every reward a whole number.

    A reward is ``(n share - 1) / (n - 1)`` with ``share`` 1/k for k winners (k at most
    n = 4), so ``(n - 1) ** 2`` times it, ``(n - 1) (n/k - 1)`` or ``-(n - 1)``, is whole.
    """
    return (players - 1) ** 2


def openspiel_returns(game: GameState) -> tuple[float, ...]:
    """Each seat's return: ``outcome_rewards`` times ``returns_scale``, whole numbers.

    They sum to exactly 0 (whole floats add exactly); all zeros while the game goes on.
    """
    scale = returns_scale(len(game.players))
    return tuple(float(round(reward * scale)) for reward in outcome_rewards(game))


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Tricky Treats",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class TrickyTreatsGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: its parameters, its sizes and the draws of its deal.

    ``variants`` are the variant names; ``template`` is a deal of the configuration (seed 0)
    that ``deal`` deals again from chance outcomes; ``draw_bounds`` lists how many outcomes
    each draw of the deal has; ``encoding`` is the observation encoding and
    ``action_space`` the action codes.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_DEFAULTS, **(params or {})}
        players, names = values["players"], values["variants"]
        if not isinstance(names, str):
            raise ConfigurationError(f"variants must be names joined by '+', got {names!r}")
        self.variants = tuple(
            name.strip() for name in names.replace(",", "+").split("+") if name.strip()
        )
        # A comma would end the parameter in OpenSpiel's game string: keep '+' there.
        values["variants"] = "+".join(self.variants)
        self.player_count = players
        # Any deal of the configuration: the template that deal_from_draws deals again.
        self.template = new_game(players, seed=0, variants=self.variants)
        self.draw_bounds = self._draw_bounds()
        self.encoding = ObservationEncoding(self.template)
        self.encoder = CoreEncoder(self.encoding, self.template)
        """The observations' encoder: the simulator's core lists them (``encoding``'s)."""
        self.action_space = self.template.action_space
        count = len(self.template.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.action_space.size,
            max_chance_outcomes=max(self.draw_bounds, default=1),
            num_players=count,
            min_utility=-1.0 / (count - 1) * returns_scale(count),
            max_utility=1.0 * returns_scale(count),
            utility_sum=0.0,
            max_game_length=max_game_length(self.template),
        )
        super().__init__(_GAME_TYPE, info, values)

    def _draw_bounds(self) -> tuple[int, ...]:
        """How many outcomes each draw of the deal has, checked to be the same for two deals.

        A chance node lists its outcomes before they are drawn, so the deal must make the
        same draws whatever came before (as shuffles of fixed lists do).
        """
        bounds = tuple(draw.among for draw in deal_draws(self.template))
        other = new_game(self.player_count, seed=1, variants=self.variants)
        if tuple(draw.among for draw in deal_draws(other)) != bounds:
            raise ConfigurationError(
                "the deal of these variants makes different draws from one deal to the next; "
                "python_tricky_treats needs a deal that makes the same draws every time "
                "(shuffles of fixed lists)"
            )
        return bounds

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pyspiel's own pickling restores the C++ game alone, not these Python attributes:
        # load the game again from its string instead.
        return pyspiel.load_game, (str(self),)

    def deal(self, choices: tuple[int, ...]) -> GameState:
        """The first state of the game the deal's chance outcomes ``choices`` deal."""
        return deal_from_draws(self.template, choices)

    def new_initial_state(self) -> TrickyTreatsState:
        """The state before the deal: the first chance node."""
        return TrickyTreatsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TrickyTreatsObserver | None:
        """An observer for ``iig_obs_type`` (default: the observation, no perfect recall).

        None for an observation type the game does not provide (public or private
        information alone), as OpenSpiel expects.
        """
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return None
        return TrickyTreatsObserver(self, kind, params)


class TrickyTreatsState(pyspiel.State):  # type: ignore[misc]
    """A state: during the deal, or a game of the engine played on a ``tt.Simulator``.

    ``draws`` holds the deal's chance outcomes so far; once all are drawn the game they deal
    is played on a simulator, so that search (which clones states and plays random moves it
    never reads) runs on the fast lane. ``game_state`` is the plain ``GameState`` it stands
    at, built when asked for.
    """

    def __init__(self, game: TrickyTreatsGame) -> None:
        super().__init__(game)
        self.draws: tuple[int, ...] = ()
        self._sim: Simulator | None = None
        self.determinizers = _Determinizers()
        """Per player, the determinizer of ``game_state``'s view that
        ``resample_from_infostate`` reuses; emptied by every move, and a clone starts
        without."""

    @property
    def game_state(self) -> GameState | None:
        """The engine's state, once dealt; None during the deal."""
        sim = self._sim
        return None if sim is None else sim.state()

    @game_state.setter
    def game_state(self, state: GameState | None) -> None:
        self._sim = None if state is None else Simulator(state)
        self.determinizers = _Determinizers()

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` during the deal, ``TERMINAL`` once over."""
        sim = self._sim
        if sim is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = sim.current_player
        if seat is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        sim = self._sim
        assert sim is not None
        assert player == sim.current_player
        return sim.legal_codes()

    def _among(self) -> int:
        """How many outcomes the next draw of the deal has."""
        bounds: tuple[int, ...] = self.get_game().draw_bounds
        return bounds[len(self.draws)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw of the deal: ``among`` equally likely outcomes, 0 to ``among - 1``."""
        among = self._among()
        return [(outcome, 1.0 / among) for outcome in range(among)]

    def _apply_action(self, action: int) -> None:
        sim = self._sim
        if sim is not None:
            sim.play(action)
            self.determinizers = _Determinizers()
            return
        among = self._among()
        if not 0 <= action < among:
            raise InvalidActionError(
                f"draw {len(self.draws)} of the deal has outcomes 0 to {among - 1}, got {action}"
            )
        self.draws = (*self.draws, action)
        dealer: TrickyTreatsGame = self.get_game()
        if len(self.draws) == len(dealer.draw_bounds):
            self.game_state = dealer.deal(self.draws)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action} of {self._among()}" if self.game_state is None else "draw"
        return str(self.get_game().action_space.decode(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._sim is not None and self._sim.is_over

    def returns(self) -> list[float]:
        """Each seat's return: ``openspiel_returns`` once over, zeros before."""
        game = self.game_state
        if game is None:
            return [0.0] * self.get_game().num_players()
        return list(openspiel_returns(game))

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> TrickyTreatsState:
        """``resample_from_infostate`` as OpenSpiel's ``State`` API has it.

        ``probability_sampler()`` (a number in [0, 1), as from
        ``pyspiel.UniformProbabilitySampler``) seeds the draw.
        """
        seed = int(probability_sampler() * 2**53)
        return resample_from_infostate(self, player_id, random.Random(seed))

    def __str__(self) -> str:
        game = self.game_state
        if game is None:
            return _dealing_text(self)
        return f"dealt by {len(self.draws)} draws: {' '.join(str(a) for a in game.history)}"


class _Determinizers(dict[int, Determinizer]):
    """A state's cache of determinizers: cloning, deep-copying or pickling starts it afresh.

    OpenSpiel clones a Python state by deep-copying it; copying the determinizers would
    cost more than building one.
    """

    def __deepcopy__(self, memo: object) -> _Determinizers:
        return _Determinizers()

    def __reduce__(self) -> tuple[type[_Determinizers], tuple[()]]:
        return _Determinizers, ()


def _dealing_text(state: TrickyTreatsState) -> str:
    return f"dealing: {len(state.draws)} of {len(state.get_game().draw_bounds)} draws made"


class TrickyTreatsObserver:
    """The observer OpenSpiel's ``make_py_observer`` returns (see the module's description)."""

    def __init__(self, game: TrickyTreatsGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ConfigurationError(f"observation parameters are not supported, got {params}")
        self._encoding = encoding = game.encoding
        self._encoder = game.encoder
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        history = game.max_game_length() if self._perfect_recall else 0
        self.tensor = np.zeros(encoding.size + history, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {
            s.name: self.tensor[s.start : s.stop].reshape(s.shape) for s in encoding.sections
        }
        if self._perfect_recall:
            self.dict["history"] = self.tensor[encoding.size :]

    def set_from(self, state: TrickyTreatsState, player: int) -> None:
        """Write what ``player`` sees of ``state`` into ``tensor``."""
        sim = state._sim
        if sim is None:
            self.tensor.fill(0)
            return
        size = self._encoding.size
        self.tensor[:size] = self._encoder.observation(sim, player)
        if self._perfect_recall:
            history = self.tensor[size:]
            history.fill(0)
            codes = self._encoder.history(sim)
            history[: len(codes)] = codes
            history[: len(codes)] += 1  # 0: a turn not played yet

    def string_from(self, state: TrickyTreatsState, player: int) -> str:
        """What ``player`` sees of ``state`` as text."""
        game = state.game_state
        if game is None:
            return _dealing_text(state)
        text = view_text(game.view(player))
        if self._perfect_recall:
            text += "\nHistory: " + " ".join(str(action) for action in game.history)
        return text


def resample_from_infostate(
    state: TrickyTreatsState, player: int, rng: random.Random
) -> TrickyTreatsState:
    """A clone of ``state`` with what ``player`` cannot see sampled anew (``tt.determinize``).

    The clone has the same information state for ``player``; the deck order and the other
    players' secret tiles are drawn with ``rng``. It is a world to search in: its
    ``game_state`` is the sample, while its OpenSpiel history stays ``state``'s (the draws
    of another deck order are not worked out), so serializing it gives ``state`` back.
    The ``Determinizer`` of ``player``'s view is built at the first resample of a state and
    reused by the next ones (the same samples as ``tt.determinize``, built once).
    """
    determinizer = state.determinizers.get(player)
    if determinizer is None:
        game = state.game_state
        if game is None:
            raise ConfigurationError("nothing to resample during the deal")
        determinizer = state.determinizers[player] = Determinizer(game.view(player))
    sampled: TrickyTreatsState = state.clone()
    sampled.game_state = determinizer.sample(rng)
    return sampled


class _ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS bot, with the two calls ``evaluate_bots`` makes of every bot.

    It searches afresh at every move, so there is nothing to restart or to be told.
    """

    def restart_at(self, state: Any) -> None:
        """Nothing to do: every move's search starts from nothing."""

    def inform_action(self, state: Any, player: int, action: int) -> None:
        """Nothing to do: the search reads the state it is given."""


def ismcts_bot(
    game: TrickyTreatsGame,
    max_simulations: int = 100,
    *,
    seed: int = 0,
    uct_c: float = 2.0,
) -> ismcts.ISMCTSBot:
    """OpenSpiel's ``ISMCTSBot`` for ``game``, ready for ``evaluate_bots.evaluate_bots``.

    It searches ``max_simulations`` times a move with one random rollout each, samples
    worlds with ``resample_from_infostate``, and draws everything from ``seed``.
    """
    rng = random.Random(seed)
    bot = _ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(rng.getrandbits(32))
        ),
        uct_c=uct_c,
        max_simulations=max_simulations,
        random_state=np.random.RandomState(rng.getrandbits(32)),
    )
    bot.set_resampler(lambda state, player: resample_from_infostate(state, player, rng))
    return bot


class ISMCTSAgent:
    """OpenSpiel's IS-MCTS bot as an agent of the library (``choose(view, legal, rng)``).

    Every move it loads ``python_tricky_treats`` for the view's player count and variants,
    puts a state consistent with the view (``tt.determinize``) before ``ismcts_bot``
    (``max_simulations`` searches, seeded from ``rng``) and plays its choice. The bot
    resamples every search from the player's information state, so it sees only the view.
    This is how ``tricky-treats ladder`` rates it (``ismcts:SIMULATIONS``).
    """

    def __init__(self, max_simulations: int = 100) -> None:
        self.max_simulations = max_simulations
        self._games: dict[tuple[int, str], TrickyTreatsGame] = {}

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The action OpenSpiel's IS-MCTS bot chooses for the player of ``view``."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        key = (len(view.players), "+".join(ref.name for ref in view.variants))
        game = self._games.get(key)
        if game is None:
            game = pyspiel.load_game(GAME_NAME, {"players": key[0], "variants": key[1]})
            self._games[key] = game
        state: TrickyTreatsState = game.new_initial_state()
        # A world consistent with the view; the bot samples its own worlds from it.
        state.game_state = determinize(view, rng)
        state.draws = (0,) * len(game.draw_bounds)
        bot = ismcts_bot(game, self.max_simulations, seed=rng.getrandbits(63))
        code = int(bot.step(state))
        chosen = game.action_space.decode(code)
        for action in legal_actions:
            if action == chosen:
                return action
        raise ConfigurationError(f"the IS-MCTS bot chose {chosen}, which is not legal here")

    def __repr__(self) -> str:
        return f"ISMCTSAgent(max_simulations={self.max_simulations})"


if GAME_NAME not in pyspiel.registered_names():  # pragma: no branch - imported once
    pyspiel.register_game(_GAME_TYPE, TrickyTreatsGame)

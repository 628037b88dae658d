"""``Simulator``, the public face of the compact core (``tricky_treats.Simulator``).

Compiled with the core in the compiled build (``hatch_build.COMPILED_GROUP``), so that a
move, the legal codes and the scores reach the core by native calls: ``play()`` checks a
code and plays it without a Python frame between the caller and the core. What is not on
that path (building a ``GameState``, the rules' error for a refused code, a game the core
does not cover) calls the rest of the package, which mypyc sees as ``Any`` (it follows no
import); the same file runs as plain Python in the pure build. See
``tricky_treats.simulator`` for the contract.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, SupportsIndex, cast

from tricky_treats.errors import ConfigurationError, IllegalActionError, InvalidActionError, brief
from tricky_treats.model import GameState, _setup_memo
from tricky_treats.simulator._arguments import Flag, Seat, Seed
from tricky_treats.simulator._core import Core, Scoring, greedy_choices, greedy_values, winners_of
from tricky_treats.simulator._core import totals as core_totals
from tricky_treats.simulator._states import Boards, state_of
from tricky_treats.simulator._tables import core_of, first_core, scoring_of

if TYPE_CHECKING:
    from tricky_treats.actions import Action, ActionSpace
    from tricky_treats.components import ComponentData
    from tricky_treats.model import EndTrigger, Setup
    from tricky_treats.plugins import Variant
    from tricky_treats.variants._base_deals import BaseDeals

__all__ = ["Simulator", "greedy_codes"]

_UNMADE: Final[Any] = object()
"""What ``_blank()`` makes a ``Simulator`` of: one whose fields the caller sets."""


class Simulator:
    """A game that changes in place: legal actions and moves as ints, cheap clones.

    Made from any ``GameState`` (a new game, a loaded record, a determinized state for
    search), or dealt straight into the core by ``Simulator.new_game()``; its hidden
    information is that state's. Actions are the ints of the game's ``ActionSpace``
    (``state.action_space.encode(action)``).

    - ``legal_codes()``: the current player's legal actions, in canonical order;
    - ``play(code)``: play one (an int, or any integer-like scalar such as numpy's); an
      illegal code raises ``IllegalActionError`` (naming the rule, as ``apply()`` does) and a
      code that is no action ``InvalidActionError``, and the simulator is unchanged either
      way;
    - ``clone()``: an independent copy, cheap;
    - ``is_over``, ``current_player`` (None once over), ``turn``, ``scores()`` (each seat's
      total) and ``winners()``;
    - ``state()``: the plain ``GameState`` it stands at.

    Not safe to share between threads while one plays on it (it is mutable); clone it, or
    share its ``state()``, which is an immutable value.
    """

    __slots__ = (
        "_boards",
        "_core",
        "_deals",
        "_final",
        "_made_setup",
        "_scoring",
        "_seed",
        "_sheets",
        "_state",
    )

    _core: Core | None
    # By the rules where the core does not cover the game: the state itself, else None.
    _state: GameState | None
    # The setup; None for a game dealt into the core until something needs it (``_setup``).
    _made_setup: Setup | None
    # Who dealt a game dealt into the core, and its seed: what makes its setup.
    _deals: BaseDeals | None
    _seed: int
    # The last boards built by state() (see ``Boards``); None until state() is first read.
    _boards: Boards | None
    _scoring: Scoring | None
    # Whether scores come from the state's score sheets: by the rules, or a variant's lines.
    _sheets: bool
    # Once the game is over, the core's totals (``_flat``): what scores() and winners() read.
    _final: list[int] | None

    def __init__(self, state: GameState) -> None:
        if state is _UNMADE:
            return
        if not isinstance(state, GameState):
            raise ConfigurationError(
                f"a Simulator is made from a GameState (tt.new_game(), tt.loads()), "
                f"got {brief(state)}"
            )
        setup = state.setup
        core = core_of(state)
        self._core = core
        self._state = state if core is None else None
        self._made_setup = setup
        self._deals = None
        self._seed = 0
        self._boards = None
        self._scoring = None
        self._sheets = core is None or bool(setup.scorers)
        self._final = None

    @classmethod
    def new_game(
        cls,
        players: int | Sequence[str] = 2,
        seed: Seed = None,
        *,
        first_player: Seat = 0,
        any_mean_house: Flag = False,
        refresh_ends_turn: Flag = False,
        variants: Iterable[str | Variant] = (),
        variant_options: Mapping[str, Mapping[str, Any]] | None = None,
        components: ComponentData | None = None,
    ) -> Simulator:
        """A simulator of ``tt.new_game(...)`` of the same arguments, dealt into the core.

        The very game ``new_game`` deals (the same numbers drawn from the seed), without
        building its first state: for every configuration the core covers, the deal goes
        straight into the core, and ``state()`` builds the setup when first asked. Others
        are ``Simulator(new_game(...))``. Raises what ``new_game`` raises.
        """
        from tricky_treats.variants._base_deals import new_simulator

        return new_simulator(
            players,
            seed,
            first_player,
            any_mean_house,
            refresh_ends_turn,
            variants,
            variant_options,
            components,
        )

    @classmethod
    def _first(cls, setup: Setup) -> Simulator | None:
        """A simulator of the first state dealt from ``setup``, without building the state.

        ``Simulator(dealing._first_state(setup))``, or None where the core does not cover
        the game (build the state then).
        """
        core = first_core(setup)
        return None if core is None else _of_setup(setup, core)

    @classmethod
    def _of(cls, setup: Setup, core: Core) -> Simulator:
        """A simulator of the game ``core`` plays, dealt from ``setup`` (its tables')."""
        return _of_setup(setup, core)

    # -- reading ----------------------------------------------------------------------------

    @property
    def fast(self) -> bool:
        """Whether the compact core plays this game (else the rules do, more slowly)."""
        return self._core is not None

    @property
    def action_space(self) -> ActionSpace:
        """All actions of this game's configuration, with their integer encoding."""
        deals = self._deals
        if self._made_setup is None and deals is not None:
            return deals.action_space
        return self._setup.action_space

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R10)."""
        core = self._core
        if core is not None:
            return core.current < 0
        state = self._state
        assert state is not None
        return state.is_over

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        core = self._core
        if core is not None:
            current = core.current
            return None if current < 0 else current
        state = self._state
        assert state is not None
        return state.current_player

    @property
    def turn(self) -> int:
        """Turns finished so far (a refresh under R8 is not a turn)."""
        core = self._core
        if core is not None:
            return core.turn
        state = self._state
        assert state is not None
        return state.turn

    def legal_codes(self) -> list[int]:
        """The current player's legal actions as codes, in canonical order (a new list).

        Empty once the game is over. The same actions, in the same order, as
        ``state().legal_actions()``.
        """
        core = self._core
        if core is not None:
            return core.legal_codes()
        state = self._state
        assert state is not None
        encode = self.action_space.encode
        return [encode(action) for action in state.legal_actions()]

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions as ``Action`` objects (``legal_codes()`` decoded)."""
        actions = self.action_space.actions
        return tuple([actions[code] for code in self.legal_codes()])

    def state(self) -> GameState:
        """The plain, immutable ``GameState`` the simulator stands at.

        Equal to the state that ``GameState.apply()`` of the same actions gives: the same
        fields, records, views and scores.
        """
        core = self._core
        if core is not None:
            boards = self._boards
            if boards is None:  # made on the first state(): many simulators never build one
                boards = self._boards = Boards(core.tables.players)
            return state_of(self._setup, core, boards)
        state = self._state
        assert state is not None
        return state

    @property
    def _setup(self) -> Setup:
        """The game's setup, built on first use for a game dealt into the core."""
        setup = self._made_setup
        if setup is None:
            deals = self._deals
            assert deals is not None
            setup = self._made_setup = deals.setup(self._seed)
        return setup

    @property
    def _trigger(self) -> EndTrigger | None:
        """What triggered the end of the game (R10), if anything has."""
        core = self._core
        if core is not None:
            return cast("EndTrigger | None", core.trigger)
        state = self._state
        assert state is not None
        return state.end_trigger

    # -- playing ----------------------------------------------------------------------------

    def play(self, code: SupportsIndex) -> None:
        """Play the action numbered ``code`` for the current player.

        ``code`` is an int or any integer-like scalar (``numpy.int64``, ...), never a bool
        nor a masked value. Raises ``InvalidActionError`` if ``code`` is no whole number of
        the action space, and ``IllegalActionError`` (with the rule, as ``apply()`` gives it)
        if the rules forbid the action here; the simulator is unchanged either way.
        """
        core = self._core
        if core is not None and type(code) is int and core.play(code):
            return
        self._play_checked(code)

    def _play_checked(self, code: object) -> None:
        """``play()`` of a code that is not a plain int, or that the core refused."""
        number = self._number(code)
        core = self._core
        if core is not None:
            if core.play(number):
                return
            action = self.action_space.actions[number]
            self.state().apply(action)  # raises: the core and the rules agree on what is legal
            raise IllegalActionError(f"cannot play {action}: not legal here")  # pragma: no cover
        state = self._state
        assert state is not None
        self._state = state.apply(self.action_space.actions[number])

    def _number(self, code: object) -> int:
        """``code`` as an action's number, or the library's error saying why it is none."""
        size = self.action_space.size
        number = whole_number(code)
        if number is None or not 0 <= number < size:
            masked = " (a masked value)" if _masked(code) else ""
            raise InvalidActionError(
                f"action code must be a whole number from 0 to {size - 1}, got "
                f"{brief(code)}{masked}"
            )
        return number

    def play_action(self, action: Action) -> None:
        """Play an ``Action`` object (``play(action_space.encode(action))``)."""
        self.play(self.action_space.encode(action))

    def clone(self) -> Simulator:
        """An independent copy: moves played on either leave the other as it was."""
        twin = _blank()
        core = self._core
        boards = self._boards
        twin._core = None if core is None else core.clone()
        twin._state = self._state  # immutable: shared
        twin._made_setup = self._made_setup
        twin._deals = self._deals
        twin._seed = self._seed
        twin._boards = None if boards is None else boards.copy()
        twin._scoring = self._scoring
        twin._sheets = self._sheets
        twin._final = self._final  # never changed once made
        return twin

    def _redealt(self, setup: Setup, deck: tuple[int, ...]) -> Simulator:
        """A copy of this simulator (made by the core) for ``setup``.

        ``setup`` is the same game with other hidden information: other secret tiles, and
        ``deck``, its deck as card codes.
        """
        core = self._core
        assert core is not None
        tables = core.tables.with_deck(deck)
        _setup_memo(setup)["core"] = tables
        return _of_setup(setup, core.clone_with(tables))

    # A copy is a clone (copy.deepcopy is how OpenSpiel and others clone states), and a
    # pickle holds the state the simulator stands at.

    def __copy__(self) -> Simulator:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> Simulator:
        return self.clone()

    def __reduce__(self) -> tuple[type[Simulator], tuple[GameState]]:
        return Simulator, (self.state(),)

    # -- scoring ----------------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """Each seat's total so far, with full information (``ScoreSheet.total``)."""
        core = self._core
        if core is not None and not self._sheets:
            return tuple(self._flat(core)[::4])
        return tuple([sheet.total for sheet in self.state().scores()])

    def winners(self) -> tuple[int, ...]:
        """The seats that share the win (R15); empty while the game is not over."""
        core = self._core
        if core is not None:
            if core.current >= 0:
                return ()
            if not self._sheets:
                return winners_of(self._flat(core))
        elif not self.is_over:
            return ()
        return self._outcome()[1]

    def _flat(self, core: Core) -> list[int]:
        """``core_totals`` of the game; kept once it is over, when no move changes them."""
        final = self._final
        if final is not None:
            return final
        flat = core_totals(core, self._scored())
        if core.current < 0:
            self._final = flat
        return flat

    def _scored(self) -> Scoring:
        scoring = self._scoring
        if scoring is None:
            scoring = self._scoring = scoring_of(self._setup)
        return scoring

    def _outcome(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``scores()`` and the seats that share the win (once over), scored once."""
        return outcome_of(self._totals())

    def _totals(self) -> list[tuple[int, int]]:
        """Per seat, the total and the trick-tile points (the first tie-breaker, R15)."""
        return [(points[0], points[3]) for points in self._points()]

    def _points(self) -> list[tuple[int, int, int, int, int]]:
        """Per seat its total, pumpkin, costume, trick-tile and variants' points."""
        core = self._core
        if core is not None and not self._sheets:
            flat = self._flat(core)
            return [
                (flat[at], flat[at + 2], flat[at + 3], flat[at + 1], 0)
                for at in range(0, len(flat), 4)
            ]
        return [
            (
                sheet.total,
                sheet.pumpkins,
                sum(sheet.costumes),
                sheet.treats,
                sum([extra.points for extra in sheet.extras]),
            )
            for sheet in self.state().scores()
        ]

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"player {self.current_player} to act"
        core = self._core
        if core is not None:
            players = core.tables.players
        else:
            state = self._state
            assert state is not None
            players = len(state.players)
        return f"<Simulator of a {players}-player game, turn {self.turn}, {where}>"


def greedy_codes(simulators: Sequence[Simulator], rng: random.Random) -> list[int]:
    """Per simulator, the code of the action ``GreedyAgent`` values best for the player to move.

    For a whole batch of games at once, such as the opponents of a vector env: the greedy
    bot's valuation (``agents.evaluate``: the mover's points plus a small value for costumes
    in progress, less 0.01 for a take that keeps the turn) of every legal action, and one of
    the best, ties broken by ``rng``. Where the compact core plays the game and no variant
    adds scoring lines, the core values the actions itself: the compiled build runs the whole
    batch natively, one call for all the games. Any other game (a variant's scoring lines,
    such as ``family``'s, or a game the core does not cover) is valued by ``GreedyAgent``
    itself on the mover's view, after the others.

    The values read only what the mover may see: their own board, secret tile included, and
    whether they act next, which no hidden information changes (the deck's order and the other
    secret tiles bring other cards to the market, never other points to the mover), so no
    state is sampled. The same simulators and the same ``rng`` state give the same codes;
    each simulator is left as it was.

    Raises ``ConfigurationError`` for an empty sequence or anything but a ``Simulator``, and
    ``IllegalActionError`` for a game that is over; nothing is drawn from ``rng`` then.
    """
    count = len(simulators)
    if not count:
        raise ConfigurationError(
            "greedy_codes chooses for one simulator or more, got none: pass the games to play"
        )
    cores: list[Core] = []
    scorings: list[Scoring] = []
    by_core: list[int] = []
    by_rules: list[int] = []
    given: Sequence[object] = simulators  # each checked here (compiled, indexing would check)
    for i in range(count):
        sim = given[i]
        if not isinstance(sim, Simulator):
            raise ConfigurationError(
                f"greedy_codes chooses for Simulator objects, got {brief(sim)} at {i}"
            )
        core = sim._core
        if sim.is_over:
            raise IllegalActionError(
                f"the game of simulator {i} is over (R10): nobody is to move; "
                f"leave it out or deal a new game"
            )
        if core is not None and not sim._sheets:
            cores.append(core)
            scorings.append(sim._scored())
            by_core.append(i)
        else:
            by_rules.append(i)
    chosen = [0] * count
    codes = greedy_choices(cores, scorings, rng.getrandbits)
    for j in range(len(by_core)):
        chosen[by_core[j]] = codes[j]
    for i in by_rules:
        chosen[i] = _greedy_by_agent(simulators[i], rng)
    return chosen


def _greedy_by_agent(sim: Simulator, rng: random.Random) -> int:
    """``GreedyAgent``'s choice on the view of the player to move in ``sim``, as a code."""
    from tricky_treats.agents import GreedyAgent

    state = sim.state()
    seat = state.current_player
    assert seat is not None, "greedy_codes chooses for games that go on"
    choice = GreedyAgent().choose(state.view(seat), state.legal_actions(), rng)
    return sim.action_space.encode(choice)


def _greedy_values(sim: Simulator, codes: list[int]) -> list[float] | None:
    """``GreedyAgent``'s values of ``codes`` in the game ``sim`` plays (see ``greedy_codes``).

    None where the core cannot value them: a game it does not play, one with a variant's
    scoring lines, a code not legal here.
    """
    core = sim._core
    if core is None or sim._sheets or core.current < 0:
        return None
    legal = set(core.legal_codes())
    for code in codes:
        if code not in legal:
            return None
    return greedy_values(core, sim._scored(), codes)


def _blank() -> Simulator:
    """A simulator whose fields the caller sets.

    Through ``__init__``: a native class's ``__new__`` runs it.
    """
    return Simulator(_UNMADE)


def _of_setup(setup: Setup, core: Core) -> Simulator:
    """A simulator of the game ``core`` plays, dealt from ``setup`` (its tables')."""
    sim = _blank()
    sim._core = core
    sim._state = None
    sim._made_setup = setup
    sim._deals = None
    sim._seed = 0
    sim._boards = None
    sim._scoring = None
    sim._sheets = bool(setup.scorers)
    sim._final = None
    return sim


def dealt(deals: BaseDeals, seed: int, core: Core, scoring: Scoring, sheets: bool) -> Simulator:
    """A simulator of a game ``deals`` dealt into ``core`` from ``seed``, its setup unbuilt.

    ``sheets``: whether a variant's scoring lines count (scores are then read from the
    state's score sheets).
    """
    sim = _blank()
    sim._core = core
    sim._state = None
    sim._made_setup = None
    sim._deals = deals
    sim._seed = seed
    sim._boards = None
    sim._scoring = scoring
    sim._sheets = sheets
    sim._final = None
    return sim


def outcome_of(totals: list[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The scores and the winners (R15) of per-seat totals and trick-tile points."""
    best = max(totals)
    winners = tuple([seat for seat, entry in enumerate(totals) if entry == best])
    return tuple([total for total, _ in totals]), winners


def whole_number(code: object) -> int | None:
    """``code`` as an int if it is an integer-like scalar, else None.

    An int, or what ``operator.index`` takes (``numpy.int64``, a 0-d integer array, ...),
    but never a bool (Python's or numpy's) nor a masked value.
    """
    if type(code) is int:
        return code
    if isinstance(code, bool) or _masked(code):
        return None
    dtype = getattr(code, "dtype", None)
    if dtype is not None and getattr(dtype, "kind", "") == "b":
        return None  # numpy's bools
    try:
        return operator.index(cast(SupportsIndex, code))
    except Exception:  # no __index__, or a broken one: no whole number
        return None


def _masked(code: object) -> bool:
    """Whether ``code`` is a masked value (numpy.ma), or holds one."""
    if getattr(code, "dtype", None) is None:
        return False
    mask = getattr(code, "mask", None)
    if mask is None:
        return False
    try:
        return bool(mask)
    except Exception:  # a mask of several values: more than one code
        return True

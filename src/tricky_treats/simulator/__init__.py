"""The fast lane: a mutable simulator for code that plays many moves it does not read.

``GameState`` is a plain immutable value, and ``apply()`` plays by ``rules``, the reference
implementation, building every field of every state. Search, random playouts, simulation,
ladders and reinforcement learning play thousands of moves whose states nobody reads; they
use a ``Simulator`` instead, in the spirit of OpenSpiel's ``State`` (apply, clone) and
python-chess's ``Board`` (push):

>>> import random
>>> import tricky_treats as tt
>>> sim = tt.Simulator(tt.new_game(players=2, seed=7))
>>> rng = random.Random(7)
>>> while not sim.is_over:
...     codes = sim.legal_codes()
...     sim.play(codes[rng.randrange(len(codes))])
>>> sim.current_player is None, len(sim.scores())
(True, 2)
>>> sim.state().winners() == sim.winners()
True

Its engine is the compact core (``simulator._core``): a game's moving part as plain ints,
changed in place, compiled by mypyc in the compiled build (``tricky_treats.__compiled__``)
and the very same file as plain Python otherwise. A game the core does not cover (more than
5 kids per player, boards made by hand that play cannot reach, ...) plays by the rules behind
the same interface, and ``Simulator.fast`` says which. Both play exactly the games of
``GameState.apply()``: ``sim.state()`` is equal to the state that ``apply()`` of the same
actions gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from tricky_treats.components import Treat
from tricky_treats.errors import ConfigurationError, IllegalActionError, brief
from tricky_treats.model import GameState, Setup, _setup_memo
from tricky_treats.simulator import _core
from tricky_treats.simulator._states import Boards, state_of
from tricky_treats.simulator._tables import COMPILED, core_of, first_core

if TYPE_CHECKING:
    from tricky_treats.actions import Action, ActionSpace
    from tricky_treats.components import CostumeCard, TrickTile

__all__ = ["COMPILED", "Simulator"]


class Simulator:
    """A game that changes in place: legal actions and moves as ints, cheap clones.

    Made from any ``GameState`` (a new game, a loaded record, a determinized state for
    search); its hidden information is that state's. Actions are the ints of the game's
    ``ActionSpace`` (``state.action_space.encode(action)``).

    - ``legal_codes()``: the current player's legal actions, in canonical order;
    - ``play(code)``: play one; an illegal code raises ``IllegalActionError`` (naming the
      rule, as ``apply()`` does) and a code that is no action ``InvalidActionError``, and
      the simulator is unchanged either way;
    - ``clone()``: an independent copy, cheap;
    - ``is_over``, ``current_player`` (None once over), ``turn``, ``scores()`` (each seat's
      total) and ``winners()``;
    - ``state()``: the plain ``GameState`` it stands at.

    Not safe to share between threads while one plays on it (it is mutable); clone it, or
    share its ``state()``, which is an immutable value.
    """

    __slots__ = ("_boards", "_core", "_setup", "_state")

    def __init__(self, state: GameState) -> None:
        if not isinstance(state, GameState):
            raise ConfigurationError(
                f"a Simulator is made from a GameState (tt.new_game(), tt.loads()), "
                f"got {brief(state)}"
            )
        self._setup = state.setup
        core = core_of(state)
        self._core: _core.Core | None = core
        # By the rules where the core does not cover the game: the state itself, else None.
        self._state: GameState | None = state if core is None else None
        self._boards = Boards(len(state.players)) if core is not None else None

    @classmethod
    def _first(cls, setup: Setup) -> Simulator | None:
        """A simulator of the first state dealt from ``setup``, without building the state.

        ``Simulator(dealing._first_state(setup))``, or None where the core does not cover
        the game (build the state then).
        """
        core = first_core(setup)
        return None if core is None else cls._of(setup, core)

    @classmethod
    def _of(cls, setup: Setup, core: _core.Core) -> Simulator:
        """A simulator of the game ``core`` plays, dealt from ``setup`` (its tables')."""
        sim = cls.__new__(cls)
        sim._setup = setup
        sim._core = core
        sim._state = None
        sim._boards = Boards(len(setup.secret_tiles))
        return sim

    # -- reading ----------------------------------------------------------------------------

    @property
    def fast(self) -> bool:
        """Whether the compact core plays this game (else the rules do, more slowly)."""
        return self._core is not None

    @property
    def action_space(self) -> ActionSpace:
        """All actions of this game's configuration, with their integer encoding."""
        return self._setup.action_space

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R10)."""
        core = self._core
        if core is not None:
            return core.current < 0
        assert self._state is not None
        return self._state.is_over

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        core = self._core
        if core is not None:
            return None if core.current < 0 else core.current
        assert self._state is not None
        return self._state.current_player

    @property
    def turn(self) -> int:
        """Turns finished so far (a refresh under R8 is not a turn)."""
        core = self._core
        if core is not None:
            return core.turn
        assert self._state is not None
        return self._state.turn

    def legal_codes(self) -> list[int]:
        """The current player's legal actions as codes, in canonical order (a new list).

        Empty once the game is over. The same actions, in the same order, as
        ``state().legal_actions()``.
        """
        core = self._core
        if core is not None:
            return core.legal_codes()
        assert self._state is not None
        encode = self._setup.action_space.encode
        return [encode(action) for action in self._state.legal_actions()]

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions as ``Action`` objects (``legal_codes()`` decoded)."""
        actions = self._setup.action_space.actions
        return tuple([actions[code] for code in self.legal_codes()])

    def state(self) -> GameState:
        """The plain, immutable ``GameState`` the simulator stands at.

        Equal to the state that ``GameState.apply()`` of the same actions gives: the same
        fields, records, views and scores.
        """
        core = self._core
        if core is not None:
            assert self._boards is not None
            return state_of(self._setup, core, self._boards)
        assert self._state is not None
        return self._state

    # -- playing ----------------------------------------------------------------------------

    def play(self, code: int) -> None:
        """Play the action numbered ``code`` for the current player.

        Raises ``InvalidActionError`` if ``code`` is not a whole number of the action space,
        and ``IllegalActionError`` (with the rule, as ``apply()`` gives it) if the rules forbid
        the action here; the simulator is unchanged either way.
        """
        core = self._core
        if core is not None:
            if type(code) is int and core.play(code):
                return
            self._refuse(code)
        assert self._state is not None
        self._state = self._state.apply(self._setup.action_space.decode(code))

    def play_action(self, action: Action) -> None:
        """Play an ``Action`` object (``play(action_space.encode(action))``)."""
        self.play(self._setup.action_space.encode(action))

    def _refuse(self, code: object) -> None:
        """Raise the error the rules give for ``code`` in the current state."""
        action = self._setup.action_space.decode(code)  # type: ignore[arg-type]
        self.state().apply(action)  # raises: the core and the rules agree on what is legal
        raise IllegalActionError(f"cannot play {action}: not legal here")  # pragma: no cover

    def clone(self) -> Simulator:
        """An independent copy: moves played on either leave the other as it was."""
        twin = Simulator.__new__(Simulator)
        twin._setup = self._setup
        core = self._core
        if core is not None:
            assert self._boards is not None
            twin._core = core.clone()
            twin._state = None
            twin._boards = self._boards.copy()
        else:
            twin._core = None
            twin._state = self._state  # immutable: shared
            twin._boards = None
        return twin

    def _redealt(self, setup: Setup, deck: tuple[int, ...]) -> Simulator:
        """A copy of this simulator (made by the core) for ``setup``.

        ``setup`` is the same game with other hidden information: other secret tiles, and
        ``deck``, its deck as card codes.
        """
        assert self._core is not None
        twin = Simulator.__new__(Simulator)
        twin._setup = setup
        tables = self._core.tables.with_deck(deck)
        _setup_memo(setup)["core"] = tables
        twin._core = self._core.clone_with(tables)
        twin._state = None
        twin._boards = Boards(len(setup.secret_tiles))
        return twin

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
        return tuple([total for total, _ in self._totals()])

    def winners(self) -> tuple[int, ...]:
        """The seats that share the win (R15); empty while the game is not over."""
        if not self.is_over:
            return ()
        return self._outcome()[1]

    def _outcome(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``scores()`` and the seats that share the win (once over), scored once."""
        return outcome_of(self._totals())

    def _totals(self) -> list[tuple[int, int]]:
        """Per seat, the total and the trick-tile points (the first tie-breaker, R15)."""
        core = self._core
        setup = self._setup
        if core is None or setup.scorers:  # a variant's scoring lines read the whole state
            sheets = self.state().scores()
            return [(sheet.total, sheet.treats) for sheet in sheets]
        flat = _core.totals(core, *_score_tables(setup), setup.rules.pumpkin_points)
        return list(zip(flat[::2], flat[1::2], strict=True))

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"player {self.current_player} to act"
        players = len(self._setup.config.players)
        return f"<Simulator of a {players}-player game, turn {self.turn}, {where}>"


def outcome_of(totals: list[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The scores and the winners (R15) of per-seat totals and trick-tile points."""
    best = max(totals)
    winners = tuple([seat for seat, entry in enumerate(totals) if entry == best])
    return tuple([total for total, _ in totals]), winners


def _redealt_setup(
    setup: Setup, secret_tiles: tuple[TrickTile, ...], deck: tuple[CostumeCard, ...]
) -> Setup:
    """``setup`` with other secret tiles and another deck of the same cards.

    A determinized game's: it shares the lookup tables, which depend on neither.
    """
    new = object.__new__(Setup)
    for field in _SETUP_FIELDS:
        object.__setattr__(new, field, getattr(setup, field))
    object.__setattr__(new, "secret_tiles", secret_tiles)
    object.__setattr__(new, "deck", deck)
    kept = getattr(setup, "_memo", None)
    lookup = None if kept is None else kept.get("lookup")
    object.__setattr__(new, "_memo", None if lookup is None else {"lookup": lookup})
    return new


def _score_tables(
    setup: Setup,
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The trick tiles as ``_core.totals`` reads them: the secret tiles, then the mean houses'.

    Their needs per treat and points, and the numbers of the seats' and the mean houses'
    tiles among them; kept in the setup's memo.
    """
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = _setup_memo(setup)
    found: tuple[Any, ...] | None = memo.get("score-tables")
    if found is None:
        tiles = (*setup.secret_tiles, *(house.tile for house in setup.mean_houses))
        seats = len(setup.secret_tiles)
        found = memo["score-tables"] = (
            tuple(map(_needs, tiles)),
            tuple([tile.points for tile in tiles]),
            tuple(range(seats)),
            tuple(range(seats, len(tiles))),
        )
    return found


def _needs(tile: TrickTile) -> tuple[int, ...]:
    """How many of each treat (in ``Treat``'s order) one set of ``tile`` holds."""
    entry = _NEEDS.get(id(tile))
    if entry is None or entry[0] is not tile:
        if len(_NEEDS) >= 4096:
            _NEEDS.clear()
        entry = _NEEDS[id(tile)] = (tile, tuple([tile.treats.count(t) for t in _TREATS]))
    return entry[1]


# Per trick tile (by id; the entry keeps the tile alive, so the id is not reused): its needs.
_NEEDS: dict[int, tuple[TrickTile, tuple[int, ...]]] = {}


_SETUP_FIELDS = tuple(field.name for field in attrs.fields(Setup))
_TREATS = tuple(Treat)

"""The game state: frozen, slotted attrs classes that share structure between moves.

A game is two layers. ``Setup`` is the fixed part, dealt once from the seed: the grid of
nice houses with their treat tokens, the street bonus tokens, the mean houses with their trick
tiles, every player's secret tile and the deck order. ``GameState`` is the moving part:
players, market, how far the deck is drawn, pumpkins, flipped tokens and turn bookkeeping.
Every state of one game points at the same ``Setup``, and a move rebuilds only the
fields it changes, so keeping every earlier state (undo) costs little.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from tricky_treats.actions import (
    Action,
    ActionSpace,
)
from tricky_treats.components import (
    FEATURES,
    ComponentData,
    CostumeCard,
    CostumeType,
    Feature,
    MeanNeighbour,
    NiceNeighbour,
    RulesData,
    StreetBonusToken,
    Treat,
    TrickIcon,
    TrickTile,
    base_components,
)
from tricky_treats.errors import UnknownPlayerError, brief

if TYPE_CHECKING:
    from tricky_treats.events import Event
    from tricky_treats.scoring import ExtraScore, Outcome, ScoreSheet
    from tricky_treats.views import PlayerView

__all__ = [
    "STREETS",
    "ActionLog",
    "Board",
    "EndTrigger",
    "GameConfig",
    "GameState",
    "GridHouse",
    "MeanHouse",
    "PlayerState",
    "PublicPlayer",
    "Setup",
    "Termination",
    "VariantRef",
]


STREETS: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
)
"""The houses of each street: rows 0 to 2, then columns 0 to 2 (streets 3 to 5) (R7)."""


class Termination(enum.Enum):
    """Why the end of the game was triggered (R10, R17)."""

    LAST_FOOTPRINT = "last-footprint"
    """A player placed their last footprint."""
    COMPLETE_COSTUMES = "complete-costumes"
    """A player's kids all wear a complete costume."""
    DECK_EMPTY = "deck-empty"
    """A draw emptied the deck (R19: a refresh too)."""
    DEADLOCK = "deadlock"
    """Every player passed in turn for a whole round (R17)."""


@attrs.frozen
class EndTrigger:
    """The moment the end was triggered: by whom, why, and in which turn (0-based)."""

    player: int
    """The seat whose action triggered the end."""
    reason: Termination
    """Why the end was triggered."""
    turn: int
    """The turn (from 0) in which it was triggered."""


@attrs.frozen
class VariantRef:
    """The name and version of a variant a game was created with."""

    name: str
    """The variant's name, e.g. ``family``."""
    version: str
    """The variant's version when the game was created."""


@attrs.frozen
class GameConfig:
    """What a game was created with: players, seed, rule options and variants.

    ``any_mean_house`` asks for the R4 option (any 3 matching visible icons trick any mean
    house); ``refresh_ends_turn`` for the R8 option (a refresh is the turn's action). The
    rules in force, after the variants, are ``game.setup.rules``. ``variant_options[name]``
    holds the options given for variant ``name`` (JSON values).
    """

    players: tuple[str, ...]
    """The players' names, in seat order."""
    seed: int
    """The seed everything is dealt from; never show it to a player before the game ends."""
    first_player: int = 0
    """The seat that plays first (R20)."""
    any_mean_house: bool = False
    """The R4 option: any 3 matching visible icons trick any mean house."""
    refresh_ends_turn: bool = False
    """The R8 option: refreshing the market is the turn's action."""
    variants: tuple[VariantRef, ...] = ()
    """The variants the game was created with, in the order given."""
    variant_options: Mapping[str, Mapping[str, Any]] = attrs.field(
        factory=dict, hash=False, repr=False
    )
    """Options per variant name, as JSON values."""

    @property
    def player_count(self) -> int:
        """How many players there are."""
        return len(self.players)

    @property
    def last_player(self) -> int:
        """The seat to the right of the first player, who ends each round (R10, R20)."""
        return (self.first_player - 1) % len(self.players)


@attrs.frozen
class GridHouse:
    """A nice neighbour's house in the grid, with its house treat token."""

    neighbour: NiceNeighbour
    """The nice neighbour living there."""
    treat: Treat
    """The treat of the house treat token on it."""


@attrs.frozen
class MeanHouse:
    """A mean neighbour's house with the trick tile placed on it at setup."""

    neighbour: MeanNeighbour
    """The mean neighbour living there."""
    tile: TrickTile
    """The trick tile placed on the house at setup (public)."""

    @property
    def icon(self) -> TrickIcon:
        """The trick icon this house shows."""
        return self.neighbour.icon


@attrs.frozen
class Board:
    """A dealt board: what the ``tricky_treats_deal`` hook returns.

    ``secret_tiles_face_up`` deals the players' secret tiles face up: every view shows them.
    """

    grid: tuple[GridHouse, ...]
    """The 9 nice houses, row by row."""
    street_tokens: tuple[StreetBonusToken, ...]
    """The 6 street bonus tokens: rows 0 to 2, then columns 0 to 2."""
    mean_houses: tuple[MeanHouse, ...]
    """The 3 mean houses."""
    secret_tiles: tuple[TrickTile, ...]
    """One secret trick tile per player, in seat order."""
    deck: tuple[CostumeCard, ...]
    """Every costume card in draw order; the first ones form the market."""
    secret_tiles_face_up: bool = False
    """Whether the secret tiles are dealt face up (every view shows them)."""


class _Memo:
    """A slot for what readers work out from a setup and keep for the next reader.

    Not an attrs field: it takes no part in equality, ``repr``, ``attrs.asdict``, ``evolve``
    or pickles, so reading a setup never changes what it is. The simulator keeps its tables
    of a game here. Read it with ``getattr(setup, "_memo", None)``.
    """

    __slots__ = ("_memo",)
    _memo: Any


@attrs.frozen
class Setup(_Memo):
    """The fixed part of a game, dealt once from the seed and shared by all its states.

    ``components`` and ``rules`` are what the game's variants resolved to; ``scorers`` are
    the extra scoring functions they added. It holds hidden information (the deck order,
    every secret tile): show players ``GameState.view()``, never the setup.
    """

    config: GameConfig
    """What the game was created with."""
    components: ComponentData = attrs.field(repr=False)
    """The component data after the variants."""
    rules: RulesData = attrs.field(repr=False)
    """The rules in force after the variants."""
    grid: tuple[GridHouse, ...] = attrs.field(repr=False)
    """The 9 nice houses, row by row."""
    street_tokens: tuple[StreetBonusToken, ...] = attrs.field(repr=False)
    """The 6 street bonus tokens: rows 0 to 2, then columns 0 to 2."""
    mean_houses: tuple[MeanHouse, ...] = attrs.field(repr=False)
    """The 3 mean houses with their trick tiles."""
    secret_tiles: tuple[TrickTile, ...] = attrs.field(repr=False)
    """Every player's secret tile, in seat order (hidden information)."""
    deck: tuple[CostumeCard, ...] = attrs.field(repr=False)
    """Every card in draw order; the first ``market_size`` form the opening market."""
    secret_tiles_face_up: bool = attrs.field(default=False, repr=False)
    """Whether the secret tiles were dealt face up (every view shows them)."""
    custom_components: bool = attrs.field(default=False, repr=False)
    """Whether the game was given its own component data (``new_game(components=...)``),
    rather than the base game's as its variants edit them."""
    scorers: tuple[Callable[[GameState, int], Sequence[ExtraScore]], ...] = attrs.field(
        default=(), repr=False, eq=False
    )
    """The extra scoring functions the variants added."""
    action_space: ActionSpace = attrs.field(init=False, repr=False, eq=False)
    """Every action of this configuration with its integer (derived from ``rules``)."""

    def __attrs_post_init__(self) -> None:
        rules = self.rules
        space = _action_space(
            rules.market_size, rules.kids_per_player, len(self.grid), len(self.mean_houses)
        )
        object.__setattr__(self, "action_space", space)
        object.__setattr__(self, "_memo", None)

    # A setup never changes: copies are the setup itself, and a pickle names the base game's
    # components instead of holding them (they are the same object after loading, too).

    def __copy__(self) -> Setup:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Setup:
        return self

    def __reduce__(self) -> tuple[Callable[..., Setup], tuple[object, ...]]:
        components = None if self.components is base_components() else self.components
        return _restore_setup, (
            self.config,
            components,
            self.rules,
            self.grid,
            self.street_tokens,
            self.mean_houses,
            self.secret_tiles,
            self.deck,
            self.secret_tiles_face_up,
            self.custom_components,
            self.scorers,
        )


_action_space = functools.cache(ActionSpace)
"""One ``ActionSpace`` per shape of game, shared by all its setups (it is immutable)."""


def _restore_setup(config: GameConfig, components: ComponentData | None, *fields: Any) -> Setup:
    """Rebuild a pickled ``Setup``; ``components`` None stands for the base game's."""
    return Setup(config, base_components() if components is None else components, *fields)


def _setup_memo(setup: Setup) -> dict[Any, Any]:
    """The dict in ``setup``'s memo slot, made on first use (see ``_Memo``)."""
    memo = getattr(setup, "_memo", None)
    if memo is None:
        memo = {}
        object.__setattr__(setup, "_memo", memo)
    return memo


@attrs.frozen
class PublicPlayer:
    """What everyone sees of a player's board; their secret tile is not part of it."""

    name: str
    """The player's name."""
    kids: tuple[tuple[CostumeCard, ...], ...]
    """Each kid's cards, bottom first; the last one is on top (R3)."""
    treats: tuple[int, ...]
    """The treat tracks, in the order of ``Treat``."""
    pumpkins: int
    """Pumpkins taken (R6)."""
    visited: frozenset[int]
    """The nice houses this player visited."""
    tricked: frozenset[int]
    """The mean houses this player tricked."""
    footprints: int
    """Footprints left to place."""


@attrs.frozen
class PlayerState:
    """One player's board: kids, treat tracks, pumpkins, visits, footprints and secret tile.

    ``kids[k]`` is kid k's stack of cards, bottom first; the last card is on top and shows
    its trick icon (R3). ``treats[t]`` is the track of the t-th ``Treat``. Everything else
    about the board (how many cards of a feature the kids wear, which icons show) is worked
    out from these fields when first asked, so ``attrs.evolve`` gives a consistent board.
    """

    name: str
    """The player's name."""
    kids: tuple[tuple[CostumeCard, ...], ...]
    """Each kid's cards, bottom first; the last one is on top (R3)."""
    treats: tuple[int, ...]
    """The treat tracks, in the order of ``Treat``."""
    pumpkins: int
    """Pumpkins taken (R6)."""
    visited: frozenset[int]
    """Nice houses (grid positions) this player visited."""
    tricked: frozenset[int]
    """Mean houses this player tricked."""
    footprints: int
    """Footprints left to place."""
    secret_tile: TrickTile
    """The player's secret trick tile (hidden from the others until the end, R16)."""

    @functools.cached_property
    def public(self) -> PublicPlayer:
        """What everyone sees of this board: all of it but the secret tile (R16)."""
        return PublicPlayer(
            self.name,
            self.kids,
            self.treats,
            self.pumpkins,
            self.visited,
            self.tricked,
            self.footprints,
        )

    def treat_count(self, treat: Treat) -> int:
        """The position of this player's marker on the track of ``treat``."""
        return self.treats[list(Treat).index(treat)]

    @property
    def treat_counts(self) -> dict[Treat, int]:
        """All treat tracks by treat type."""
        return dict(zip(Treat, self.treats, strict=True))

    def count(self, feature: Feature) -> int:
        """Cards of ``feature`` worn by all kids together, covered ones included (R1)."""
        return self.counts_by_feature()[feature]

    def counts_by_feature(self) -> dict[Feature, int]:
        """``count(feature)`` of every feature, in the order of ``FEATURES`` (R1)."""
        counts = dict.fromkeys(FEATURES, 0)
        for kid in self.kids:
            for card in kid:  # every card counts for its colour, its theme and its type
                counts[card.colour] += 1
                counts[card.theme] += 1
                counts[card.type] += 1
        return counts

    def shown_icons(self) -> tuple[TrickIcon | None, ...]:
        """The trick icon on top of each kid, or None for a kid without cards (R3)."""
        return tuple([kid[-1].icon if kid else None for kid in self.kids])

    def icon_count(self, icon: TrickIcon) -> int:
        """How many kids show ``icon`` on their top card (R3)."""
        return self.shown_icons().count(icon)

    def types_worn(self, kid: int) -> tuple[CostumeType, ...]:
        """The costume types kid ``kid`` wears, bottom first (R2: one card of each at most)."""
        return tuple(map(_CARD_TYPE, self.kids[kid]))


_CARD_TYPE = operator.attrgetter("type")


ActionLog = tuple[Action, "ActionLog"] | None
"""The actions of a game, newest first, as nested pairs ``(action, earlier log)``: the states
of one game share the older part of their logs."""


@attrs.frozen
class GameState:
    """A game at one moment. Immutable: ``apply()`` returns a new state.

    Create one with ``tricky_treats.new_game()``. The attributes are public and read-only;
    the methods are the rules (``tricky_treats.rules``), the scores (``tricky_treats.scoring``)
    and the players' views (``tricky_treats.views``). A plain value: any number of threads may
    read it. Code that plays many moves it does not read (search, playouts, training) uses
    ``tricky_treats.Simulator``.
    """

    setup: Setup = attrs.field(repr=False)
    """The fixed part of the game, shared by all its states (holds hidden information)."""
    players: tuple[PlayerState, ...] = attrs.field(repr=False)
    """Every player's board, in seat order."""
    market: tuple[CostumeCard | None, ...] = attrs.field(repr=False)
    """The market by slot; a slot is None once the deck cannot refill it (R9, R23)."""
    deck_position: int = attrs.field(repr=False)
    """How many cards of ``setup.deck`` have been revealed."""
    discarded: tuple[CostumeCard, ...] = attrs.field(repr=False)
    """Cards discarded by refreshing the market, in order (public, R23)."""
    pumpkin_on_house: tuple[bool, ...] = attrs.field(repr=False)
    """Per nice house of the grid, whether its pumpkin is still there."""
    pumpkin_on_mean_house: tuple[bool, ...] = attrs.field(repr=False)
    """Per mean house, whether its pumpkin is still there."""
    street_flipped: tuple[bool, ...] = attrs.field(repr=False)
    """Per street, whether its bonus token shows its back (R7)."""
    current_player: int | None
    """The seat to act, or None once the game is over."""
    turn: int
    """Turns finished so far (a refresh under R8 is not a turn)."""
    passes_in_a_row: int = attrs.field(repr=False)
    """Consecutive turns that ended in a pass (R17)."""
    end_trigger: EndTrigger | None
    """What triggered the end, once it is triggered (R10, R17); else None."""
    log: ActionLog = attrs.field(repr=False)
    """The actions so far, newest first, as nested pairs; read ``history`` instead."""

    # -- reading the state -------------------------------------------------------------------

    @property
    def config(self) -> GameConfig:
        """The players, seed and options this game was created with."""
        return self.setup.config

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (R10)."""
        return self.current_player is None

    @property
    def round(self) -> int:
        """The round being played, from 1; after the game, the last round played."""
        n = len(self.players)
        return (self.turn - 1) // n + 1 if self.is_over else self.turn // n + 1

    @property
    def deck_size(self) -> int:
        """Cards left in the deck (their order is hidden, R16)."""
        return len(self.setup.deck) - self.deck_position

    @functools.cached_property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the start, oldest first."""
        newest_first = []
        node = self.log
        while node is not None:
            action, node = node
            newest_first.append(action)
        return tuple(reversed(newest_first))

    @property
    def action_space(self) -> ActionSpace:
        """All actions of this game's configuration, with their integer encoding."""
        return self.setup.action_space

    def check_player(self, player: int) -> int:
        """Return ``player`` if it is a seat of this game, else raise UnknownPlayerError."""
        if (
            isinstance(player, int)
            and not isinstance(player, bool)
            and 0 <= player < len(self.players)
        ):
            return player
        raise UnknownPlayerError(
            f"no player {brief(player)} in this game: seats are 0 to {len(self.players) - 1}"
        )

    # -- the rules, scores and views ----------------------------------------------------------
    # They live in the layers above this module and import it, so each method imports its
    # module when called, as python-chess's Board imports chess.svg (docs/architecture.md).

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's legal actions in canonical order; empty once the game is over.

        The order is that of ``ActionSpace``. ``action in game.legal_actions()`` tells
        whether ``apply()`` accepts ``action``.
        """
        import tricky_treats.rules as rules

        return rules.legal_actions(self)

    def apply(self, action: Action) -> GameState:
        """The state after the current player plays ``action``.

        Raises ``IllegalActionError`` (naming the rule) if the rules
        forbid it and ``InvalidActionError`` if it is no action of this
        game; this state is unchanged either way.
        """
        import tricky_treats.rules as rules

        return rules.apply(self, action)

    def apply_with_events(self, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        """Like ``apply()``, and also return the events the action caused, in order."""
        import tricky_treats.rules as rules

        events: list[Event] = []
        after = rules.apply(self, action, events)
        return after, tuple(events)

    def scores(self) -> tuple[ScoreSheet, ...]:
        """One score sheet per player, with the points so far (R24; full information)."""
        return self._score_sheets

    def winners(self) -> tuple[int, ...]:
        """The seats that share the win (R15); empty while the game is not over (R24)."""
        import tricky_treats.scoring as scoring

        if not self.is_over:
            return ()
        return scoring.winners(self._score_sheets)

    def outcome(self) -> Outcome | None:
        """Why the game ended, who won and the final sheets; None while it goes on."""
        import tricky_treats.scoring as scoring

        return scoring.outcome(self)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see (R16): no deck order, no other player's secret tile."""
        import tricky_treats.views as views

        return views.player_view(self, self.check_player(player))

    # What the methods read, worked out on first read and kept beside the fields (attrs'
    # cached properties): the views of one state's seats share the score sheets.

    @functools.cached_property
    def _score_sheets(self) -> tuple[ScoreSheet, ...]:
        import tricky_treats.scoring as scoring

        return scoring.score_sheets(self)

    @functools.cached_property
    def _score_sheets_of_others(self) -> tuple[ScoreSheet, ...]:
        import tricky_treats.scoring as scoring

        return scoring.score_sheets_of_others(self)

    def __str__(self) -> str:
        """The table as everyone sees it: no secret tile, no seed until the end (a view's has)."""
        from tricky_treats.drawing.text import state_text

        return state_text(self)

    def _repr_svg_(self) -> str:  # what a notebook shows: the same table, as board_svg draws
        from tricky_treats.drawing.text import state_svg

        return state_svg(self)

    # A state is immutable, so a copy is the state itself (OpenSpiel and others clone states
    # with copy.deepcopy).

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        return self

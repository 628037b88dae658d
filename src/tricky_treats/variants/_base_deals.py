"""The one dealer of games on the simulator: ``new_game``'s games, dealt straight into cores.

A ``Setup``, its tables and the first ``GameState`` are most of what starting a game costs,
and code on the fast lane (``Simulator.new_game``, the vector env, ``simulate``, the ladder)
needs none of them to play. ``BaseDeals`` deals the games of one configuration whose board
the base game's deal hook deals (``variants.base.tricky_treats_deal``: every built-in
variant and rule option, any box the core covers): it draws the very numbers ``new_game``
draws from the game's seed, does the deal's shuffles on indices and turns them into the
first core (``simulator._deal``, compiled with the core) from tables worked out once per
configuration. Its constructor checks the result against ``new_game`` field by field on a
few seeds; ``tests/test_base_deals.py`` does on many. A variant's board hook (``open-
objectives``) is run on the board the indices stand for. The setup of a game so dealt is
built when someone asks for it (``setup(seed)``: ``new_game``'s own path). Not part of the
public API.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tricky_treats.components import FEATURES
from tricky_treats.dealing import _Dealer, _seeded_random, check_seed, new_game
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.model import Board
from tricky_treats.plugins import Variant, variant_registry
from tricky_treats.simulator import Simulator, _core, _deal
from tricky_treats.simulator._lookup import house_info, needs, token_info
from tricky_treats.simulator._simulator import dealt
from tricky_treats.simulator._tables import first_core, tables
from tricky_treats.variants._shuffles import plan
from tricky_treats.variants.base import GRID_HOUSES, _box, _shuffled

if TYPE_CHECKING:
    from tricky_treats.actions import ActionSpace
    from tricky_treats.components import ComponentData, TrickTile
    from tricky_treats.model import Setup
    from tricky_treats.plugins import Resolution

__all__: list[str] = []


TABLE_FIELDS = (
    "players",
    "kids",
    "market_size",
    "last_player",
    "any_mean_house",
    "refresh_ends_turn",
    "deck",
    "card_type",
    "card_free_shift",
    "card_icon",
    "card_features",
    "card_mask",
    "card_counts",
    "qualifying",
    "house_feature",
    "house_treat",
    "house_gain",
    "street_houses",
    "streets_of_house",
    "street_treat",
    "street_front",
    "street_back",
    "mean_icon",
    "mean_ready",
    "take_codes",
    "visit_codes",
    "trick_codes",
    "actions",
    "cards",
)
"""The fields of ``_core.Tables`` a deal sets (all but ``make_trigger``, a function)."""

CORE_FIELDS = (
    "market",
    "position",
    "house_pumpkins",
    "mean_pumpkins",
    "flipped",
    "discarded",
    "current",
    "turn",
    "passes",
    "trigger",
    "log",
    "played",
)
"""The fields of ``_core.Core`` but its tables and seats."""

SEAT_FIELDS = (
    "counts",
    "icons",
    "ready",
    "free",
    "qualified",
    "stacks",
    "treats",
    "pumpkins",
    "visited",
    "tricked",
    "footprints",
)
"""The fields of ``_core.Seat``."""


def core_difference(core: _core.Core, expected: _core.Core) -> str | None:
    """The first field, table or seat's, where ``core`` differs from ``expected``; or None."""
    for field in TABLE_FIELDS:
        if getattr(core.tables, field) != getattr(expected.tables, field):
            return f"tables.{field}"
    for field in CORE_FIELDS:
        if getattr(core, field) != getattr(expected, field):
            return field
    if len(core.seats) != len(expected.seats):
        return "seats"
    for number, (seat, other) in enumerate(zip(core.seats, expected.seats, strict=True)):
        for field in SEAT_FIELDS:
            if getattr(seat, field) != getattr(other, field):
                return f"seats[{number}].{field}"
    return None


class BaseDeals:
    """``new_game``'s games of one configuration, dealt straight into cores.

    For one ``dealing._Dealer`` (``of()`` says None where the base deal hook does not deal
    its boards or the core does not cover them). ``deal(seed)`` gives the first core of
    ``new_game(seed=seed)``'s game, its ``Scoring`` (the trick tiles as positions in the
    box's ``tiles``) and whether the secret tiles are face up; ``simulator(seed)`` a
    ``Simulator`` of it; ``setup(seed)`` its setup, built as ``new_game`` builds it.
    """

    __slots__ = (
        "_box",
        "_dealer",
        "_resolution",
        "_shuffles",
        "action_space",
        "cards",
        "sheets",
        "tiles",
    )

    @classmethod
    def of(cls, dealer: _Dealer) -> BaseDeals | None:
        """The deals of ``dealer``'s games, or None if the base deal does not deal them.

        Raises what ``new_game`` raises for the dealer's arguments.
        """
        if any(callable(getattr(v.plugin, "_resolution_key", None)) for v in dealer.variants):
            return None  # its resolution depends on more than its arguments (a file's state)
        probe = dealer.setup(0)
        resolution = dealer.resolution(probe.config)
        deal = resolution.deal
        template = tables(probe)
        if (
            not getattr(deal, "base_deal", False)
            or template is None
            or len(probe.secret_tiles) != len(probe.config.players)
            or template.cards != probe.components.cards
        ):
            return None
        deals = cls(dealer, probe, resolution, template)
        for seed in (0, 1, 2):  # the very deals new_game makes, or none at all
            if not deals.same_deal(seed):
                return None  # pragma: no cover - a deal hook that is not the base game's
        return deals

    def __init__(
        self, dealer: _Dealer, probe: Setup, resolution: Resolution, template: _core.Tables
    ) -> None:
        components = probe.components
        rules = probe.rules
        box = _box(components)
        self._dealer = dealer
        self._resolution = resolution
        self.action_space: ActionSpace = probe.action_space
        self.cards = template.cards  # the box's cards, by id
        self.sheets = bool(resolution.scorers)  # a variant's scoring lines: by score sheets
        # The base deal's shuffles, of indices: a shuffle draws the same numbers whatever
        # it shuffles, so these put indices where the deal puts the tokens and the cards.
        neighbours, tokens, _, tiles, _ = box.shuffles
        self._shuffles = (
            neighbours,
            tokens,
            plan(range(len(components.street_bonus_tokens))),
            tiles,
            plan(range(len(components.cards))),  # card ids are positions in the box
        )
        houses = [house_info(house) for house in box.grid]
        streets = [token_info(token) for token in components.street_bonus_tokens]
        self.tiles: tuple[TrickTile, ...] = components.trick_tiles
        self._box = _deal.Box(
            template,
            tuple([house[1] for house in houses]),
            tuple([house[2] for house in houses]),
            tuple([house[3] for house in houses]),
            tuple([house[4] for house in houses]),
            tuple([token[1] for token in streets]),
            tuple([token[2] for token in streets]),
            tuple([token[3] for token in streets]),
            len(box.mean_starts),
            rules.footprints_per_player,
            probe.config.first_player,
            len(FEATURES),
            tuple([needs(tile) for tile in self.tiles]),
            tuple([tile.points for tile in self.tiles]),
            rules.pumpkin_points,
        )

    def deal(
        self, seed: int, checked: bool = False
    ) -> tuple[_core.Core, _core.Scoring, bool] | None:
        """The first core of the game of ``seed``, its scoring and whether tiles show.

        None where a variant's board hook moved what the base deal dealt (deal that game by
        ``new_game``). Raises ``new_game``'s error for a seed it does not take, unless
        ``checked``: the caller has checked it (the vector env's seeds, each a whole number
        below 2**63).
        """
        if not checked:
            check_seed(seed)
        rng = _seeded_random(seed)
        shuffled = _shuffled(rng, self._shuffles)
        face_up = False
        deal = self._resolution.deal
        if deal.board_edits:  # type: ignore[attr-defined]
            board = self._board(shuffled)
            config = self._dealer.config(seed)
            edited = deal.edited(board, config, rng)  # type: ignore[attr-defined]
            if not _same_parts(board, edited):
                return None
            face_up = edited.secret_tiles_face_up
        core, scoring = _deal.deal(self._box, shuffled, GRID_HOUSES)
        return core, scoring, face_up

    def simulator(self, seed: int) -> Simulator | None:
        """A simulator of the game of ``seed``, its setup built when first needed (or None)."""
        found = self.deal(seed)
        if found is None:
            return None
        return dealt(self, seed, found[0], found[1], self.sheets)

    def setup(self, seed: int) -> Setup:
        """The setup of the game of ``seed``, as ``new_game`` deals it."""
        return self._dealer.setup(seed)

    def _board(self, shuffled: list[list[Any]]) -> Board:
        """The board the base deal hook deals for these shuffles of indices."""
        components = self._resolution.components
        box = _box(components)
        neighbours, tokens, streets, tiles, deck = shuffled
        grid, mean_houses = box.grid, box.mean_houses
        all_tiles = components.trick_tiles
        mean = box.mean_starts
        players = self._box.template.players
        tokens_of_box = components.street_bonus_tokens
        cards = components.cards
        return Board(
            tuple([grid[n + t] for n, t in zip(neighbours[:GRID_HOUSES], tokens, strict=False)]),
            tuple([tokens_of_box[s] for s in streets]),
            tuple([mean_houses[m + t] for m, t in zip(mean, tiles, strict=False)]),
            tuple([all_tiles[t] for t in tiles[len(mean) : len(mean) + players]]),
            tuple([cards[c] for c in deck]),
            False,
        )

    def same_deal(self, seed: int) -> bool:
        """Whether ``deal(seed)`` is, field by field, the first core of ``new_game``'s game."""
        setup = self._dealer.setup(seed)
        expected = first_core(setup)
        found = self.deal(seed)
        if expected is None or found is None:
            return False
        core, scoring, face_up = found
        tiles = self.tiles
        return (
            core_difference(core, expected) is None
            and [tiles[t] for t in scoring.secret] == list(setup.secret_tiles)
            and [tiles[t] for t in scoring.mean] == [house.tile for house in setup.mean_houses]
            and face_up == setup.secret_tiles_face_up
            and scoring.pumpkin_points == setup.rules.pumpkin_points
        )


def _same_parts(before: Board, after: Any) -> bool:
    """Whether a board hook's ``after`` holds ``before``'s very parts (a flag set at most)."""
    return (
        type(after) is Board
        and after.grid is before.grid
        and after.street_tokens is before.street_tokens
        and after.mean_houses is before.mean_houses
        and after.secret_tiles is before.secret_tiles
        and after.deck is before.deck
    )


# -- Simulator.new_game ---------------------------------------------------------------------------


def new_simulator(
    players: int | Sequence[str],
    seed: int | None,
    first_player: int,
    any_mean_house: bool,
    refresh_ends_turn: bool,
    variants: Iterable[str | Variant],
    variant_options: Mapping[str, Mapping[str, Any]] | None,
    components: ComponentData | None,
) -> Simulator:
    """``Simulator.new_game``: the game of ``new_game(...)``, dealt into the core if it can be.

    The dealer of each configuration is kept (``_DEALS``), its arguments checked once by
    ``new_game``'s own dealer; anything else (a configuration the base deal or the core does
    not cover, variant options, arguments that are not plain values, a bad argument) goes
    through ``new_game`` itself, which raises what it raises.
    """
    if seed is None:
        seed = secrets.randbits(63)
    if variant_options is None:
        key = _key(players, first_player, any_mean_house, refresh_ends_turn, variants, components)
        if key is not None:
            entry = _DEALS.get(key[0])  # the entry holds what the key's ids name: them
            if entry is None:
                deals = _deals_of(players, first_player, any_mean_house, refresh_ends_turn, key[1])
                if len(_DEALS) >= 64:
                    _DEALS.clear()
                entry = _DEALS[key[0]] = (key[1], deals)
            deals = entry[1]
            if deals is not None:
                sim = deals.simulator(seed)
                if sim is not None:
                    return sim
    return Simulator(
        new_game(
            players,
            seed,
            first_player=first_player,
            any_mean_house=any_mean_house,
            refresh_ends_turn=refresh_ends_turn,
            variants=variants,
            variant_options=variant_options,
            components=components,
        )
    )


_Held = tuple[tuple[Variant, ...], "ComponentData | None"]
"""The objects a configuration's key names by their ids: its variants and its components."""

# Per configuration (``_key``): the objects its key names, and its dealer, or None where its
# games are not dealt into cores.
_DEALS: dict[tuple[Any, ...], tuple[_Held, BaseDeals | None]] = {}


def _key(
    players: object,
    first_player: object,
    any_mean_house: object,
    refresh_ends_turn: object,
    variants: object,
    components: ComponentData | None,
) -> tuple[tuple[Any, ...], _Held] | None:
    """The configuration as a key of plain values, and the objects it names by their ids.

    None for arguments that are not plain values: a count or a list of names, a seat, the
    variants as a list of names or ``Variant`` objects (looked up by name each time, as
    ``new_game`` does).
    """
    if type(players) is int:
        names: object = players
    elif (
        isinstance(players, list | tuple)
        and type(players) in (list, tuple)
        and all(type(n) is str for n in players)
    ):
        names = tuple(players)
    else:
        return None
    if type(first_player) is not int or type(variants) not in (list, tuple):
        return None
    chosen: list[Variant] = []
    if variants:
        registry = variant_registry()
        for variant in variants:  # type: ignore[attr-defined]
            if type(variant) is str:
                try:
                    chosen.append(registry.get(variant))
                except TrickyTreatsError:
                    return None  # new_game says what is wrong with it
            elif isinstance(variant, Variant):
                chosen.append(variant)
            else:
                return None
    held = (tuple(chosen), components)
    return (
        names,
        first_player,
        bool(any_mean_house),
        bool(refresh_ends_turn),
        tuple(map(id, chosen)),
        id(components),
    ), held


def _deals_of(
    players: int | Sequence[str],
    first_player: int,
    any_mean_house: bool,
    refresh_ends_turn: bool,
    held: _Held,
) -> BaseDeals | None:
    """The dealer of the configuration, or None.

    None where its games are not dealt into cores, or where ``new_game`` refuses the
    arguments (it then says why).
    """
    variants, components = held
    try:
        dealer = _Dealer(
            players,
            first_player=first_player,
            any_mean_house=any_mean_house,
            refresh_ends_turn=refresh_ends_turn,
            variants=variants,
            variant_options=None,
            components=components,
        )
        return BaseDeals.of(dealer)
    except TrickyTreatsError:
        return None

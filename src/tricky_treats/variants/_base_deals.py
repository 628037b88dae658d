"""The base game's first cores for many seeds, made without building their setups.

A ``Setup`` and its lookup tables are most of what dealing a game costs, and the vector env
(``adapters.vector``) deals thousands of games a second, of which it needs only the core and
the trick tiles. ``BaseDeals`` does the shuffles of the base deal hook
(``variants.base.tricky_treats_deal``) on indices, drawing the very numbers ``new_game``
draws from the game's seed, and builds each core's tables from tables per box worked out
once: the same tables as ``_tables.tables()`` of the setup ``new_game`` deals, which the
constructor checks on a few seeds and ``tests/test_base_deals.py`` on many. Only for the base
game from the base box: a variant may change the deal, and a box of one's own is dealt by
the rules as given. Not part of the public API.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from tricky_treats.dealing import _seeded_random, check_seed
from tricky_treats.simulator import _core, _needs
from tricky_treats.simulator._lookup import _TREAT_INDEX, _TYPES, _house_info, _qualify
from tricky_treats.simulator._tables import _house_gains, first_core, new_core, tables
from tricky_treats.variants._shuffles import plan
from tricky_treats.variants.base import GRID_HOUSES, _box, _shuffled

if TYPE_CHECKING:
    from tricky_treats.components import TrickTile
    from tricky_treats.dealing import _Dealer
    from tricky_treats.model import Setup

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
    "qualify",
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
    "counts",
    "icons",
    "ready",
    "free",
    "qualified",
    "tops",
    "taken",
    "treats",
    "pumpkins",
    "visited",
    "tricked",
    "footprints",
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
)
"""The fields of ``_core.Core`` but its tables."""


class BaseDeals:
    """``deal(seed)``: the core of ``new_game(seed=seed)``'s first state and its trick tiles.

    For one ``dealing._Dealer`` of the base game (``of()`` says None for any other, or where
    the core does not cover the game). The trick tiles are positions in the box's
    ``trick_tiles`` (``tiles``): each seat's secret tile, and each mean house's tile; with
    ``tile_needs``, ``tile_points`` and ``pumpkin_points`` they are what ``_core.totals``
    scores. ``cards`` are the box's cards by id.
    """

    __slots__ = (
        "_back",
        "_feature",
        "_first_player",
        "_footprints",
        "_front",
        "_gain",
        "_market_size",
        "_mean_houses",
        "_minimum",
        "_most",
        "_players",
        "_shuffles",
        "_street_treat",
        "_template",
        "_treat",
        "cards",
        "pumpkin_points",
        "tile_needs",
        "tile_points",
        "tiles",
    )

    @classmethod
    def of(cls, dealer: _Dealer) -> BaseDeals | None:
        """The deals of ``dealer``'s games, or None if they are not the base game's."""
        if not dealer.base_game:
            return None
        probe = dealer.setup(0)
        template = tables(probe)
        if template is None or len(probe.secret_tiles) != len(probe.config.players):
            return None
        deals = cls(probe, template)
        for seed in (0, 1, 2):  # the very deals new_game makes, or none at all
            if not same_deal(dealer.setup(seed), *deals.deal(seed), deals.tiles):
                return None  # pragma: no cover - a deal hook that is not the base game's
        return deals

    def __init__(self, probe: Setup, template: _core.Tables) -> None:
        components = probe.components
        rules = probe.rules
        box = _box(components)
        self._template = template
        self.cards = template.cards  # the box's cards, by id
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
        houses = [_house_info(house) for house in box.grid]
        self._feature = tuple([house[1] for house in houses])
        self._minimum = tuple([house[2] for house in houses])
        self._treat = tuple([house[3] for house in houses])
        self._gain = _house_gains(box.grid)
        streets = components.street_bonus_tokens
        self._street_treat = tuple([_TREAT_INDEX[token.treat] for token in streets])
        self._front = tuple([token.front for token in streets])
        self._back = tuple([token.back for token in streets])
        self._most = probe.action_space.kids * _TYPES
        self._players = len(probe.config.players)
        self._mean_houses = len(box.mean_starts)
        self._market_size = rules.market_size
        self._footprints = rules.footprints_per_player
        self._first_player = probe.config.first_player
        self.tiles: tuple[TrickTile, ...] = components.trick_tiles
        self.tile_needs = tuple([_needs(tile) for tile in self.tiles])
        self.tile_points = tuple([tile.points for tile in self.tiles])
        self.pumpkin_points = rules.pumpkin_points

    def deal(self, seed: int) -> tuple[_core.Core, tuple[int, ...], tuple[int, ...]]:
        """The first core of the game of ``seed``, its seats' secret tiles and mean tiles."""
        check_seed(seed)
        neighbours, tokens, streets, tiles, deck = _shuffled(_seeded_random(seed), self._shuffles)
        grid = operator.itemgetter(
            *[n + t for n, t in zip(neighbours[:GRID_HOUSES], tokens, strict=False)]
        )
        street = operator.itemgetter(*streets)
        features = grid(self._feature)
        table = self._template.with_board(
            tuple(deck),
            _qualify(self._most, features, grid(self._minimum)),
            features,
            grid(self._treat),
            grid(self._gain),
            street(self._street_treat),
            street(self._front),
            street(self._back),
        )
        market_size = self._market_size
        core = new_core(
            table,
            self._footprints,
            deck[:market_size],
            market_size,
            GRID_HOUSES,
            self._mean_houses,
            self._first_player,
        )
        mean = self._mean_houses
        return core, tuple(tiles[mean : mean + self._players]), tuple(tiles[:mean])


def same_deal(
    setup: Setup,
    core: _core.Core,
    secret: tuple[int, ...],
    mean: tuple[int, ...],
    tiles: tuple[TrickTile, ...],
) -> bool:
    """Whether ``BaseDeals.deal()``'s answer is what ``setup`` (``new_game``'s) deals."""
    expected = first_core(setup)
    if expected is None:
        return False
    for field in CORE_FIELDS:
        if getattr(core, field) != getattr(expected, field):
            return False
    for field in TABLE_FIELDS:
        if getattr(core.tables, field) != getattr(expected.tables, field):
            return False
    return [tiles[t] for t in secret] == list(setup.secret_tiles) and [tiles[t] for t in mean] == [
        house.tile for house in setup.mean_houses
    ]

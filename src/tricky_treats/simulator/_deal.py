"""Dealing a game straight into the compact core: the base game's deal, on indices.

Private. ``Box`` holds what the deals of one configuration share, worked out once by
``variants._base_deals`` (from the box's components, checked there against ``new_game``);
``deal`` turns the base deal's shuffles (``variants.base``: nice neighbours, house treat
tokens, street bonus tokens, trick tiles, then the deck, drawn from the game's own
``random.Random(seed)``) into the game's first core and its ``Scoring``. A shuffle draws the
same numbers whatever it shuffles, so shuffling indices puts each index where ``new_game``
puts its token or card. Compiled with the core (``hatch_build.COMPILED_GROUP``); imports the
standard library and the core only.
"""

from __future__ import annotations

from operator import itemgetter

from tricky_treats.simulator._core import (
    COUNT_BITS,
    COUNT_MASK,
    Core,
    Scoring,
    Tables,
    new_core,
)


class Box:
    """What every deal of one configuration shares.

    ``template`` is the core's tables of any of its games (``with_deal`` gives a deal's);
    by grid house ``n * T + t`` (nice neighbour n with house treat token t of T), the
    feature it wants (an index into ``FEATURES``), the fewest cards of it its lowest tier
    wants, its treat token (an index into ``Treat``) and ``gains[count]``, the treats it
    gives for a count of cards; by street bonus token, its treat, front and back; how many
    features there are (``FEATURES``); how many mean houses (one per mean neighbour, in the
    box's order, each dealt the next trick tile); the trick tiles' needs and points, for the
    ``Scoring``.
    """

    def __init__(
        self,
        template: Tables,
        house_feature: tuple[int, ...],
        house_minimum: tuple[int, ...],
        house_treat: tuple[int, ...],
        house_gains: tuple[tuple[int, ...], ...],
        street_treat: tuple[int, ...],
        street_front: tuple[int, ...],
        street_back: tuple[int, ...],
        mean_houses: int,
        footprints: int,
        first_player: int,
        features: int,
        tile_needs: tuple[tuple[int, ...], ...],
        tile_points: tuple[int, ...],
        pumpkin_points: int,
    ) -> None:
        self.template = template
        self.house_feature = house_feature
        self.house_minimum = house_minimum
        self.house_treat = house_treat
        self.house_gains = house_gains
        self.street_treat = street_treat
        self.street_front = street_front
        self.street_back = street_back
        self.mean_houses = mean_houses
        self.footprints = footprints
        self.first_player = first_player
        self.features = features
        self.tile_needs = tile_needs
        self.tile_points = tile_points
        self.pumpkin_points = pumpkin_points


def deal(box: Box, shuffled: list[list[int]], grid_houses: int) -> tuple[Core, Scoring]:
    """The first core of the game the shuffles deal, and its ``Scoring``.

    ``shuffled`` are the base deal's five shuffles of indices: nice neighbours (the index
    of each one's first grid house), house treat tokens, street bonus tokens, trick tiles
    (the first on the mean houses, the next one per player as secret tiles) and the deck
    (card ids); the first ``grid_houses`` neighbours, each with the token at its position,
    form the grid.
    """
    neighbours, tokens, streets, tiles, deck = shuffled
    houses = [neighbours[h] + tokens[h] for h in range(grid_houses)]
    # One itemgetter for each of the grid's and streets' tables: a C loop each, fewer steps
    # in the pure build than a comprehension. The grid has 9 houses and 6 streets (what the
    # core covers), so each call gives a tuple (an itemgetter of one index gives the item).
    of_houses = itemgetter(*houses)
    of_streets = itemgetter(*streets)
    features: tuple[int, ...] = of_houses(box.house_feature)
    template = box.template
    tables = template.with_deal(
        tuple(deck),
        qualifying_table(box.features, features, list(of_houses(box.house_minimum))),
        features,
        of_houses(box.house_treat),
        of_houses(box.house_gains),
        of_streets(box.street_treat),
        of_streets(box.street_front),
        of_streets(box.street_back),
        template.mean_icon,
        template.mean_ready,
        template.cards,
    )
    market_size = tables.market_size
    core = new_core(tables, box.footprints, deck[:market_size], market_size, box.first_player)
    mean = box.mean_houses
    scoring = Scoring(
        box.tile_needs,
        box.tile_points,
        tuple(tiles[mean : mean + tables.players]),
        tuple(tiles[:mean]),
        box.pumpkin_points,
    )
    return core, scoring


def qualifying_table(
    feature_count: int, features: tuple[int, ...], minimums: list[int]
) -> tuple[int, ...]:
    """``Tables.qualifying`` of the grid's nice houses, wanting ``features`` from ``minimums``.

    Entry ``f << COUNT_BITS | n``: the houses wanting feature ``f`` whose lowest tier asks
    for exactly ``n`` cards of it.
    """
    table = [0] * (feature_count << COUNT_BITS)
    for house in range(len(features)):
        minimum = minimums[house]
        if minimum <= COUNT_MASK:  # else out of reach: a count is 4 bits
            table[features[house] << COUNT_BITS | minimum] |= 1 << house
    return tuple(table)

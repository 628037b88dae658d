"""The base game, implemented through the same hooks as every variant (lowest priority).

The plugin manager of every game registers this module first, and each implementation here
is ``trylast``: a variant's implementation of a replace hook wins over it, and a variant's
edit hook receives what this one returned.
"""

from __future__ import annotations

import random

import attrs

from tricky_treats.components import ComponentData, RulesData, base_components
from tricky_treats.hookspecs import hookimpl
from tricky_treats.model import Board, GameConfig, GridHouse, MeanHouse

GRID_HOUSES = 9


@hookimpl(trylast=True)
def tricky_treats_components() -> ComponentData:
    """The package's component data (``data/base.toml``)."""
    return base_components()


@hookimpl(trylast=True)
def tricky_treats_rules(rules: RulesData, config: GameConfig) -> RulesData:
    """The options asked for in the configuration (R4 and R8 options)."""
    return attrs.evolve(
        rules,
        any_mean_house=rules.any_mean_house or config.any_mean_house,
        refresh_ends_turn=rules.refresh_ends_turn or config.refresh_ends_turn,
    )


@hookimpl(trylast=True)
def tricky_treats_deal(config: GameConfig, components: ComponentData, rng: random.Random) -> Board:
    """The rulebook's setup, shuffled by the game's ``rng``.

    The draws happen in a fixed order: nice neighbours (9 of them form the grid, row by row),
    house treat tokens, street bonus tokens, trick tiles (the first on the mean houses, the
    next one per player as secret tiles), then the deck.
    """
    neighbours = list(components.nice_neighbours)
    rng.shuffle(neighbours)
    treat_tokens = list(components.house_treat_tokens)
    rng.shuffle(treat_tokens)
    street_tokens = list(components.street_bonus_tokens)
    rng.shuffle(street_tokens)
    tiles = list(components.trick_tiles)
    rng.shuffle(tiles)
    deck = list(components.cards)
    rng.shuffle(deck)
    mean = components.mean_neighbours
    grid = zip(neighbours[:GRID_HOUSES], treat_tokens, strict=True)
    return Board(
        grid=tuple(GridHouse(neighbour, treat) for neighbour, treat in grid),
        street_tokens=tuple(street_tokens),
        mean_houses=tuple(MeanHouse(m, tile) for m, tile in zip(mean, tiles, strict=False)),
        secret_tiles=tuple(tiles[len(mean) : len(mean) + len(config.players)]),
        deck=tuple(deck),
    )

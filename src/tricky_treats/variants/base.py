"""The base game, implemented through the same hooks as every variant (lowest priority).

The plugin manager of every game registers this module first, and each implementation here
is ``trylast``: a variant's implementation of a replace hook wins over it, and a variant's
edit hook receives what this one returned.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Any

import attrs

from tricky_treats.components import ComponentData, RulesData, base_components
from tricky_treats.hookspecs import hookimpl
from tricky_treats.model import Board, GameConfig, GridHouse, MeanHouse
from tricky_treats.variants._shuffles import Shuffle as _Shuffle
from tricky_treats.variants._shuffles import fast_shuffles, plan

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
    box = _box(components)
    # Indices where the deal needs them, the tokens and cards themselves: shuffling either
    # draws the same numbers, so seeds deal the same boards. Nice neighbour n is shuffled as
    # the index of its first house in ``box.grid``, trick tile t as t.
    neighbours, treat_tokens, street_tokens, tiles, deck = _shuffled(rng, box.shuffles)
    grid, mean_houses, mean = box.grid, box.mean_houses, box.mean_starts
    all_tiles = components.trick_tiles
    secret = tiles[len(mean) : len(mean) + len(config.players)]
    return Board(
        tuple([grid[n + t] for n, t in zip(neighbours[:GRID_HOUSES], treat_tokens, strict=False)]),
        tuple(street_tokens),
        tuple([mean_houses[m + t] for m, t in zip(mean, tiles, strict=False)]),
        tuple([all_tiles[t] for t in secret]),
        tuple(deck),
        False,
    )


def _reference_shuffles(rng: random.Random, shuffles: Sequence[_Shuffle]) -> list[list[Any]]:
    shuffled = []
    for start, _ in shuffles:
        items = start[:]
        rng.shuffle(items)
        shuffled.append(items)
    return shuffled


def _fast_shuffles(rng: random.Random, shuffles: Sequence[_Shuffle]) -> list[list[Any]]:
    """``_reference_shuffles``, drawing the very same numbers from ``rng``, faster."""
    return fast_shuffles(rng.getrandbits, shuffles)


def _same_draws() -> bool:
    """Whether ``_fast_shuffles`` gives what this Python's ``random.shuffle`` gives."""
    for seed in range(20):
        shuffles = [plan(range(n)) for n in (0, 1, 2, 3, 7, 9, 33, 36, 72, 100, 9, 6, 20, 72)]
        fast, reference = random.Random(seed), random.Random(seed)
        if _fast_shuffles(fast, shuffles) != _reference_shuffles(reference, shuffles):
            return False  # pragma: no cover - another Python's shuffle
        if fast.getstate() != reference.getstate():
            return False  # pragma: no cover - another Python's shuffle
    return True


_FAST = _same_draws()


def _shuffled(rng: random.Random, shuffles: Sequence[_Shuffle]) -> list[list[Any]]:
    """Each shuffle's items as a list in the order ``rng.shuffle`` puts them.

    The shuffles are done one after the other, as ``rng.shuffle`` on each list in turn
    would. The fast path is used only for ``random.Random`` itself, and only if it was
    checked at import to agree with this Python's ``shuffle``.
    """
    if _FAST and type(rng) is random.Random:
        return fast_shuffles(rng.getrandbits, shuffles)
    return _reference_shuffles(rng, shuffles)


class _Box:
    """What the deal of one box needs, worked out once and shared by every game.

    ``grid[n * T + t]`` is nice neighbour n with house treat token t (of T tokens);
    ``mean_houses[mean_starts[m] + t]`` is mean neighbour m with trick tile t. They are
    immutable, so games share them. ``shuffles`` are the deal's shuffles in order
    (``_shuffles.plan``).
    """

    __slots__ = ("grid", "mean_houses", "mean_starts", "shuffles")

    def __init__(self, components: ComponentData) -> None:
        tokens = components.house_treat_tokens
        tiles = components.trick_tiles
        self.grid = tuple(
            GridHouse(neighbour, token)
            for neighbour in components.nice_neighbours
            for token in tokens
        )
        self.mean_houses = tuple(
            MeanHouse(mean, tile) for mean in components.mean_neighbours for tile in tiles
        )
        self.mean_starts = tuple(m * len(tiles) for m in range(len(components.mean_neighbours)))
        self.shuffles: tuple[_Shuffle, ...] = (
            plan([n * len(tokens) for n in range(len(components.nice_neighbours))]),
            plan(range(len(tokens))),
            plan(components.street_bonus_tokens),
            plan(range(len(tiles))),
            plan(components.cards),
        )


_BOXES: dict[int, tuple[ComponentData, _Box]] = {}
_BOXES_KEPT = 16
_BOXES_LOCK = threading.Lock()


def _box(components: ComponentData) -> _Box:
    entry = _BOXES.get(id(components))
    if entry is not None and entry[0] is components:  # the entry keeps its key's object alive
        return entry[1]
    box = _Box(components)
    with _BOXES_LOCK:
        while len(_BOXES) >= _BOXES_KEPT:
            del _BOXES[next(iter(_BOXES))]  # the oldest: the cache stays small
        _BOXES[id(components)] = (components, box)
    return box

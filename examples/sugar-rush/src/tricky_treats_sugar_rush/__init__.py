"""Sugar rush: every nice neighbour is more generous, and pairs of treats are worth more."""

from __future__ import annotations

import sys

import attrs

import tricky_treats as tt

__all__ = ["PAIR_POINTS", "VARIANT"]

PAIR_POINTS = 4


@tt.hookimpl
def tricky_treats_nice_neighbours(
    neighbours: tuple[tt.NiceNeighbour, ...],
) -> tuple[tt.NiceNeighbour, ...]:
    """Every tier of every nice neighbour gives one more treat."""
    return tuple(
        attrs.evolve(n, tiers=tuple(tt.Tier(t.cards, t.treats + 1) for t in n.tiers))
        for n in neighbours
    )


@tt.hookimpl
def tricky_treats_trick_tiles(tiles: tuple[tt.TrickTile, ...]) -> tuple[tt.TrickTile, ...]:
    """Tiles asking for two of one treat score 4 points a set."""
    return tuple(
        attrs.evolve(t, points=PAIR_POINTS) if len(t.treats) == 2 and len(set(t.treats)) == 1 else t
        for t in tiles
    )


VARIANT = tt.Variant(
    name="sugar-rush",
    version="1.0.0",
    title="Sugar rush",
    description="Nice neighbours give one more treat per tier; pairs score 4 a set.",
    plugin=sys.modules[__name__],
)

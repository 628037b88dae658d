"""Plain ``GameState`` values built from a core (``Simulator.state()``).

A board is built again only where its player moved since the last state built from the same
simulator: ``Boards`` keeps, per seat, the last board with what it was built from, so the
states a simulator gives share every unchanged board (and what views and score sheets worked
out from it), and the mover's board costs little. Not part of the public API.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

from tricky_treats.components import Treat
from tricky_treats.model import GameState, PlayerState
from tricky_treats.simulator import _core

if TYPE_CHECKING:
    from tricky_treats.components import CostumeCard, TrickTile
    from tricky_treats.model import ActionLog, EndTrigger, Setup

__all__: list[str] = []

# Per seat: the chain of cards taken, treats, pumpkins, visited, tricked, footprints and the
# board built from them.
_Entry = tuple["_core.Taken | None", int, int, int, int, int, "PlayerState"]


class Boards:
    """The last board built for each seat of one simulator, and the last market."""

    __slots__ = ("entries", "market")

    def __init__(self, seats: int) -> None:
        self.entries: list[_Entry | None] = [None] * seats
        self.market: tuple[list[int], tuple[CostumeCard | None, ...]] | None = None

    def copy(self) -> Boards:
        """A copy for a clone of the simulator (the entries are immutable, and shared)."""
        twin = Boards(0)
        twin.entries = self.entries[:]
        twin.market = self.market
        return twin


def state_of(setup: Setup, core: _core.Core, boards: Boards) -> GameState:
    """The plain ``GameState`` that ``core`` stands for."""
    tables = core.tables
    cards = tables.cards
    names = setup.config.players
    tiles = setup.secret_tiles
    entries = boards.entries
    players = []
    for seat in range(len(entries)):
        taken = core.taken[seat]
        treats = core.treats[seat]
        pumpkins = core.pumpkins[seat]
        visited = core.visited[seat]
        tricked = core.tricked[seat]
        footprints = core.footprints[seat]
        entry = entries[seat]
        if (
            entry is not None
            and entry[0] is taken
            and entry[1] == treats
            and entry[2] == pumpkins
            and entry[3] == visited
            and entry[4] == tricked
            and entry[5] == footprints
        ):
            players.append(entry[6])
            continue
        board = _board(
            tables, cards, names[seat], tiles[seat], core, seat, None if entry is None else entry
        )
        entries[seat] = (taken, treats, pumpkins, visited, tricked, footprints, board)
        players.append(board)
    ids = core.market
    last = boards.market
    if last is not None and last[0] == ids:
        market = last[1]
    else:
        market = tuple([None if card < 0 else cast("CostumeCard", cards[card]) for card in ids])
        boards.market = (ids[:], market)
    discarded = core.discarded
    current = core.current
    return GameState(
        setup,
        tuple(players),
        market,
        core.position,
        tuple([cast("CostumeCard", cards[c]) for c in discarded]) if discarded else (),
        _flags(len(setup.grid))[core.house_pumpkins],
        _flags(len(setup.mean_houses))[core.mean_pumpkins],
        _flags(len(setup.street_tokens))[core.flipped],
        None if current < 0 else current,
        core.turn,
        core.passes,
        cast("EndTrigger | None", core.trigger),
        cast("ActionLog", core.log),
    )


def _board(
    tables: _core.Tables,
    cards: tuple[object, ...],
    name: str,
    tile: object,
    core: _core.Core,
    seat: int,
    last: _Entry | None,
) -> PlayerState:
    """One board, sharing the kids of ``last`` where the player took no card."""
    taken = core.taken[seat]
    base = None if last is None else last[6]
    if base is not None and last is not None and last[0] is taken:
        kids = base.kids
    elif base is not None and last is not None and taken is not None and taken.before is last[0]:
        old = base.kids  # one card more than the last board
        kid = taken.kid
        card = cast("CostumeCard", cards[taken.card])
        kids = (*old[:kid], (*old[kid], card), *old[kid + 1 :])
    else:
        kids = _kids(tables, taken)
    return PlayerState(
        name,
        kids,
        _unpacked(_TREATS, core.treats[seat], _TREAT_SHIFTS),
        core.pumpkins[seat],
        _houses(core.visited[seat]),
        _houses(core.tricked[seat]),
        core.footprints[seat],
        cast("TrickTile", tile),
    )


def _kids(tables: _core.Tables, taken: _core.Taken | None) -> tuple[tuple[Any, ...], ...]:
    """The kids' stacks, rebuilt from the chain of cards taken."""
    newest = []
    node = taken
    while node is not None:
        newest.append(node)
        node = node.before
    cards = tables.cards
    kids: list[tuple[Any, ...]] = [()] * tables.kids
    for node in reversed(newest):
        kids[node.kid] = (*kids[node.kid], cards[node.card])
    return tuple(kids)


_TREAT_SHIFTS = tuple(_core.TREAT_BITS * i for i in range(len(Treat)))

# Shared results (there are few distinct ones), so that kept states hold no copies of their
# own; each table is cleared if it ever grows large.
_TREATS: dict[int, tuple[int, ...]] = {}
_HOUSES: dict[int, frozenset[int]] = {}
_MASKS = {
    id(_TREATS): (1 << _core.TREAT_BITS) - 1,
}


def _unpacked(
    table: dict[int, tuple[int, ...]], packed: int, shifts: tuple[int, ...]
) -> tuple[int, ...]:
    """The values packed in ``packed`` at ``shifts``, kept in ``table`` (one of the above)."""
    values = table.get(packed)
    if values is None:
        mask = _MASKS[id(table)]
        values = tuple([packed >> shift & mask for shift in shifts])
        if len(table) >= 8192:
            table.clear()
        table[packed] = values
    return values


def _houses(mask: int) -> frozenset[int]:
    houses = _HOUSES.get(mask)
    if houses is None:
        houses = frozenset(h for h in range(mask.bit_length()) if mask >> h & 1)
        if len(_HOUSES) >= 8192:
            _HOUSES.clear()
        _HOUSES[mask] = houses
    return houses


@functools.cache
def _flags(count: int) -> tuple[tuple[bool, ...], ...]:
    """Per bit mask of ``count`` flags, the flags (shared tuples)."""
    return tuple(tuple(bool(mask >> i & 1) for i in range(count)) for mask in range(1 << count))

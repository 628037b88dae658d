"""Plain ``GameState`` values built from a core (``Simulator.state()``).

A board is built again only where its player moved since the last state built from the same
simulator: ``Boards`` keeps, per seat, the last board with what it was built from, so the
states a simulator gives share every unchanged board (and what views and score sheets worked
out from it), and the mover's board costs little. It keeps the last log built too, so that
reading ``state()`` after every move builds each entry of the log once. Not part of the
public API.
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

# Per seat: its kids' stacks, treats, pumpkins, visited, tricked, footprints and the board
# built from them.
_Entry = tuple[tuple[int, ...], int, int, int, int, int, "PlayerState"]


class Boards:
    """The last board built for each seat of one simulator, the last market and log."""

    __slots__ = ("entries", "log", "market")

    def __init__(self, seats: int) -> None:
        self.entries: list[_Entry | None] = [None] * seats
        self.market: tuple[list[int], tuple[CostumeCard | None, ...]] | None = None
        # The log of the first ``count`` codes played, and the log they were played after.
        self.log: tuple[int, object, object] | None = None

    def copy(self) -> Boards:
        """A copy for a clone of the simulator (the entries are immutable, and shared)."""
        twin = Boards(0)
        twin.entries = self.entries[:]
        twin.market = self.market
        twin.log = self.log
        return twin


def state_of(setup: Setup, core: _core.Core, boards: Boards) -> GameState:
    """The plain ``GameState`` that ``core`` stands for."""
    tables = core.tables
    cards = tables.cards
    names = setup.config.players
    tiles = setup.secret_tiles
    entries = boards.entries
    players = []
    for number, seat in enumerate(core.seats):
        stacks = tuple(seat.stacks)
        treats = seat.treats
        pumpkins = seat.pumpkins
        visited = seat.visited
        tricked = seat.tricked
        footprints = seat.footprints
        entry = entries[number]
        if (
            entry is not None
            and entry[0] == stacks
            and entry[1] == treats
            and entry[2] == pumpkins
            and entry[3] == visited
            and entry[4] == tricked
            and entry[5] == footprints
        ):
            players.append(entry[6])
            continue
        board = _board(cards, names[number], tiles[number], seat, stacks, entry)
        entries[number] = (stacks, treats, pumpkins, visited, tricked, footprints, board)
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
        cast("ActionLog", _log(core, boards)),
    )


def _log(core: _core.Core, boards: Boards) -> object:
    """The log of ``core``: the log it was made from, with the codes played since on top.

    Built on the last log built for the same simulator (whose codes the core played first).
    """
    played = core.played
    last = boards.log
    if last is not None and last[1] is core.log and last[0] <= len(played):
        count, _, log = last
    else:
        count, log = 0, core.log
    if count < len(played):
        actions = core.tables.actions
        for code in played[count:]:
            log = (actions[code], log)
        boards.log = (len(played), core.log, log)
    return log


def _board(
    cards: tuple[object, ...],
    name: str,
    tile: object,
    seat: _core.Seat,
    stacks: tuple[int, ...],
    last: _Entry | None,
) -> PlayerState:
    """One board, sharing the kids of ``last`` that took no card since."""
    if last is None:
        kids = tuple([_stack(cards, stack) for stack in stacks])
    elif last[0] == stacks:
        kids = last[6].kids
    else:
        before, worn = last[0], last[6].kids
        kids = tuple(
            [
                worn[kid] if before[kid] == stack else _stack(cards, stack)
                for kid, stack in enumerate(stacks)
            ]
        )
    return PlayerState(
        name,
        kids,
        _unpacked(_TREATS, seat.treats, _TREAT_SHIFTS),
        seat.pumpkins,
        _houses(seat.visited),
        _houses(seat.tricked),
        seat.footprints,
        cast("TrickTile", tile),
    )


def _stack(cards: tuple[object, ...], stack: int) -> tuple[Any, ...]:
    """A kid's cards, oldest first, from its packed stack (the top card lowest)."""
    if not stack:
        return ()
    worn: list[object] = []
    while stack:
        worn.append(cards[(stack & _core.CARD_MASK) - 1])
        stack >>= _core.CARD_BITS
    worn.reverse()
    return tuple(worn)


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

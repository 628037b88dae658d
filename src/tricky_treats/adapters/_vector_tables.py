"""The vector env's tables (needs numpy); private to ``tricky_treats.adapters.vector``.

The core's layout of the observation encoding, the rows per card and per bit mask, and the
flat offsets through which the env writes the moves into its arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tricky_treats.adapters.observation import ObservationEncoding
from tricky_treats.components import FEATURES, Colour, CostumeType, Theme, Treat, TrickIcon
from tricky_treats.model import GameState, Termination
from tricky_treats.simulator import Simulator, _core

__all__ = [
    "bit_rows",
    "board_offsets",
    "layout_of",
    "market_rows",
    "seat_offsets",
    "take_tables",
]

# Enum members live as long as the process: their ids are stable, and quick, keys.
_INDEX = {
    kind: {id(member): i for i, member in enumerate(kind)}
    for kind in (Colour, Theme, CostumeType, TrickIcon, Treat)
}
_REASON = {member: i for i, member in enumerate(Termination)}


def _trigger_of(trigger: Any) -> tuple[int, int]:
    return trigger.player, _REASON[trigger.reason]


def layout_of(
    encoding: ObservationEncoding, game: GameState
) -> tuple[_core.Layout, tuple[tuple[int, ...], ...], tuple[Any, ...]]:
    """The core's layout of ``encoding`` for the cards of ``game``'s box.

    And per card the entries of ``deck_features`` and ``deck_icons`` it counts in, and the
    cards by id.
    """
    at = {s.name: s.start for s in encoding.sections}
    setup = game.setup
    tables = _core_tables(game)
    cards: tuple[Any, ...] = setup.components.cards if tables is None else tables.cards
    kid: list[tuple[int, ...]] = []
    market: list[tuple[int, ...]] = []
    top: list[tuple[int, int]] = []
    deck: list[tuple[int, ...]] = []
    for card in cards:
        if card is None:
            kid.append(())
            market.append(())
            top.append((0, 0))
            deck.append(())
            continue
        kind = _INDEX[CostumeType][id(card.type)]
        colour = _INDEX[Colour][id(card.colour)]
        theme = _INDEX[Theme][id(card.theme)]
        icon = _INDEX[TrickIcon][id(card.icon)]
        block = kind * 11
        kid.append((block, block + 1 + colour, block + 4 + theme, block + 8 + icon))
        market.append((0, 1 + colour, 4 + theme, 8 + kind, 11 + icon))
        top.append((kind, icon))
        deck.append((colour, 3 + theme, 7 + kind, 10 + icon))
    layout = _core.Layout(
        encoding.size,
        at,
        len(game.players),
        setup.rules.kids_per_player,
        setup.rules.market_size,
        len(setup.grid),
        len(setup.street_tokens),
        len(setup.mean_houses),
        len(encoding.tile_ids),
        tuple(kid),
        tuple(market),
        tuple(top),
        _trigger_of,
        len(FEATURES),
        encoding.most_cards,
    )
    return layout, tuple(deck), cards


def bit_rows(bits: int) -> npt.NDArray[np.float32]:
    """Per bit mask of ``bits`` bits, its bits as a row of ones and zeros."""
    masks = np.arange(1 << bits, dtype=np.intp)[:, None]
    return ((masks >> np.arange(bits)) & 1).astype(np.float32)


def market_rows(layout: _core.Layout) -> npt.NDArray[np.float32]:
    """Per card id, the ones it puts in a market slot's 14 entries of ``market``.

    After the cards, a row of zeros (for card -1, none).
    """
    cards = len(layout.card_kid)
    market = np.zeros((cards + 1, 14), np.float32)
    for card in range(cards):
        if layout.card_kid[card]:  # a card the box has
            market[card, list(layout.card_market[card])] = 1.0
    return market


def _core_tables(game: GameState) -> _core.Tables | None:
    core = Simulator(game)._core
    return None if core is None else core.tables


def seat_offsets(
    encoding: ObservationEncoding, players: int, sections: tuple[tuple[str, int], ...]
) -> npt.NDArray[np.intp]:
    """Per seat, where its entries of ``sections`` are in every viewer's part, flat.

    ``sections`` are per-seat sections and the width of a seat's row in each. Row ``s`` is
    seat ``s``'s offsets: viewer by viewer (``viewer * encoding.size`` plus the offset in
    the viewer's observation, where seat ``s`` is row ``(s - viewer) % players``), each
    section's row one after the other. A game's part is ``players`` observations long.
    """
    size = encoding.size
    found = np.zeros((players, players, sum(width for _, width in sections)), np.intp)
    for seat in range(players):
        for viewer in range(players):
            row = (seat - viewer) % players
            at = 0
            for name, width in sections:
                start = viewer * size + encoding.section(name).start + row * width
                found[seat, viewer, at : at + width] = np.arange(start, start + width)
                at += width
    return found.reshape(players, -1)


def board_offsets(
    encoding: ObservationEncoding, players: int, names: tuple[str, ...]
) -> npt.NDArray[np.intp]:
    """Where the sections ``names`` are in every viewer's part, flat: viewer by viewer."""
    size = encoding.size
    one = np.concatenate([np.arange(s.start, s.stop) for s in map(encoding.section, names)]).astype(
        np.intp
    )
    return (np.arange(players, dtype=np.intp)[:, None] * size + one).reshape(-1)


def take_tables(
    encoding: ObservationEncoding, layout: _core.Layout, players: int
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float32]]:
    """What a card put on a kid writes in every viewer's part of its game, flat.

    ``base[seat * kids + kid]``: per viewer, the start of the kid's block in ``kids`` (4 times),
    of its entries in ``top_type`` (3 times) and in ``shown_icon`` (3 times);
    ``offsets[card]`` what to add to those (the card's 4 ones in the block, then 0, 1, 2
    twice) and ``values[card]`` the values written there (1 four times, the card's costume
    type and its trick icon one-hot), each repeated per viewer.
    """
    kids = layout.kids
    size = encoding.size
    base = np.zeros((players, kids, players, 10), np.intp)
    for seat in range(players):
        for kid in range(kids):
            for viewer in range(players):
                slot = ((seat - viewer) % players) * kids + kid
                at = viewer * size
                base[seat, kid, viewer, :4] = at + layout.kids_at + slot * 33
                base[seat, kid, viewer, 4:7] = at + layout.top_at + slot * 3
                base[seat, kid, viewer, 7:] = at + layout.icon_at + slot * 3
    cards = len(layout.card_kid)
    offsets = np.zeros((cards, 10), np.intp)
    values = np.zeros((cards, 10), np.float32)
    offsets[:, 4:7] = offsets[:, 7:] = np.arange(3)
    for card in range(cards):
        if layout.card_kid[card]:  # a card the box has
            offsets[card, :4] = layout.card_kid[card]
            values[card, :4] = 1.0
            values[card, 4 + layout.card_top[card][0]] = 1.0
            values[card, 7 + layout.card_top[card][1]] = 1.0
    return (
        base.reshape(players * kids, -1),
        np.tile(offsets, (1, players)),
        np.tile(values, (1, players)),
    )

"""The vector env's tables (needs numpy); private to ``tricky_treats.adapters.vector``.

The core's layout of the observation encoding, and the rows per card and per bit mask
through which the env writes the moves into its arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tricky_treats.adapters.observation import ObservationEncoding
from tricky_treats.components import FEATURES, Colour, CostumeType, Theme, Treat, TrickIcon
from tricky_treats.model import GameState, Termination
from tricky_treats.simulator import Simulator, _core

__all__ = ["bit_rows", "card_rows", "layout_of"]

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


def card_rows(
    layout: _core.Layout,
) -> tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
]:
    """Per card id, the ones a card puts in a seat's block and in a market slot.

    In a kid's 33 entries of ``kids``, its 3 of ``top_type`` and of ``shown_icon``, and a
    slot's 14 of ``market``; after the cards, a row of zeros (for card -1, none).
    """
    cards = len(layout.card_kid)
    kid = np.zeros((cards + 1, 33), np.float32)
    top = np.zeros((cards + 1, 3), np.float32)
    icon = np.zeros((cards + 1, 3), np.float32)
    market = np.zeros((cards + 1, 14), np.float32)
    for card in range(cards):
        if layout.card_kid[card]:  # a card the box has
            kid[card, list(layout.card_kid[card])] = 1.0
            top[card, layout.card_top[card][0]] = 1.0
            icon[card, layout.card_top[card][1]] = 1.0
            market[card, list(layout.card_market[card])] = 1.0
    return kid, top, icon, market


def _core_tables(game: GameState) -> _core.Tables | None:
    core = Simulator(game)._core
    return None if core is None else core.tables

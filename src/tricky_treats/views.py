"""Per-player views: everything one player may see, and nothing else (R16).

A view leaves out the deck order (only its size shows) and every other player's secret trick
tile until the game is over. Score sheets in a view show the points so far (R24), with the
other players' secret tiles left out while the game goes on, and so are the lines variants
add to other players' sheets, unless the variant declares them public
(``Variant.public_scoring``): a scoring function sees the whole state. Send a client its
view, never the ``GameState``.
"""

from __future__ import annotations

import operator
from itertools import compress
from typing import TYPE_CHECKING, Any

import attrs

from tricky_treats.actions import Action
from tricky_treats.components import CostumeCard, RulesData, StreetBonusToken, TrickTile
from tricky_treats.model import (
    EndTrigger,
    GridHouse,
    MeanHouse,
    PlayerState,
    VariantRef,
    _fast_constructor,
    _remember,
    _setup_memo,
)
from tricky_treats.scoring import ScoreSheet, _sheet

if TYPE_CHECKING:
    from tricky_treats.model import GameState

__all__ = ["PlayerView", "PublicPlayer", "player_view"]


@attrs.frozen
class PublicPlayer:
    """What everyone sees of a player's board; their secret tile is not part of it."""

    name: str
    kids: tuple[tuple[CostumeCard, ...], ...]
    treats: tuple[int, ...]
    pumpkins: int
    visited: frozenset[int]
    tricked: frozenset[int]
    footprints: int


@attrs.frozen
class PlayerView:
    """The game as ``player`` sees it.

    ``secret_tiles[p]`` is player p's secret tile where ``player`` may see it (their own, and
    everyone's once the game is over) and None elsewhere.
    """

    player: int
    first_player: int
    variants: tuple[VariantRef, ...]
    variant_options: dict[str, dict[str, Any]]
    rules: RulesData
    """The rules in force (after the game's variants)."""
    players: tuple[PublicPlayer, ...]
    secret_tiles: tuple[TrickTile | None, ...]
    unseen_tiles: tuple[TrickTile, ...]
    """The tiles the viewer cannot see, by id: other players' secret tiles and the box's."""
    grid: tuple[GridHouse, ...]
    street_tokens: tuple[StreetBonusToken, ...]
    street_flipped: tuple[bool, ...]
    mean_houses: tuple[MeanHouse, ...]
    pumpkin_on_house: tuple[bool, ...]
    pumpkin_on_mean_house: tuple[bool, ...]
    market: tuple[CostumeCard | None, ...]
    deck_size: int
    deck_cards: tuple[CostumeCard, ...]
    """The cards left in the deck, by id: what is in it is public, its order is not (R16)."""
    discarded: tuple[CostumeCard, ...]
    current_player: int | None
    turn: int
    passes_in_a_row: int
    end_trigger: EndTrigger | None
    scores: tuple[ScoreSheet, ...]
    history: tuple[Action, ...]
    legal_actions: tuple[Action, ...]
    """The viewer's legal actions; empty when it is not their turn."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.current_player is None

    @property
    def secret_tile(self) -> TrickTile | None:
        """The viewer's own secret tile."""
        return self.secret_tiles[self.player]


def player_view(state: GameState, player: int) -> PlayerView:
    """Build ``player``'s view of ``state`` (the player index is not checked here).

    What does not change from one state to the next (public boards, score sheet lines of
    boards that did not change, the history, the cards left in the deck) is shared with the
    views of earlier states, so a view costs about the same early and late in a game.
    """
    setup = state.setup
    over = state.is_over
    shown = over or setup.secret_tiles_face_up  # R16, or dealt face up by a variant
    players = state.players
    secret_tiles = tuple(
        p.secret_tile if shown or i == player else None for i, p in enumerate(players)
    )
    memo = _setup_memo(setup)
    unseen_key = ("unseen", tuple(t.id if t is not None else None for t in secret_tiles))
    unseen = memo.get(unseen_key)
    if unseen is None:
        in_sight = {t.id for t in secret_tiles if t is not None} | {
            m.tile.id for m in setup.mean_houses
        }
        unseen = tuple(
            sorted(
                (t for t in setup.components.trick_tiles if t.id not in in_sight),
                key=_BY_ID,
            )
        )
        _remember(memo, unseen_key, unseen)
    # The cards left in the deck in id order: the deck sorted by id once per game, and per
    # card its position in the deck; a card is left if its position is not yet drawn.
    lookup = setup.lookup
    order = lookup.deck_order
    if order is None:
        deck = setup.deck
        by_position = sorted(range(len(deck)), key=[card.id for card in deck].__getitem__)
        order = lookup.deck_order = (tuple(deck[i] for i in by_position), tuple(by_position))
    cards_by_id, positions = order
    deck_cards = tuple(compress(cards_by_id, map(state.deck_position.__le__, positions)))
    options = setup.config.variant_options
    sheets = tuple(
        # Other players' lines of scorers that may read hidden information wait for the end
        # of the game, as their secret tiles do (R16).
        _sheet(state, p, secret_tile=shown or p == player, extras=over or p == player)
        for p in range(len(players))
    )
    return _new_view(
        player,
        setup.config.first_player,
        setup.config.variants,
        {k: dict(v) for k, v in options.items()} if options else {},
        setup.rules,
        tuple(_public(p) for p in players),
        secret_tiles,
        unseen,
        setup.grid,
        setup.street_tokens,
        state.street_flipped,
        setup.mean_houses,
        state.pumpkin_on_house,
        state.pumpkin_on_mean_house,
        state.market,
        state.deck_size,
        deck_cards,
        state.discarded,
        state.current_player,
        state.turn,
        state.passes_in_a_row,
        state.end_trigger,
        sheets,
        state.history,
        state.legal_actions() if state.current_player == player else (),
    )


def _public(board: PlayerState) -> PublicPlayer:
    """What everyone sees of ``board``, kept with it for the views of later states."""
    memo = board._memo
    if memo is not None and memo[4] is not None:
        public: PublicPlayer = memo[4]
        return public
    public = PublicPlayer(
        board.name,
        board.kids,
        board.treats,
        board.pumpkins,
        board.visited,
        board.tricked,
        board.footprints,
    )
    if memo is not None:
        memo[4] = public
    return public


_new_view = _fast_constructor(PlayerView)
_BY_ID = operator.attrgetter("id")

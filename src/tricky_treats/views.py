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
    """The player's name."""
    kids: tuple[tuple[CostumeCard, ...], ...]
    """Each kid's cards, bottom first; the last one is on top (R3)."""
    treats: tuple[int, ...]
    """The treat tracks, in the order of ``Treat``."""
    pumpkins: int
    """Pumpkins taken (R6)."""
    visited: frozenset[int]
    """The nice houses this player visited."""
    tricked: frozenset[int]
    """The mean houses this player tricked."""
    footprints: int
    """Footprints left to place."""


@attrs.frozen
class PlayerView:
    """The game as ``player`` sees it.

    ``secret_tiles[p]`` is player p's secret tile where ``player`` may see it (their own, and
    everyone's once the game is over) and None elsewhere.
    """

    player: int
    """The seat whose view this is."""
    first_player: int
    """The seat that played first (R20)."""
    variants: tuple[VariantRef, ...]
    """The variants the game was created with."""
    variant_options: dict[str, dict[str, Any]]
    """Options per variant name, as JSON values."""
    rules: RulesData
    """The rules in force (after the game's variants)."""
    players: tuple[PublicPlayer, ...]
    """What everyone sees of every player's board, in seat order."""
    secret_tiles: tuple[TrickTile | None, ...]
    """Per seat, the secret tile where the viewer may see it, else None."""
    unseen_tiles: tuple[TrickTile, ...]
    """The tiles the viewer cannot see, by id: other players' secret tiles and the box's."""
    grid: tuple[GridHouse, ...]
    """The 9 nice houses, row by row."""
    street_tokens: tuple[StreetBonusToken, ...]
    """The 6 street bonus tokens: rows 0 to 2, then columns 0 to 2."""
    street_flipped: tuple[bool, ...]
    """Per street, whether its token shows its back (R7)."""
    mean_houses: tuple[MeanHouse, ...]
    """The 3 mean houses with their (public) trick tiles."""
    pumpkin_on_house: tuple[bool, ...]
    """Per nice house, whether its pumpkin is still there."""
    pumpkin_on_mean_house: tuple[bool, ...]
    """Per mean house, whether its pumpkin is still there."""
    market: tuple[CostumeCard | None, ...]
    """The market by slot; None for a slot the deck could not refill."""
    deck_size: int
    """Cards left in the deck."""
    deck_cards: tuple[CostumeCard, ...]
    """The cards left in the deck, by id: what is in it is public, its order is not (R16)."""
    discarded: tuple[CostumeCard, ...]
    """Cards discarded by refreshing the market, in order (R23)."""
    current_player: int | None
    """The seat to act, or None once the game is over."""
    turn: int
    """Turns finished so far."""
    passes_in_a_row: int
    """Consecutive turns that ended in a pass (R17)."""
    end_trigger: EndTrigger | None
    """What triggered the end, once it is triggered; else None."""
    scores: tuple[ScoreSheet, ...]
    """Score sheets so far (R24), other players' secret tiles left out until the end."""
    history: tuple[Action, ...]
    """Every action so far, oldest first (public)."""
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

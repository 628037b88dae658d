"""Per-player views: everything one player may see, and nothing else (R16).

A view leaves out the deck order (only its size shows) and every other player's secret trick
tile until the game is over. Score sheets in a view show the points so far (R24), with the
other players' secret tiles left out while the game goes on. Send a client its view, never
the ``GameState``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from tricky_treats.actions import Action
from tricky_treats.components import CostumeCard, RulesData, StreetBonusToken, TrickTile
from tricky_treats.model import EndTrigger, GridHouse, MeanHouse, VariantRef
from tricky_treats.scoring import ScoreSheet, score_sheet

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
    """Build ``player``'s view of ``state`` (the player index is not checked here)."""
    setup = state.setup
    shown = state.is_over or setup.secret_tiles_face_up  # R16, or dealt face up by a variant
    secret_tiles = tuple(
        p.secret_tile if shown or i == player else None for i, p in enumerate(state.players)
    )
    in_sight = {t.id for t in secret_tiles if t is not None} | {
        m.tile.id for m in setup.mean_houses
    }
    return PlayerView(
        player=player,
        first_player=setup.config.first_player,
        variants=setup.config.variants,
        variant_options={k: dict(v) for k, v in setup.config.variant_options.items()},
        rules=setup.rules,
        players=tuple(
            PublicPlayer(p.name, p.kids, p.treats, p.pumpkins, p.visited, p.tricked, p.footprints)
            for p in state.players
        ),
        secret_tiles=secret_tiles,
        unseen_tiles=tuple(
            sorted(
                (t for t in setup.components.trick_tiles if t.id not in in_sight),
                key=lambda t: t.id,
            )
        ),
        grid=setup.grid,
        street_tokens=setup.street_tokens,
        street_flipped=state.street_flipped,
        mean_houses=setup.mean_houses,
        pumpkin_on_house=state.pumpkin_on_house,
        pumpkin_on_mean_house=state.pumpkin_on_mean_house,
        market=state.market,
        deck_size=state.deck_size,
        deck_cards=tuple(sorted(setup.deck[state.deck_position :], key=lambda c: c.id)),
        discarded=state.discarded,
        current_player=state.current_player,
        turn=state.turn,
        passes_in_a_row=state.passes_in_a_row,
        end_trigger=state.end_trigger,
        scores=tuple(
            score_sheet(state, p, secret_tile=shown or p == player)
            for p in range(len(state.players))
        ),
        history=state.history,
        legal_actions=state.legal_actions() if state.current_player == player else (),
    )

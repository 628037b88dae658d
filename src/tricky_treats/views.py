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
from typing import TYPE_CHECKING, Any

import attrs

from tricky_treats.actions import Action
from tricky_treats.components import CostumeCard, RulesData, StreetBonusToken, TrickTile
from tricky_treats.model import EndTrigger, GridHouse, MeanHouse, PublicPlayer, VariantRef
from tricky_treats.scoring import ScoreSheet

if TYPE_CHECKING:
    from tricky_treats.model import GameState

__all__ = ["PlayerView", "PublicPlayer", "player_view"]


@attrs.frozen(repr=False)
class PlayerView:
    """The game as ``player`` sees it.

    ``secret_tiles[p]`` is player p's secret tile where ``player`` may see it (their own, and
    everyone's once the game is over) and None elsewhere.

    ``print(view)`` draws the table as text (the terminal's table) and a notebook draws the
    view as a picture (``board_svg``); ``repr()`` stays short, like a ``GameState``'s.
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

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(player={self.player}, current_player={self.current_player}, "
            f"turn={self.turn})"
        )

    def __str__(self) -> str:
        from tricky_treats.drawing.text import view_text  # drawing is a layer above views

        return view_text(self)

    def _repr_svg_(self) -> str:
        """The picture a notebook (Jupyter, IPython) shows for the view: ``board_svg(view)``."""
        from tricky_treats.drawing import board_svg

        return board_svg(self)


@attrs.frozen(repr=False)
class _OnlookerView(PlayerView):
    """What everyone at the table sees: a view with no secret tile in it until the end.

    What ``print(game)`` and a notebook draw for a ``GameState`` (``tricky_treats.drawing``):
    a state holds everything, and its drawing must not show a secret tile a log or a shared
    notebook would give away. ``player`` is the seat to act (seat 0 at the end), whose
    kids are drawn large and whose matching cards the houses count; the score sheets are the
    ones every player sees of the others (secret tiles and private variant lines left out)
    until the game is over, when every view shows everything.
    """


def _onlooker_view(state: GameState) -> PlayerView:
    """``state`` as everyone sees it (see ``_OnlookerView``)."""
    seat = state.current_player
    view = player_view(state, 0 if seat is None else seat)
    fields = {f.name: getattr(view, f.name) for f in attrs.fields(PlayerView)}
    if view.is_over:
        return _OnlookerView(**fields)  # every view shows everything
    shown = state.setup.secret_tiles_face_up  # a variant may deal them face up
    if not shown:
        fields["secret_tiles"] = (None,) * len(state.players)
        fields["unseen_tiles"] = tuple(
            sorted([*view.unseen_tiles, state.players[view.player].secret_tile], key=_BY_ID)
        )
    # Every sheet as the other players see it: the acting seat's private lines left out too.
    fields["scores"] = state._score_sheets_of_others
    return _OnlookerView(**fields)


def player_view(state: GameState, player: int) -> PlayerView:
    """Build ``player``'s view of ``state`` (the player index is not checked here)."""
    setup = state.setup
    config = setup.config
    # R16: every secret tile shows once the game is over (or when a variant deals them face
    # up); until then each player sees their own only.
    shown = state.is_over or setup.secret_tiles_face_up
    secret_tiles = tuple(
        board.secret_tile if shown or seat == player else None
        for seat, board in enumerate(state.players)
    )
    in_sight = {tile.id for tile in secret_tiles if tile is not None}
    on_mean_houses = {house.tile.id for house in setup.mean_houses}
    unseen_tiles = tuple(
        sorted(
            (
                tile
                for tile in setup.components.trick_tiles
                if tile.id not in in_sight and tile.id not in on_mean_houses
            ),
            key=_BY_ID,
        )
    )
    # R16, R24: the sheets so far; the others' secret tiles and the lines of scorers that may
    # read hidden information wait for the end of the game, as the secret tiles do.
    full, seen = state.scores(), state._score_sheets_of_others
    scores = tuple(full[seat] if seat == player else seen[seat] for seat in range(len(full)))
    return PlayerView(
        player=player,
        first_player=config.first_player,
        variants=config.variants,
        variant_options={name: dict(options) for name, options in config.variant_options.items()},
        rules=setup.rules,
        players=tuple(board.public for board in state.players),
        secret_tiles=secret_tiles,
        unseen_tiles=unseen_tiles,
        grid=setup.grid,
        street_tokens=setup.street_tokens,
        street_flipped=state.street_flipped,
        mean_houses=setup.mean_houses,
        pumpkin_on_house=state.pumpkin_on_house,
        pumpkin_on_mean_house=state.pumpkin_on_mean_house,
        market=state.market,
        deck_size=state.deck_size,
        # R16: what is in the deck is public, its order is not.
        deck_cards=tuple(sorted(setup.deck[state.deck_position :], key=_BY_ID)),
        discarded=state.discarded,
        current_player=state.current_player,
        turn=state.turn,
        passes_in_a_row=state.passes_in_a_row,
        end_trigger=state.end_trigger,
        scores=scores,
        history=state.history,
        legal_actions=state.legal_actions() if state.current_player == player else (),
    )


_BY_ID = operator.attrgetter("id")

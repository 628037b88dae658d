"""Helpers that put a game into a chosen position, for tests that check one rule at a time."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

import tricky_treats as tt
from tricky_treats.rules import build_player

BASE = tt.base_components()


def card(colour: str, theme: str, kind: str, copy: int = 0) -> tt.CostumeCard:
    """The ``copy``-th base-game card of this colour, theme and type."""
    matches = [
        c
        for c in BASE.cards
        if (c.colour.value, c.theme.value, c.type.value) == (colour, theme, kind)
    ]
    return matches[copy]


def card_with_icon(colour: str, theme: str, kind: str, icon: tt.TrickIcon) -> tt.CostumeCard:
    """The base-game card of this colour, theme and type that shows ``icon``, if there is one."""
    for c in BASE.cards:
        if (c.colour.value, c.theme.value, c.type.value) == (
            colour,
            theme,
            kind,
        ) and c.icon is icon:
            return c
    raise LookupError(f"no {colour} {theme} {kind} card with {icon}")


def cards_with_icon(icon: tt.TrickIcon, kind: str) -> list[tt.CostumeCard]:
    """All base-game cards of one type that show ``icon``."""
    return [c for c in BASE.cards if c.icon is icon and c.type.value == kind]


def neighbour(house_id: str) -> tt.NiceNeighbour:
    """The base-game nice neighbour with this id (its feature's name)."""
    return next(n for n in BASE.nice_neighbours if n.id == house_id)


def tile(tile_id: str) -> tt.TrickTile:
    """The base-game trick tile with this id."""
    return next(t for t in BASE.trick_tiles if t.id == tile_id)


def with_player(
    game: tt.GameState,
    seat: int,
    *,
    kids: Sequence[Sequence[tt.CostumeCard]] | None = None,
    treats: Sequence[int] | None = None,
    pumpkins: int | None = None,
    visited: Iterable[int] | None = None,
    tricked: Iterable[int] | None = None,
    secret_tile: tt.TrickTile | None = None,
) -> tt.GameState:
    """``game`` with seat ``seat``'s board replaced by the one described (the rest kept)."""
    old = game.players[seat]
    player = build_player(
        game.setup,
        name=old.name,
        secret_tile=old.secret_tile if secret_tile is None else secret_tile,
        kids=old.kids if kids is None else kids,
        treats=old.treats if treats is None else treats,
        pumpkins=old.pumpkins if pumpkins is None else pumpkins,
        visited=old.visited if visited is None else visited,
        tricked=old.tricked if tricked is None else tricked,
    )
    players = list(game.players)
    players[seat] = player
    return attrs.evolve(game, players=tuple(players))


def with_market(game: tt.GameState, market: Sequence[tt.CostumeCard | None]) -> tt.GameState:
    """``game`` with the market replaced."""
    return attrs.evolve(game, market=tuple(market))


def with_setup(game: tt.GameState, **changes: Any) -> tt.GameState:
    """``game`` with its setup changed (grid, mean houses, deck ...); boards recounted."""
    setup = attrs.evolve(game.setup, **changes)
    state = attrs.evolve(game, setup=setup)
    for seat in range(len(game.players)):
        state = with_player(state, seat)
    return state


def with_grid(
    game: tt.GameState, houses: Sequence[str], treats: Sequence[tt.Treat] | None = None
) -> tt.GameState:
    """``game`` with the grid dealt as ``houses`` (neighbour ids, row by row)."""
    tokens = treats if treats is not None else [h.treat for h in game.setup.grid]
    grid = tuple(tt.GridHouse(neighbour(h), t) for h, t in zip(houses, tokens, strict=True))
    return with_setup(game, grid=grid)


def with_deck(game: tt.GameState, remaining: Sequence[tt.CostumeCard]) -> tt.GameState:
    """``game`` whose deck still holds exactly ``remaining``, in draw order."""
    drawn = game.setup.deck[: game.deck_position]
    return with_setup(game, deck=(*drawn, *remaining))


def with_turn(game: tt.GameState, seat: int) -> tt.GameState:
    """``game`` with ``seat`` to act."""
    return attrs.evolve(game, current_player=seat)


def play(game: tt.GameState, *notation: str) -> tt.GameState:
    """Apply actions given in text notation, one after the other."""
    for text in notation:
        game = game.apply(tt.parse_action(text))
    return game


def random_playout(players: int, seed: int, **options: Any) -> list[tt.GameState]:
    """Every state of a game played with random legal actions drawn from ``seed``."""
    game = tt.new_game(players=players, seed=seed, **options)
    return tt.play_game(game, [tt.RandomAgent()] * players, seed=seed)

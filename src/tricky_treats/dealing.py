"""Dealing a new game from a seed (the rulebook's "Setup")."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from tricky_treats.components import (
    FEATURES,
    ComponentData,
    CostumeType,
    TrickIcon,
    base_components,
)
from tricky_treats.errors import ConfigurationError
from tricky_treats.model import (
    GameConfig,
    GameState,
    GridHouse,
    MeanHouse,
    PlayerState,
    Setup,
)

__all__ = ["check_config", "deal", "new_game"]

_GRID = 9


def new_game(
    players: int | Sequence[str] = 2,
    seed: int | None = None,
    *,
    first_player: int = 0,
    any_mean_house: bool = False,
    refresh_ends_turn: bool = False,
    components: ComponentData | None = None,
) -> GameState:
    """Deal a new game and return its first state.

    ``players`` is a player count or a sequence of player names. All randomness comes from
    ``seed``; without one a fresh seed is drawn from the operating system and recorded in
    ``game.config.seed``, so every game can be dealt again. ``first_player`` is the seat that
    starts (R20). ``any_mean_house`` and ``refresh_ends_turn`` switch on the options of R4 and
    R8. ``components`` replaces the base game's component data.

    Raises :class:`~tricky_treats.ConfigurationError` if the game cannot be dealt as asked.

    >>> game = new_game(players=["Ann", "Bo", "Cy"], seed=42)
    >>> game.current_player, len(game.legal_actions()) > 0
    (0, True)
    """
    data = base_components() if components is None else components
    if seed is None:
        seed = secrets.randbits(63)
    config = GameConfig(
        players=_player_names(players),
        seed=seed,
        first_player=first_player,
        any_mean_house=bool(any_mean_house),
        refresh_ends_turn=bool(refresh_ends_turn),
    )
    return deal(config, data)


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, bool):
        raise ConfigurationError(f"players must be a count or a list of names, got {players!r}")
    if isinstance(players, int):
        return tuple(f"Player {i + 1}" for i in range(max(players, 0)))
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ConfigurationError(f"players must be a count or a list of names, got {players!r}")
    return tuple(players)


def check_config(config: GameConfig, components: ComponentData) -> None:
    """Raise ConfigurationError if a game of ``config`` cannot be dealt from ``components``."""
    low, high = components.rules.min_players, components.rules.max_players
    names = config.players
    if not low <= len(names) <= high:
        raise ConfigurationError(f"Tricky Treats is for {low} to {high} players, got {len(names)}")
    bad = [n for n in names if not isinstance(n, str) or not n.strip()]
    if bad:
        raise ConfigurationError(f"player names must be non-empty strings, got {bad[0]!r}")
    if len(set(names)) != len(names):
        raise ConfigurationError(f"player names must differ, got {list(names)}")
    if not isinstance(config.seed, int) or isinstance(config.seed, bool):
        raise ConfigurationError(f"seed must be an integer, got {config.seed!r}")
    first = config.first_player
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise ConfigurationError(
            f"first_player must be a seat from 0 to {len(names) - 1}, got {first!r}"
        )


def deal(config: GameConfig, components: ComponentData) -> GameState:
    """Deal the game ``config`` describes: the rulebook's setup, shuffled by ``config.seed``.

    The draws happen in a fixed order (grid, house treat tokens, street tokens, trick tiles,
    deck) from one ``random.Random(seed)``, so a seed always deals the same game. Raises
    ConfigurationError if ``config`` does not fit the components.
    """
    check_config(config, components)
    rng = random.Random(config.seed)
    neighbours = list(components.nice_neighbours)
    rng.shuffle(neighbours)
    treat_tokens = list(components.house_treat_tokens)
    rng.shuffle(treat_tokens)
    street_tokens = list(components.street_bonus_tokens)
    rng.shuffle(street_tokens)
    tiles = list(components.trick_tiles)
    rng.shuffle(tiles)
    deck = list(components.cards)
    rng.shuffle(deck)
    mean = components.mean_neighbours
    setup = Setup(
        config=config,
        components=components,
        grid=tuple(GridHouse(n, t) for n, t in zip(neighbours[:_GRID], treat_tokens, strict=True)),
        street_tokens=tuple(street_tokens),
        mean_houses=tuple(MeanHouse(m, tile) for m, tile in zip(mean, tiles, strict=False)),
        secret_tiles=tuple(tiles[len(mean) : len(mean) + config.player_count]),
        deck=tuple(deck),
    )
    rules = components.rules
    kids = rules.kids_per_player
    all_kids = (1 << kids) - 1
    players = tuple(
        PlayerState(
            name=name,
            kids=((),) * kids,
            treats=(0, 0, 0),
            pumpkins=0,
            visited=frozenset(),
            tricked=frozenset(),
            footprints=rules.footprints_per_player,
            secret_tile=setup.secret_tiles[seat],
            feature_counts=(0,) * len(FEATURES),
            visible_icons=(0,) * len(TrickIcon),
            free_kids=(all_kids,) * len(CostumeType),
            qualified=0,
            visitable=0,
        )
        for seat, name in enumerate(config.players)
    )
    market_size = rules.market_size
    return GameState(
        setup=setup,
        players=players,
        market=setup.deck[:market_size],
        deck_position=market_size,
        discarded=(),
        pumpkin_on_house=(True,) * _GRID,
        pumpkin_on_mean_house=(True,) * len(mean),
        street_flipped=(False,) * len(setup.street_tokens),
        current_player=config.first_player,
        turn=0,
        passes_in_a_row=0,
        end_trigger=None,
        log=None,
    )

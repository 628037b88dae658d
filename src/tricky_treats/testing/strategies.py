"""Hypothesis strategies for Tricky Treats games, for the engine's tests and plugin authors.

Games are drawn as a configuration and a list of choices among the legal actions, so a
failing example shrinks to few players, a small seed and a short game that always takes the
first legal action: readable counterexamples.

>>> from hypothesis import given
>>> from tricky_treats.testing.strategies import played_games
>>> @given(played_games(max_actions=20))
... def test_never_negative(states):
...     assert all(t >= 0 for s in states for p in s.players for t in p.treats)
>>> test_never_negative()

Requires Hypothesis (``pip install tricky-treats[test]``); the engine itself does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tricky_treats._extras import install_hint

try:
    from hypothesis import strategies as st
except ModuleNotFoundError as exc:  # pragma: no cover - tested in a subprocess
    raise ModuleNotFoundError(
        "tricky_treats.testing.strategies needs Hypothesis, which the engine itself does not: "
        f"{install_hint('test')} (or pip install hypothesis)",
        name=exc.name,
    ) from exc

from tricky_treats.dealing import new_game
from tricky_treats.model import GameState

__all__ = ["GameSpec", "game_specs", "games", "played_games"]


@attrs.frozen
class GameSpec:
    """The arguments of ``tricky_treats.new_game()`` for one drawn game."""

    players: int
    seed: int
    first_player: int
    any_mean_house: bool
    refresh_ends_turn: bool
    variants: tuple[str, ...]
    variant_options: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)

    def new_game(self) -> GameState:
        """Deal the game this spec describes."""
        return new_game(
            players=self.players,
            seed=self.seed,
            first_player=self.first_player,
            any_mean_house=self.any_mean_house,
            refresh_ends_turn=self.refresh_ends_turn,
            variants=self.variants,
            variant_options=self.variant_options,
        )


@st.composite
def game_specs(
    draw: st.DrawFn,
    *,
    players: Sequence[int] = (2, 3, 4),
    variants: Sequence[str] = (),
    variant_options: Mapping[str, Mapping[str, Any]] | None = None,
    options: bool = True,
) -> GameSpec:
    """Draw a configuration: player count, seed, first player, rule options and variants.

    ``variants`` are the names to choose subsets from (in the given order); ``options`` draws
    the R4 and R8 options too.
    """
    count = draw(st.sampled_from(players))
    chosen = tuple(name for name in variants if draw(st.booleans()))
    return GameSpec(
        players=count,
        seed=draw(st.integers(0, 2**32 - 1)),
        first_player=draw(st.integers(0, count - 1)),
        any_mean_house=draw(st.booleans()) if options else False,
        refresh_ends_turn=draw(st.booleans()) if options else False,
        variants=chosen,
        variant_options={k: v for k, v in (variant_options or {}).items() if k in chosen},
    )


def games(specs: st.SearchStrategy[GameSpec] | None = None) -> st.SearchStrategy[GameState]:
    """Draw a new game (the first state) from ``specs`` (default: ``game_specs()``)."""
    return (specs if specs is not None else game_specs()).map(GameSpec.new_game)


@st.composite
def played_games(
    draw: st.DrawFn,
    specs: st.SearchStrategy[GameSpec] | None = None,
    *,
    max_actions: int = 400,
) -> list[GameState]:
    """Draw a game and play it by choosing among the legal actions; return every state.

    The game is played until it ends or ``max_actions`` actions were applied.
    """
    state = draw(games(specs))
    states = [state]
    for _ in range(max_actions):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[draw(st.integers(0, len(legal) - 1))])
        states.append(state)
    return states

"""Playing seeded games of any ``TurnBasedGame``: one match, or many summed up."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

import attrs

from tricky_treats.errors import ConfigurationError
from tricky_treats.protocol.game import _G, Agent, InformationSet, TurnBasedGame

__all__ = ["MatchSummary", "play_match", "simulate"]


def play_match(
    game: _G,
    agents: Sequence[Agent],
    seed: int = 0,
    max_actions: int = 100_000,
    on_action: Callable[[_G, Hashable], None] | None = None,
) -> _G:
    """Play ``game`` to the end with one agent per seat and return the final state.

    The agents draw from one ``random.Random(seed)``, so the same game, agents and seed always
    play the same way. ``on_action(state, action)`` is called before each action is applied.
    """
    if len(agents) != game.num_players:
        raise ConfigurationError(f"need {game.num_players} agents, one per seat, got {len(agents)}")
    rng = random.Random(seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        seat = game.current_player
        assert seat is not None
        info = InformationSet(seat, game.view(seat), tuple(game.legal_actions()), state=game)
        action = agents[seat].choose(info, rng)
        if on_action is not None:
            on_action(game, action)
        game = game.apply(action)
    if not game.is_over:
        raise ConfigurationError(f"the game did not end within {max_actions} actions")
    return game


@attrs.frozen
class MatchSummary:
    """The outcome of many games: per seat, the wins (shared wins count fractionally)."""

    games: int
    wins: tuple[float, ...]
    actions: int
    """Actions played over all games."""

    def win_rates(self) -> tuple[float, ...]:
        """Per seat, the share of games won."""
        return tuple(w / self.games for w in self.wins) if self.games else ()

    def __str__(self) -> str:
        rates = ", ".join(f"seat {p}: {r:.0%}" for p, r in enumerate(self.win_rates()))
        return f"{self.games} games, {self.actions} actions; wins {rates}"


def simulate(
    new_game: Callable[[int], TurnBasedGame],
    agents: Sequence[Agent],
    games: int,
    seed: int = 0,
    on_game: Callable[[], None] | None = None,
) -> MatchSummary:
    """Play ``games`` games: game ``i`` is ``new_game(seed + i)``, played with seed ``seed + i``.

    ``on_game()`` is called after each game, e.g. to show progress.
    """
    if games < 0:
        raise ConfigurationError(f"cannot play {games} games; give 0 or more")
    wins: list[float] = []
    actions = 0
    for i in range(games):
        counter = _Counter()
        final = play_match(new_game(seed + i), agents, seed + i, on_action=counter)
        actions += counter.count
        if not wins:
            wins = [0.0] * final.num_players
        for p, share in enumerate(final.returns()):
            wins[p] += share
        if on_game is not None:
            on_game()
    return MatchSummary(games, tuple(wins), actions)


class _Counter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, state: object, action: Hashable) -> None:
        self.count += 1

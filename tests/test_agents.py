"""Bots: the agent interface, determinization, and the three built-in agents."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats.agents import make_agent
from tricky_treats.testing.strategies import game_specs, played_games

VARIANTS = ("family", "open-objectives")


@given(played_games(game_specs(variants=VARIANTS), max_actions=80), st.data())
def test_a_determinized_state_shows_the_same_view(
    states: list[tt.GameState], data: st.DataObject
) -> None:
    state = data.draw(st.sampled_from(states))
    seat = data.draw(st.integers(0, len(state.players) - 1))
    view = state.view(seat)
    sample = tt.determinize(view, random.Random(data.draw(st.integers())))
    assert sample.view(seat) == view
    assert sample.legal_actions() == state.legal_actions()


def test_determinize_samples_the_hidden_information() -> None:
    state = tt.new_game(4, seed=1).apply(tt.TakeCard(0, 0))
    view = state.view(1)
    samples = [tt.determinize(view, random.Random(seed)) for seed in range(10)]
    assert len({s.setup.deck[s.deck_position :] for s in samples}) == 10
    assert len({s.players[0].secret_tile.id for s in samples}) > 1
    assert all(s.players[1].secret_tile == state.players[1].secret_tile for s in samples)


@pytest.mark.parametrize(
    "agent", [tt.RandomAgent(), tt.GreedyAgent(), tt.SearchAgent(iterations=10)], ids=repr
)
def test_agents_choose_legal_actions_deterministically(agent: tt.Agent) -> None:
    game = tt.new_game(3, seed=2)
    first = tt.play_game(game, [agent] * 3, seed=5)
    second = tt.play_game(game, [agent] * 3, seed=5)
    assert first[-1].is_over
    assert first == second


def _wins(first: tt.Agent, second: tt.Agent, games: int) -> float:
    """Wins of ``first`` in 2-player games against ``second``, swapping seats every game."""
    wins = 0.0
    for seed in range(games):
        agents = [first, second] if seed % 2 == 0 else [second, first]
        final = tt.play_game(tt.new_game(2, seed=seed), agents, seed=seed)[-1]
        seat = 0 if seed % 2 == 0 else 1
        won = final.winners()
        wins += 1 / len(won) if seat in won else 0
    return wins


def test_greedy_beats_random() -> None:
    assert _wins(tt.GreedyAgent(), tt.RandomAgent(), 20) >= 16


def test_search_beats_random() -> None:
    assert _wins(tt.SearchAgent(iterations=30), tt.RandomAgent(), 6) >= 5


def test_make_agent() -> None:
    assert isinstance(make_agent("random"), tt.RandomAgent)
    assert isinstance(make_agent("greedy"), tt.GreedyAgent)
    assert make_agent("search:50") == tt.SearchAgent(iterations=50)
    assert make_agent("search:5000") == tt.SearchAgent(iterations=5_000)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", "no agent 'wizard'; choose from random, greedy, search, policy"),
        ("greedy:3", "only the search agent takes a budget"),
        ("search:0", "the search budget must be a whole number of iterations from 1 to 5,000"),
        ("search:", "the search budget must be a whole number"),
        ("search:x", "got 'x'"),
        ("search:-5", "got '-5'"),
        ("search:5001", "from 1 to 5,000"),
        # About a quarter of an hour a move: refused at once (issue 27, item 18).
        ("search:1000000", "from 1 to 5,000"),
        (
            "search:\u0663\u00b2",
            "the search budget must be a whole number",
        ),  # Arabic-Indic 3, superscript 2
        ("search:\u0663", "the search budget must be a whole number"),  # int() would read it as 3
        ("search:" + "9" * 5000, "got '99999"),  # int() refuses over 4300 digits
        ("w" * 5000, "no agent 'wwww"),
    ],
)
def test_make_agent_refuses_bad_specs_with_a_library_error(spec: str, message: str) -> None:
    """Issue 10: odd budgets raised a bare ValueError; issue 12: say the budget is wrong."""
    with pytest.raises(tt.ConfigurationError) as info:
        make_agent(spec)
    assert message in str(info.value)
    assert len(str(info.value)) < 200


def test_make_agent_needs_a_string() -> None:
    with pytest.raises(tt.ConfigurationError, match="named by a string"):
        make_agent(3)  # type: ignore[arg-type]


def test_play_game_needs_one_agent_per_seat() -> None:
    with pytest.raises(tt.ConfigurationError, match="need 3 agents, one per seat, got 2"):
        tt.play_game(tt.new_game(3, seed=1), [tt.RandomAgent()] * 2)


def test_search_beats_greedy() -> None:
    """A regression guard on fixed seeds; the measured win rate is in docs/bots.md."""
    assert _wins(tt.SearchAgent(iterations=100), tt.GreedyAgent(), 8) >= 5

"""The greedy bot for a batch of simulators (issue 45): ``simulator.greedy_codes``.

The compact core values every legal action as ``GreedyAgent`` does (``agents.evaluate``),
without sampling the hidden information: these tests check, through the codes
``greedy_codes`` chooses, that its best actions and its tie-breaks are those of the
reference rules' values (worked out here from ``evaluate``), that those values do not depend
on the hidden information at all, and that GreedyAgent, which now values on the core where
it can, chooses exactly as it did.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats.agents import determinize, evaluate
from tricky_treats.simulator import greedy_codes
from tricky_treats.testing.strategies import game_specs, played_games

CORE_VARIANTS = ("open-objectives", "any-mean-house")
"""Variants without scoring lines: the core values their games."""


def _best(values: Sequence[float]) -> set[int]:
    """The indices of the best values, as GreedyAgent's loop finds them (within 1e-9)."""
    best: list[int] = []
    best_value = -math.inf
    for i, value in enumerate(values):
        if value > best_value + 1e-9:
            best, best_value = [i], value
        elif abs(value - best_value) <= 1e-9:
            best.append(i)
    return set(best)


def _values_by_rules(state: tt.GameState, legal: Sequence[tt.Action]) -> list[float]:
    """GreedyAgent's value of each action by the reference rules: ``evaluate`` after it,
    less 0.01 for a take that keeps the turn (the rulebook's valuation, written out)."""
    seat = state.current_player
    assert seat is not None
    values = []
    for action in legal:
        after = state.apply(action)
        value = evaluate(after, seat)
        if isinstance(action, tt.TakeCard) and after.current_player == seat:
            value -= 0.01
        values.append(value)
    return values


def _chosen_by_rules(state: tt.GameState, seed: int) -> int:
    """The code greedy_codes must choose with ``random.Random(seed)``: one of the codes of the
    best value, in the order of ``legal_codes``, drawn as ``randrange`` draws (none drawn
    when a single code is legal)."""
    codes = tt.Simulator(state).legal_codes()
    if len(codes) == 1:
        return codes[0]
    best = _reference_best(state)
    ordered = [code for code in codes if code in best]
    return ordered[random.Random(seed).randrange(len(ordered))]


def _reference_best(state: tt.GameState) -> set[int]:
    """The codes GreedyAgent's valuation, by the reference rules, finds best in ``state``."""
    legal = state.legal_actions()
    values = _values_by_rules(state, legal)
    return {state.action_space.encode(legal[i]) for i in _best(values)}


def _states(games: int, players: Sequence[int], variants: Sequence[str] = ()) -> list[tt.GameState]:
    """The states of real games where a player is to move: greedy and random bots playing."""
    found: list[tt.GameState] = []
    for seed in range(games):
        count = players[seed % len(players)]
        game = tt.new_game(
            count,
            seed=seed,
            any_mean_house=seed % 3 == 0,
            refresh_ends_turn=seed % 4 == 1,
            variants=variants,
        )
        agents: list[tt.Agent] = [tt.GreedyAgent() if seat % 2 else tt.RandomAgent()
                                  for seat in range(count)]  # fmt: skip
        found += tt.play_game(game, agents, seed=seed)[:-1]
    return found


@settings(max_examples=40, deadline=None)
@given(played_games(game_specs(variants=CORE_VARIANTS), max_actions=150), st.data())
def test_the_core_values_every_action_as_the_greedy_agent_does(
    states: list[tt.GameState], data: st.DataObject
) -> None:
    """The core's choice, seed after seed, is the reference rules' best drawn by the seed."""
    playing = [state for state in states if not state.is_over]
    state = data.draw(st.sampled_from(playing))
    sim = tt.Simulator(state)
    assert sim.fast
    for seed in range(8):
        assert greedy_codes([sim], random.Random(seed)) == [_chosen_by_rules(state, seed)]
    assert sim.state() == state  # every action was undone


def test_the_core_finds_the_greedy_agents_best_codes_in_real_games() -> None:
    states = _states(24, (2, 3, 4), CORE_VARIANTS[:1]) + _states(12, (2, 3, 4))
    sims = [tt.Simulator(state) for state in states]
    assert all(sim.fast for sim in sims)
    for seed in range(2):
        chosen = greedy_codes(sims, random.Random(seed))
        agreed = sum(
            code in _reference_best(state) for code, state in zip(chosen, states, strict=True)
        )
        assert agreed == len(states) > 1000


def test_the_value_of_an_action_does_not_depend_on_the_hidden_information() -> None:
    """Why greedy_codes samples nothing: states that differ only in what the mover cannot see.

    Every sample of the mover's view (another deck order, other players' secret tiles) gives
    every legal action the very value the true state gives it.
    """
    rng = random.Random(3)
    states = _states(12, (2, 3, 4), ("open-objectives",))[::3] + _states(9, (2, 3, 4))[::3]
    changed_hidden = 0
    for state in states:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        truth = _values_by_rules(state, legal)
        for _ in range(3):
            sample = determinize(state.view(seat), rng)
            changed_hidden += sample.setup.deck != state.setup.deck
            assert _values_by_rules(sample, legal) == truth
    assert changed_hidden > len(states)  # the samples did hide other information


def test_greedy_codes_choose_among_the_greedy_agents_best() -> None:
    """Agreement with GreedyAgent on a batch: every code chosen either way is best both ways."""
    states = _states(16, (2, 3, 4), CORE_VARIANTS[1:])
    sims = [tt.Simulator(state) for state in states]
    chosen = greedy_codes(sims, random.Random(1))
    agent = tt.GreedyAgent()
    rng = random.Random(2)
    agreed = 0
    for state, code, sim in zip(states, chosen, sims, strict=True):
        best = _reference_best(state)
        seat = state.current_player
        assert seat is not None
        by_agent = agent.choose(state.view(seat), state.legal_actions(), rng)
        agreed += code in best and state.action_space.encode(by_agent) in best
        assert sim.state() == state
    assert agreed == len(states)


def test_ties_are_broken_by_the_rng_among_the_best() -> None:
    state = tt.new_game(3, seed=4)  # the first move: many takes of equal value
    best = _reference_best(state)
    assert len(best) > 1
    sims = [tt.Simulator(state) for _ in range(200)]
    assert set(greedy_codes(sims, random.Random(0))) == best


def test_a_tie_is_drawn_as_randrange_draws() -> None:
    """A single simulator: the code is the tied best ``randrange(ties)`` picks, whatever the
    number of ties (as many as the real games give, one to a dozen or more)."""
    ties: set[int] = set()
    for state in _states(10, (2, 3, 4))[::4]:
        ties.add(len(_reference_best(state)))
        for seed in range(20):
            chosen = greedy_codes([tt.Simulator(state)], random.Random(seed))
            assert chosen == [_chosen_by_rules(state, seed)]
    assert {1, 2, 3} <= ties
    assert max(ties) >= 8


def test_the_same_rng_seed_gives_the_same_codes() -> None:
    states = _states(6, (2, 4))
    first = greedy_codes([tt.Simulator(s) for s in states], random.Random(9))
    second = greedy_codes([tt.Simulator(s) for s in states], random.Random(9))
    assert first == second
    others = [greedy_codes([tt.Simulator(s) for s in states], random.Random(s)) for s in range(3)]
    assert any(codes != first for codes in others)  # the rng does break the ties


def test_a_game_with_a_variants_scoring_lines_is_valued_by_the_greedy_agent() -> None:
    """``family`` adds points for complete costumes, which the core does not count."""
    states = _states(6, (2, 3), ("family",))
    sims = [tt.Simulator(state) for state in states]
    assert all(sim.fast for sim in sims)
    chosen = greedy_codes(sims, random.Random(5))
    rng = random.Random(5)
    agent = tt.GreedyAgent()
    for state, code in zip(states, chosen, strict=True):
        seat = state.current_player
        assert seat is not None
        action = agent.choose(state.view(seat), state.legal_actions(), rng)
        assert code == state.action_space.encode(action)


@pytest.mark.parametrize(
    ("simulators", "error", "message"),
    [
        ([], tt.ConfigurationError, "one simulator or more, got none"),
        ([tt.new_game(2, seed=1)], tt.ConfigurationError, "Simulator objects, got"),
    ],
)
def test_bad_batches_raise_the_librarys_error(
    simulators: list[tt.Simulator], error: type[Exception], message: str
) -> None:
    rng = random.Random(0)
    before = rng.getstate()
    with pytest.raises(error, match=message):
        greedy_codes(simulators, rng)
    assert rng.getstate() == before


def test_a_finished_game_raises_and_nothing_is_drawn() -> None:
    final = tt.play_game(tt.new_game(2, seed=1), [tt.RandomAgent()] * 2, seed=1)[-1]
    playing = tt.Simulator(tt.new_game(2, seed=2))
    rng = random.Random(0)
    before = rng.getstate()
    with pytest.raises(tt.IllegalActionError, match=r"simulator 1 is over \(R10\)"):
        greedy_codes([playing, tt.Simulator(final)], rng)
    assert rng.getstate() == before


class _RulesGreedyAgent:
    """GreedyAgent as it was before it valued on the core: every action applied by the rules."""

    def choose(
        self, view: tt.PlayerView, legal_actions: Sequence[tt.Action], rng: random.Random
    ) -> tt.Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        values = _values_by_rules(determinize(view, rng), legal_actions)
        best = [legal_actions[i] for i in sorted(_best(values))]
        return best[rng.randrange(len(best))]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", [(), ("open-objectives",), ("family",)])
def test_the_greedy_agent_chooses_exactly_as_it_did(
    players: int, variants: tuple[str, ...]
) -> None:
    for seed in range(3):
        game = tt.new_game(players, seed=seed, any_mean_house=seed == 1, variants=variants)
        new = tt.play_game(game, [tt.GreedyAgent()] * players, seed=seed)
        old = tt.play_game(game, [_RulesGreedyAgent()] * players, seed=seed)
        assert new == old

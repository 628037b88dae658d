"""The shipped value policy for a batch of simulators (issue 45): ``value_policy_codes``.

``ValuePolicyAgent.choose_codes`` (and the one-seat env's ``opponents="policy"``) computes
every legal action's afterstate features on the compact core. These tests check that those
features are the very floats ``afterstate_features`` gives by the rules, that the codes
chosen are those ``ValuePolicyAgent.choose`` plays on the mover's view, in real games of 2 to
4 players and variants, that the simulators are left as they were and that nothing is drawn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats.adapters.gym import TrickyTreatsSeatVectorEnv
from tricky_treats.adapters.policy import (
    FEATURE_NAMES,
    ValuePolicyAgent,
    afterstate_features,
    shipped_policy_codes,
)
from tricky_treats.simulator import value_policy_codes, value_policy_features
from tricky_treats.testing.strategies import game_specs, played_games

CORE_VARIANTS = ("open-objectives", "any-mean-house")
"""Variants without scoring lines: the core computes their features."""

SHIPPED = ValuePolicyAgent.shipped()
# Weights that read every feature, each with a sign of its own (some shipped weights are small).
DENSE = ValuePolicyAgent(np.random.default_rng(45).normal(size=len(FEATURE_NAMES)))


def _states(games: int, players: Sequence[int], variants: Sequence[str] = ()) -> list[tt.GameState]:
    """The states of real games where a player is to move: policy, greedy and random bots."""
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
        bots: list[tt.Agent] = [SHIPPED, tt.GreedyAgent(), tt.RandomAgent(), SHIPPED]
        found += tt.play_game(game, bots[:count], seed=seed)[:-1]
    return found


def _agents_code(agent: ValuePolicyAgent, state: tt.GameState, seed: int = 0) -> int:
    """The code the agent's valuation by the rules finds best on a sample of the mover's view.

    As ``ValuePolicyAgent.choose`` was before it valued on the core: ``afterstate_features``
    of every action applied by the rules, the first of the highest value.
    """
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    if len(legal) == 1:
        return state.action_space.encode(legal[0])
    sample = tt.determinize(state.view(seat), random.Random(seed))
    rows = np.array([afterstate_features(sample.apply(action), seat) for action in legal])
    return state.action_space.encode(legal[int(np.argmax(agent._values(rows)))])


@settings(max_examples=40, deadline=None)
@given(played_games(game_specs(variants=CORE_VARIANTS), max_actions=150), st.data())
def test_the_core_computes_the_features_of_every_afterstate_as_the_rules_do(
    states: list[tt.GameState], data: st.DataObject
) -> None:
    playing = [state for state in states if not state.is_over]
    state = data.draw(st.sampled_from(playing))
    seat = state.current_player
    assert seat is not None
    sim = tt.Simulator(state)
    assert sim.fast
    legal = state.legal_actions()
    codes = [state.action_space.encode(action) for action in legal]
    rows = value_policy_features(sim, codes)
    # Equal floats, not merely close, for every feature of every action.
    assert rows == [afterstate_features(state.apply(action), seat) for action in legal]
    assert all(len(row) == len(FEATURE_NAMES) for row in rows)
    for agent in (SHIPPED, DENSE):
        assert agent.choose_codes([sim]) == [_agents_code(agent, state)]
    assert sim.state() == state  # every action was undone


@pytest.mark.parametrize("variants", [(), ("open-objectives",), ("any-mean-house",)])
def test_the_batch_chooses_what_the_agent_chooses_in_real_games(variants: tuple[str, ...]) -> None:
    states = _states(12, (2, 3, 4), variants)
    sims = [tt.Simulator(state) for state in states]
    assert all(sim.fast for sim in sims)
    for agent in (SHIPPED, DENSE):
        chosen = agent.choose_codes(sims)  # the whole batch in one call
        assert chosen == [_agents_code(agent, state, seed) for seed, state in enumerate(states)]
    assert [sim.state() for sim in sims] == states
    assert len(states) > 300


def test_a_game_with_a_variants_scoring_lines_is_valued_by_the_rules() -> None:
    """``family`` adds points for complete costumes, which the core does not count."""
    states = _states(6, (2, 3, 4), ("family",))
    sims = [tt.Simulator(state) for state in states]
    assert all(value_policy_features(sim, sim.legal_codes()) is None for sim in sims)
    for agent in (SHIPPED, DENSE):
        chosen = agent.choose_codes(sims)
        assert chosen == [_agents_code(agent, state) for state in states]


def test_a_mixed_batch_keeps_each_games_place() -> None:
    plain, family = _states(2, (3,)), _states(2, (2,), ("family",))
    mixed = [state for pair in zip(plain, family, strict=False) for state in pair]
    chosen = SHIPPED.choose_codes([tt.Simulator(state) for state in mixed])
    assert chosen == [_agents_code(SHIPPED, state) for state in mixed]


def test_the_opponents_function_is_the_shipped_policys_and_draws_nothing() -> None:
    states = _states(3, (2, 4))
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    chosen = shipped_policy_codes([tt.Simulator(state) for state in states], rng)
    assert chosen == [_agents_code(SHIPPED, state) for state in states]
    assert rng.bit_generator.state == before


def test_the_agents_value_of_a_row_does_not_depend_on_the_other_rows() -> None:
    """What lets the core, which values one row at a time, find the agent's very values."""
    rows = np.random.default_rng(1).normal(size=(500, len(FEATURE_NAMES)))
    together = DENSE._values(rows)
    alone = [DENSE._values(rows[i : i + 1])[0] for i in range(len(rows))]
    assert together.tolist() == alone
    by_hand = []
    for row in rows.tolist():
        value = 0.0
        for weight, feature in zip(DENSE.weights.tolist(), row, strict=True):
            value += weight * feature
        by_hand.append(value)
    assert together.tolist() == by_hand  # left to right, as the core sums


def test_the_one_seat_env_plays_the_shipped_policy_as_opponents() -> None:
    def per_game(simulators: Sequence[tt.Simulator], rng: np.random.Generator) -> list[int]:
        return [_agents_code(SHIPPED, sim.state()) for sim in simulators]

    runs = []
    for opponents in ("policy", per_game):
        envs = TrickyTreatsSeatVectorEnv(4, players=3, seat="random", opponents=opponents)
        obs, infos = envs.reset(seed=7)
        rng = np.random.default_rng(7)
        seen = [obs]
        for _ in range(40):
            masks = infos["action_mask"]
            obs, _, _, _, infos = envs.step((rng.random(masks.shape) * masks).argmax(axis=1))
            seen.append(obs)
        runs.append(np.array(seen))
    assert np.array_equal(runs[0], runs[1])


class _RulesPolicyAgent(ValuePolicyAgent):
    """ValuePolicyAgent as it was before it valued on the core: every action by the rules."""

    def _best(
        self, state: tt.GameState, seat: int, legal_actions: Sequence[tt.Action]
    ) -> tt.Action:
        rows = self._rows(state, seat, legal_actions)
        return legal_actions[int(np.argmax(self._values(rows)))]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", [(), ("open-objectives",), ("family",)])
def test_the_policy_agent_chooses_exactly_as_it_did(
    players: int, variants: tuple[str, ...]
) -> None:
    for seed in range(3):
        game = tt.new_game(players, seed=seed, any_mean_house=seed == 1, variants=variants)
        for weights in (SHIPPED.weights, DENSE.weights):
            new = tt.play_game(game, [ValuePolicyAgent(weights)] * players, seed=seed)
            old = tt.play_game(game, [_RulesPolicyAgent(weights)] * players, seed=seed)
            assert new == old


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
    with pytest.raises(error, match=message):
        SHIPPED.choose_codes(simulators)


def test_a_finished_game_raises_and_no_game_is_valued() -> None:
    final = tt.play_game(tt.new_game(2, seed=1), [tt.RandomAgent()] * 2, seed=1)[-1]
    asked: list[tt.Simulator] = []

    def by_state(sim: tt.Simulator) -> int:
        asked.append(sim)
        return 0

    family = tt.Simulator(_states(1, (2,), ("family",))[0])
    with pytest.raises(tt.IllegalActionError, match=r"simulator 1 is over \(R10\)"):
        value_policy_codes([family, tt.Simulator(final)], SHIPPED.weights.tolist(), by_state)
    assert not asked


def test_weights_of_another_length_are_refused() -> None:
    sims = [tt.Simulator(tt.new_game(2, seed=1))]
    with pytest.raises(tt.ConfigurationError, match=f"has {len(FEATURE_NAMES)} weights, got 3"):
        value_policy_codes(sims, [1.0, 2.0, 3.0], lambda sim: 0)

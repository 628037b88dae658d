"""The OpenSpiel game passes OpenSpiel's own tests and plays with its IS-MCTS bot and RL API."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tricky_treats as tt
from tests.requirements import install_hint

pyspiel = pytest.importorskip("pyspiel", reason=install_hint("openspiel"))

import numpy as np  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from tricky_treats.adapters.openspiel import (  # noqa: E402
    GAME_NAME,
    TrickyTreatsState,
    resample_from_infostate,
)

CONFIGURATIONS = [
    pytest.param({"players": 2}, id="2p"),
    pytest.param({"players": 3}, id="3p"),
    pytest.param({"players": 4}, id="4p"),
    pytest.param({"players": 3, "variants": "family,open-objectives"}, id="3p-variants"),
]


def _engine(state: TrickyTreatsState) -> tt.GameState:
    assert state.game_state is not None
    return state.game_state


def _dealt(params: dict[str, Any], moves: int = 0) -> TrickyTreatsState:
    game = pyspiel.load_game(GAME_NAME, params)
    state = game.new_initial_state()
    state.apply_action(0)
    rng = random.Random(moves)
    for _ in range(moves):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    result: TrickyTreatsState = state
    return result


@pytest.mark.parametrize("params", CONFIGURATIONS)
def test_openspiel_random_sim_test(params: dict[str, Any]) -> None:
    """OpenSpiel's generic checks: clones, legal actions, observations, returns, lengths.

    ``serialize=False``: the deal is a sampled chance node, and OpenSpiel can serialize a
    game with sampled chance nodes only through the game's random state, which a game
    written in Python cannot expose (``GetRNGState unimplemented``). A state alone
    serializes: see the next test.
    """
    game = pyspiel.load_game(GAME_NAME, {**params, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_a_state_serializes_and_deserializes() -> None:
    state = _dealt({"players": 3, "variants": "family", "seed": 2}, moves=25)
    game = state.get_game()
    copy = game.deserialize_state(state.serialize())
    assert copy.game_state == state.game_state
    assert str(copy) == str(state)
    assert copy.history() == state.history()


def test_the_deal_is_a_sampled_chance_node_drawn_from_the_seed() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "seed": 11})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1.0)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal"
    deals = []
    for _ in range(3):
        fresh = game.new_initial_state()
        fresh.apply_action(0)
        deals.append(fresh.game_state)
    assert len({d.config.seed for d in deals}) == 3
    again = pyspiel.load_game(GAME_NAME, {"players": 2, "seed": 11})
    replayed = []
    for _ in range(3):
        fresh = again.new_initial_state()
        fresh.apply_action(0)
        replayed.append(fresh.game_state)
    assert replayed == deals
    seeds = random.Random(11)
    assert deals[0] == tt.new_game(2, seed=seeds.getrandbits(63))


def test_the_game_describes_itself() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4, "variants": "family"})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == tt.new_game(4, seed=0).action_space.size
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1 / 3, 1.0, 0.0)
    assert game.get_parameters() == {"players": 4, "seed": 0, "variants": "family"}
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.game_state.config.variants[0].name == "family"
    with pytest.raises(tt.ConfigurationError, match="2 to 4 players"):
        pyspiel.load_game(GAME_NAME, {"players": 5})
    with pytest.raises(tt.ConfigurationError, match="no variant"):
        pyspiel.load_game(GAME_NAME, {"variants": "no-such-variant"})


def test_observations_through_the_observer_api() -> None:
    state = _dealt({"players": 3, "seed": 5}, moves=12)
    game = state.get_game()
    engine = _engine(state)
    encoding = game.encoding
    for player in range(3):
        view = engine.view(player)
        observed = np.array(state.observation_tensor(player), np.float32)
        assert np.array_equal(observed, encoding.encode(view))
        info = np.array(state.information_state_tensor(player), np.float32)
        assert np.array_equal(info[: encoding.size], observed)
        codes = [engine.action_space.encode(a) + 1 for a in engine.history]
        assert info[encoding.size : encoding.size + len(codes)].tolist() == codes
        assert not info[encoding.size + len(codes) :].any()
        assert f"as seen by Player {player + 1}" in state.observation_string(player)
        assert state.information_state_string(player).endswith(
            "History: " + " ".join(str(a) for a in engine.history)
        )
    observation = make_observation(game)
    observation.set_from(state, 1)
    assert set(observation.dict) == {s.name for s in encoding.sections}
    assert observation.dict["treats"].shape == (3, 3)
    assert observation.dict["treats"][0].tolist() == list(engine.players[1].treats)
    perfect = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert "history" in perfect.dict
    before = game.new_initial_state()
    assert not any(before.observation_tensor(0))
    assert before.observation_string(0) == "before the deal"


def test_a_clone_shares_the_immutable_game_state() -> None:
    state = _dealt({"players": 2, "seed": 1}, moves=5)
    clone = state.clone()
    assert clone.game_state is state.game_state
    clone.apply_action(clone.legal_actions()[0])
    assert clone.game_state is not state.game_state
    assert len(state.history()) + 1 == len(clone.history())


@pytest.mark.parametrize("players", [2, 3])
def test_resampling_keeps_what_the_player_sees(players: int) -> None:
    state = _dealt({"players": players, "seed": 8}, moves=15)
    player = state.current_player()
    rng = random.Random(4)
    decks = set()
    for _ in range(5):
        sampled = resample_from_infostate(state, player, rng)
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.information_state_tensor(player) == state.information_state_tensor(player)
        assert sampled.legal_actions() == state.legal_actions()
        assert sampled.history() == state.history()
        decks.add(_engine(sampled).setup.deck)
    assert len(decks) > 1  # the hidden deck order is really drawn anew
    # The State API's own method, which OpenSpiel's IS-MCTS bot calls without a resampler.
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sampled = state.resample_from_infostate(player, sampler)
    assert sampled.information_state_string(player) == state.information_state_string(player)
    bot = ismcts.ISMCTSBot(
        game=state.get_game(),
        evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=3,
        random_state=np.random.RandomState(0),
    )
    assert bot.step(state) in state.legal_actions()


def test_openspiel_ismcts_bot_plays_a_whole_game_with_a_determinizing_resampler() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2, "seed": 2})
    rng = random.Random(0)
    calls = []

    def resampler(state: TrickyTreatsState, player: int) -> TrickyTreatsState:
        calls.append(player)
        return resample_from_infostate(state, player, rng)

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = []
    for seat in range(2):
        bot = ismcts.ISMCTSBot(
            game=game,
            evaluator=evaluator,
            uct_c=2.0,
            max_simulations=4,
            random_state=np.random.RandomState(seat),
        )
        bot.set_resampler(resampler)
        bots.append(bot)
    state = game.new_initial_state()
    state.apply_action(0)
    moves = 0
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert state.game_state.is_over
    assert moves == len(state.game_state.history)
    assert calls  # the bot searched through our resampler
    assert sum(state.returns()) == pytest.approx(0.0)
    assert max(state.returns()) > 0


def test_an_rl_environment_episode() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "seed": 6})
    environment = rl_environment.Environment(game, seed=3)
    spec = environment.observation_spec()
    assert spec["info_state"] == (game.information_state_tensor_size(),)
    assert environment.action_spec()["num_actions"] == game.num_distinct_actions()
    rng = random.Random(2)
    step = environment.reset()
    totals = [0.0, 0.0, 0.0]
    steps = 0
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        assert legal == environment.get_state.legal_actions()
        assert len(step.observations["info_state"][player]) == spec["info_state"][0]
        step = environment.step([legal[rng.randrange(len(legal))]])
        totals = [t + r for t, r in zip(totals, step.rewards, strict=True)]
        steps += 1
    final = environment.get_state
    assert final.is_terminal()
    assert steps == len(final.game_state.history)
    assert totals == pytest.approx(final.returns())
    assert sum(totals) == pytest.approx(0.0)

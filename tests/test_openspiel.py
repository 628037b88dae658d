"""The OpenSpiel game passes OpenSpiel's own tests and plays with its IS-MCTS bot and RL API."""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from typing import Any

import pytest

import tricky_treats as tt
from tests.requirements import install_hint

pyspiel = pytest.importorskip("pyspiel", reason=install_hint("openspiel"))

import numpy as np  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    evaluate_bots,
    generate_playthrough,
    ismcts,
    mcts,
)
from open_spiel.python.observation import make_observation  # noqa: E402

from tricky_treats.adapters.openspiel import (  # noqa: E402
    GAME_NAME,
    TrickyTreatsState,
    ismcts_bot,
    openspiel_returns,
    outcome_rewards,
    resample_from_infostate,
)
from tricky_treats.agents import Determinizer  # noqa: E402
from tricky_treats.dealing import deal_draws  # noqa: E402

CONFIGURATIONS = [
    pytest.param({"players": 2}, id="2p"),
    pytest.param({"players": 3}, id="3p"),
    pytest.param({"players": 4}, id="4p"),
    pytest.param({"players": 3, "variants": "family+open-objectives"}, id="3p-variants"),
    pytest.param({"players": 2, "variants": "any-mean-house"}, id="2p-any-mean-house"),
]


def _engine(state: TrickyTreatsState) -> tt.GameState:
    assert state.game_state is not None
    return state.game_state


def _deal(state: Any, rng: np.random.RandomState) -> None:
    """Sample the deal's chance outcomes, as OpenSpiel's tools do."""
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probabilities)))


def _dealt(params: dict[str, Any], moves: int = 0, seed: int = 0) -> TrickyTreatsState:
    game = pyspiel.load_game(GAME_NAME, params)
    state = game.new_initial_state()
    _deal(state, np.random.RandomState(seed))
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
    """OpenSpiel's generic checks, serialization of game and state included."""
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_playthrough(players: int) -> None:
    """OpenSpiel's playthrough tool runs; with the same seed it writes the same text."""
    name = f"{GAME_NAME}(players={players})"
    text = generate_playthrough.playthrough(name, action_sequence=None, seed=players)
    assert text.startswith(f"game: {name}")
    assert "ChanceMode.EXPLICIT_STOCHASTIC" in text
    assert "MaxChanceOutcomes() = 72" in text
    assert "IsTerminal() = True" in text
    if players == 2:  # what the tool's replay checks, once (it plays the game again)
        assert generate_playthrough.playthrough(name, action_sequence=None, seed=2) == text


def test_a_state_serializes_and_deserializes() -> None:
    state = _dealt({"players": 3, "variants": "family"}, moves=25, seed=2)
    game = state.get_game()
    copy_ = game.deserialize_state(state.serialize())
    assert copy_.game_state == state.game_state
    assert str(copy_) == str(state)
    assert copy_.history() == state.history()


@pytest.mark.parametrize("moves", [0, 30])
def test_games_and_states_pickle_and_deep_copy(moves: int) -> None:
    state = _dealt({"players": 3, "variants": "family"}, moves=moves, seed=4)
    game = state.get_game()
    for restored in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert str(restored) == str(game)
        assert restored.draw_bounds == game.draw_bounds
        assert restored.variants == ("family",)
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert type(again) is TrickyTreatsState
        assert again.history() == state.history()
        assert again.game_state == state.game_state
        again.apply_action(again.legal_actions()[0])  # and it plays on
    mid_deal = game.new_initial_state()
    mid_deal.apply_action(3)
    restored_state = pickle.loads(pickle.dumps(mid_deal))
    assert restored_state.history() == [3]
    assert restored_state.chance_outcomes() == mid_deal.chance_outcomes()


def test_the_deal_is_one_chance_node_per_draw_of_the_engines_deal() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == 72  # the deck's first draw
    seeded = tt.new_game(2, seed=11)
    draws = deal_draws(seeded)
    state = game.new_initial_state()
    for draw in draws:
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert [o for o, _ in outcomes] == list(range(draw.among))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(draw.choice)
    assert not state.is_chance_node()
    assert state.history() == [draw.choice for draw in draws]
    # The engine's seeded deal and this history of chance outcomes deal the same game.
    dealt = _engine(state)
    for part in ("grid", "street_tokens", "mean_houses", "secret_tiles", "deck"):
        assert getattr(dealt.setup, part) == getattr(seeded.setup, part), part
    engine_game = seeded
    rng = random.Random(1)
    while not engine_game.is_over:
        actions = engine_game.legal_actions()
        assert state.legal_actions() == [engine_game.action_space.encode(a) for a in actions]
        action = actions[rng.randrange(len(actions))]
        engine_game = engine_game.apply(action)
        state.apply_action(engine_game.action_space.encode(action))
    assert _engine(state).scores() == engine_game.scores()
    assert state.returns() == list(openspiel_returns(engine_game))


def test_a_chance_outcome_out_of_range_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 2})
    state = game.new_initial_state()
    state.apply_action(4)
    with pytest.raises(tt.InvalidActionError, match="outcomes 0 to 8"):
        state.apply_action(9)
    assert state.history() == [4]
    assert len(state.chance_outcomes()) == 9


def test_seeds_of_the_rl_environment_control_the_deal() -> None:
    """As for kuhn_poker: the environment's chance sampler, seeded, draws the deals."""
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    deals = []
    for _ in range(2):
        environment = rl_environment.Environment(game)
        environment.seed(7)
        environment.reset()
        first = environment.get_state.game_state
        environment.reset()
        deals.append((first, environment.get_state.game_state))
    assert deals[0] == deals[1]
    assert deals[0][0] != deals[0][1]
    full = rl_environment.Environment(game, include_full_state=True)
    full.seed(7)
    step = full.reset()
    restored = pyspiel.deserialize_game_and_state(step.observations["serialized_state"])[1]
    assert restored.game_state == deals[0][0]


def test_the_game_describes_itself() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4, "variants": "family"})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == tt.new_game(4, seed=0).action_space.size
    # The returns' whole-number scale for 4 players is 9: -1/3 is -3, +1 is +9.
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-3.0, 9.0, 0.0)
    assert game.get_parameters() == {"players": 4, "variants": "family"}
    assert str(pyspiel.load_game(GAME_NAME, {"variants": "family,open-objectives"})) == (
        f"{GAME_NAME}(players=2,variants=family+open-objectives)"
    )
    state = _dealt({"players": 4, "variants": "family"})
    assert _engine(state).config.variants[0].name == "family"
    with pytest.raises(tt.ConfigurationError, match="2 to 4 players"):
        pyspiel.load_game(GAME_NAME, {"players": 5})
    with pytest.raises(tt.ConfigurationError, match="no variant"):
        pyspiel.load_game(GAME_NAME, {"variants": "no-such-variant"})


def test_observations_through_the_observer_api() -> None:
    state = _dealt({"players": 3}, moves=12, seed=5)
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
        assert f"as seen by player_{player}" in state.observation_string(player)
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
    assert before.observation_string(0) == "dealing: 0 of 101 draws made"
    # Public or private information alone is not provided: None, as OpenSpiel expects.
    for public, private in ((True, pyspiel.PrivateInfoType.NONE), (False, None)):
        kind = pyspiel.IIGObservationType(
            public_info=public,
            perfect_recall=False,
            private_info=private or pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )
        assert make_observation(game, kind) is None


def test_a_clone_plays_on_its_own_simulator() -> None:
    """States play on simulators (the fast lane); a clone copies it, and plays alone."""
    state = _dealt({"players": 2}, moves=5, seed=1)
    before = state.game_state
    clone = state.clone()
    assert clone.game_state == before
    first = clone.legal_actions()[0]
    clone.apply_action(first)
    assert state.game_state == before  # the original is unchanged
    assert before is not None
    assert clone.game_state == before.apply(before.action_space.decode(first))
    assert len(state.history()) + 1 == len(clone.history())


class _Finished:
    """Just what ``outcome_rewards`` reads of a finished game: the seats and the winners."""

    def __init__(self, players: int, winners: tuple[int, ...]) -> None:
        self.players = (None,) * players
        self._winners = winners

    def winners(self) -> tuple[int, ...]:
        return self._winners


@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_are_whole_and_sum_to_exactly_zero_whoever_wins(players: int) -> None:
    """Every outcome, shared wins included: the returns add up to exactly 0 in any order."""
    scale = (players - 1) ** 2
    for k in range(1, players + 1):
        for winners in itertools.combinations(range(players), k):
            finished: Any = _Finished(players, winners)
            returns = openspiel_returns(finished)
            assert all(r == int(r) for r in returns)
            for order in itertools.permutations(returns):
                assert sum(order) == 0.0  # exactly, as OpenSpiel's test_constant_sum asks
            rewards = outcome_rewards(finished)
            assert returns == pytest.approx([r * scale for r in rewards])
    # A sole winner of 4: +9 and -3 each; the rewards +1 and -1/3 did not sum to 0 exactly.
    sole: Any = _Finished(4, (0,))
    assert openspiel_returns(sole) == (9.0, -3.0, -3.0, -3.0)
    assert sum(outcome_rewards(sole)) != 0.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_constant_sum_as_openspiels_api_test_checks_it(players: int) -> None:
    """OpenSpiel's test_constant_sum over the terminal states of random games."""
    game = pyspiel.load_game(GAME_NAME, {"players": players})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    for seed in range(6):
        state = _dealt({"players": players}, moves=10_000, seed=seed)
        assert state.is_terminal()
        assert sum(state.returns()) == game.utility_sum()
        assert game.min_utility() <= min(state.returns())
        assert max(state.returns()) <= game.max_utility()


def test_resampling_builds_one_determinizer_per_state_and_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tricky_treats.adapters.openspiel as adapter

    built: list[int] = []

    class Counting(Determinizer):
        def __init__(self, view: tt.PlayerView) -> None:
            built.append(view.player)
            super().__init__(view)

    monkeypatch.setattr(adapter, "Determinizer", Counting)
    state = _dealt({"players": 3}, moves=12, seed=2)
    player = state.current_player()
    first, again = random.Random(5), random.Random(5)
    samples = [resample_from_infostate(state, player, first) for _ in range(4)]
    assert built == [player]  # built at the first resample, reused by the next three
    # The same worlds as a tt.determinize per resample draws from the same random numbers.
    view = _engine(state).view(player)
    assert [_engine(s) for s in samples] == [tt.determinize(view, again) for _ in range(4)]
    resample_from_infostate(state, (player + 1) % 3, first)
    assert built == [player, (player + 1) % 3]  # another player: another view
    clone = state.clone()
    assert not clone.determinizers  # a clone (a deep copy, for OpenSpiel) starts afresh
    assert not pickle.loads(pickle.dumps(state)).determinizers
    clone.apply_action(clone.legal_actions()[0])
    resample_from_infostate(clone, clone.current_player(), first)
    assert len(built) == 3


@pytest.mark.parametrize("players", [2, 3])
def test_resampling_keeps_what_the_player_sees(players: int) -> None:
    state = _dealt({"players": players}, moves=15, seed=8)
    player = state.current_player()
    rng = random.Random(4)
    decks = set()
    for _ in range(5):
        sampled = resample_from_infostate(state, player, rng)
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.information_state_tensor(player) == state.information_state_tensor(player)
        assert sampled.legal_actions() == state.legal_actions()
        assert sampled.history() == state.history()  # the search world keeps the history
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
    game = pyspiel.load_game(GAME_NAME, {"players": 2})
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
    _deal(state, np.random.RandomState(2))
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
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    environment = rl_environment.Environment(game)
    environment.seed(3)
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


def test_evaluate_bots_plays_ismcts_bots_made_by_ismcts_bot() -> None:
    """OpenSpiel's evaluate_bots with its IS-MCTS bot, as docs/openspiel.md shows it."""
    game = pyspiel.load_game(GAME_NAME, {"players": 2})
    bots = [ismcts_bot(game, max_simulations=3, seed=seat) for seat in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(0.0)
    assert max(returns) > 0
    again = evaluate_bots.evaluate_bots(
        game.new_initial_state(),
        [ismcts_bot(game, max_simulations=3, seed=seat) for seat in range(2)],
        np.random.RandomState(0),
    )
    assert again == returns  # the seeds decide everything
    plain = ismcts.ISMCTSBot(
        game=game, evaluator=mcts.RandomRolloutEvaluator(), uct_c=2.0, max_simulations=1
    )
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):  # why ismcts_bot is needed
        evaluate_bots.evaluate_bots(game.new_initial_state(), [plain, plain], None)

"""Gymnasium's own API on the envs (issue 45): the vector env, the one-seat env, its batch.

Gymnasium's checker (``check_env``), registry (``make``, ``make_vec``) and vector wrappers
run on the real envs with real steps; the observations are checked against
``ObservationEncoding`` of the agent's view, the rewards against ``outcome_rewards``.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.wrappers import vector as wrappers

import tricky_treats as tt
from tests.test_vector import _outcome_rewards as outcome_rewards
from tricky_treats.adapters.gym import (
    ENV_ID,
    TrickyTreatsEnv,
    TrickyTreatsSeatVectorEnv,
    random_codes,
)
from tricky_treats.adapters.vector import TrickyTreatsVectorEnv
from tricky_treats.errors import ConfigurationError, IllegalActionError
from tricky_treats.simulator import Simulator, greedy_codes


def _legal(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A legal code drawn uniformly in each row of ``masks``."""
    codes: npt.NDArray[np.int64] = (rng.random(masks.shape) * masks).argmax(axis=1)
    return codes.astype(np.int64)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 3, "seat": "random", "opponents": "greedy"},
        {"players": 4, "seat": 2, "variants": ["family"]},
    ],
)
def test_check_env_passes_without_a_warning(options: dict[str, Any]) -> None:
    env = gymnasium.make(ENV_ID, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Gymnasium's checker warns where it does not fail
        check_env(env.unwrapped)
    env.close()


def test_make_builds_the_env_with_its_options() -> None:
    env = gymnasium.make(ENV_ID, players=3, seat=1, opponents="greedy", variants=["family"])
    assert isinstance(env.unwrapped, TrickyTreatsEnv)
    assert env.spec is not None
    assert env.spec.id == ENV_ID
    obs, info = env.reset(seed=11)
    assert info["seat"] == 1
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, TrickyTreatsEnv)
    sim = unwrapped.simulator
    assert sim.current_player == 1
    assert [v.name for v in sim.state().setup.config.variants] == ["family"]
    assert np.array_equal(obs, unwrapped.encoding.encode(sim.state().view(1)))


def test_the_agents_observation_is_the_encoding_of_its_view_game_after_game() -> None:
    env = TrickyTreatsEnv(players=3, seat="random", opponents="random")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        sim = env.simulator
        state = sim.state()
        seat = info["seat"]
        assert state.current_player == seat
        view = state.view(seat)
        assert np.array_equal(obs, env.encoding.encode(view))
        assert np.array_equal(info["action_mask"], env.encoding.action_mask(view))
        action = int(_legal(info["action_mask"][None], rng)[0])
        after = state.apply(state.action_space.decode(action))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:  # the finished game: its rewards, and the agent's final view
            final = sim.state()
            assert final.is_over
            assert info["rewards"].tolist() == pytest.approx(outcome_rewards(final))
            assert reward == pytest.approx(outcome_rewards(final)[seat])
            assert np.array_equal(obs, env.encoding.encode(final.view(seat)))
            assert not info["action_mask"].any()
            ended += 1
            obs, info = env.reset()
        else:
            assert reward == 0.0
            if after.current_player == seat:  # the agent's turn goes on: nobody else moved
                assert env.simulator.state() == after
    assert ended >= 2


def test_the_same_seed_gives_the_same_games_and_moves() -> None:
    def run(seed: int) -> list[Any]:
        env = TrickyTreatsEnv(players=3, seat="random", opponents="greedy")
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace: list[Any] = [obs.tolist(), info["seat"], info["seed"]]
        for _ in range(30):
            obs, reward, terminated, _, info = env.step(
                int(_legal(info["action_mask"][None], rng)[0])
            )
            trace.append((obs.tolist(), reward, terminated))
            if terminated:
                obs, info = env.reset()
        trace.append(env.simulator.state().history)
        return trace

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_reset_with_a_seed_deals_that_game_and_seeds_np_random() -> None:
    env = TrickyTreatsEnv(players=2, seat=0)
    env.reset(seed=np.int64(42))  # numpy's ints too, as the vector env takes them
    assert env.np_random_seed == 42
    assert env.simulator.state().setup == tt.new_game(2, seed=42).setup
    state = env.np_random.bit_generator.state
    env.reset(seed=42)
    assert env.np_random.bit_generator.state == state


def test_make_vec_gives_the_native_batch_and_sync_works_too() -> None:
    native = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point")
    sync = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync")
    assert isinstance(native, TrickyTreatsSeatVectorEnv)
    assert isinstance(sync, SyncVectorEnv)
    assert native.spec is not None
    assert native.spec.id == ENV_ID
    assert native.observation_space == sync.observation_space
    assert native.action_space == sync.action_space
    native_obs, native_infos = native.reset(seed=8)
    sync_obs, sync_infos = sync.reset(seed=8)
    # Seat 0 moves first: both deal new_game(seed=8 + i) and nobody else has moved.
    assert np.array_equal(native_obs, sync_obs)
    assert np.array_equal(native_infos["action_mask"], sync_infos["action_mask"])
    rng = np.random.default_rng(2)
    for envs, infos in ((native, native_infos), (sync, sync_infos)):
        for _ in range(60):
            obs, rewards, terminations, truncations, infos = envs.step(
                _legal(infos["action_mask"], rng)
            )
            assert obs.shape == (3, native.observation_size)
            assert rewards.shape == terminations.shape == truncations.shape == (3,)
        envs.close()


def test_the_batch_plays_the_opponents_inside_step_and_rewards_the_agents_seat() -> None:
    envs = TrickyTreatsSeatVectorEnv(4, players=3, seat="random", opponents="random")
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=9)
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(300):
        seats = infos["seat"].copy()
        before = [sim.clone() for sim in envs.simulators]
        for env, sim in enumerate(envs.simulators):
            assert sim.current_player == seats[env]
            view = sim.state().view(int(seats[env]))
            assert np.array_equal(obs[env], envs.encoding.encode(view))
        obs, rewards, terminations, _, infos = envs.step(_legal(infos["action_mask"], rng))
        for env in map(int, np.flatnonzero(terminations)):
            game = before[env]
            assert not game.is_over
            expected = infos["rewards"][env]
            assert rewards[env] == expected[seats[env]]
            assert expected.sum() == pytest.approx(0.0, abs=1e-6)
            assert (
                envs.simulators[env].state().setup
                == tt.new_game(3, seed=int(infos["seed"][env])).setup
            )
            ended += 1
        assert not rewards[~terminations].any()
    assert ended >= 4


def test_one_call_of_the_opponents_chooses_for_every_waiting_game() -> None:
    calls: list[int] = []

    def choose(simulators: Sequence[Simulator], rng: np.random.Generator) -> list[int]:
        calls.append(len(simulators))
        assert all(sim.current_player != 0 for sim in simulators)
        return random_codes(simulators, rng)

    envs = TrickyTreatsSeatVectorEnv(6, players=2, seat=0, opponents=choose)
    _, infos = envs.reset(seed=1)
    assert calls == []  # seat 0 moves first
    rng = np.random.default_rng(0)
    rounds = 0
    for _ in range(40):
        calls.clear()
        actions = _legal(infos["action_mask"], rng)
        waiting = 0  # the games where the agent's move hands the turn to the opponent
        for sim, code in zip(envs.simulators, actions.tolist(), strict=True):
            after = sim.clone()
            after.play(code)
            waiting += after.current_player == 1
        _, _, _, _, infos = envs.step(actions)
        if waiting:
            assert calls[0] == waiting  # one call for all of them
            rounds += 1
        else:
            assert calls == []
    assert rounds >= 5


def test_the_opponents_first_moves_happen_inside_reset() -> None:
    envs = TrickyTreatsSeatVectorEnv(3, players=3, seat=2, opponents="greedy")
    obs, _infos = envs.reset(seed=20)
    for env, sim in enumerate(envs.simulators):
        assert sim.current_player == 2
        assert sim.turn > 0  # seats 0 and 1 played first
        assert np.array_equal(obs[env], envs.encoding.encode(sim.state().view(2)))


def test_an_illegal_code_loses_the_game_or_raises() -> None:
    env = TrickyTreatsEnv(players=2, seat=0)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert obs in env.observation_space
    strict = TrickyTreatsEnv(players=2, seat=0, illegal_action="raise")
    _, info = strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.simulator.turn == 0  # nothing moved


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"players": 2, "seat": 2}, "seat"),
        ({"seat": "left"}, "seat"),
        ({"opponents": "smart"}, "opponents"),
        ({"variants": ["nope"]}, "no variant called 'nope'"),
        ({"variants": "family"}, "variants=['family']"),
        ({"illegal_action": "skip"}, "illegal_action"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_options_raise_the_librarys_error_naming_them(
    options: dict[str, Any], named: str
) -> None:
    pattern = re.escape(named)
    if "render_mode" in options:  # Gymnasium's make warns first of a mode not in the metadata
        with (
            pytest.warns(UserWarning, match="render_modes"),
            pytest.raises(ConfigurationError, match=pattern),
        ):
            gymnasium.make(ENV_ID, **options)
    else:
        with pytest.raises(ConfigurationError, match=pattern):
            gymnasium.make(ENV_ID, **options)
    with pytest.raises(ConfigurationError, match=pattern):
        gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="vector_entry_point", **options)
    with pytest.raises(ConfigurationError, match=pattern):
        TrickyTreatsSeatVectorEnv(2, **options)


# -- the multi-seat vector env ------------------------------------------------------------


def test_the_vector_env_is_a_gymnasium_vector_env() -> None:
    envs = TrickyTreatsVectorEnv(3, players=2, render_mode="ansi")
    assert isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert envs.spec is None
    assert envs.num_envs == 3
    envs.reset(seed=7)
    assert envs.np_random_seed == 7
    assert envs.get_attr("players") == (2, 2, 2)
    assert envs.call("action_count") == (envs.action_count,) * 3
    texts = envs.render()
    assert texts is not None
    assert len(texts) == 3
    assert "player_0 to act" in texts[0]
    envs.set_attr("render_mode", [None] * 3)
    assert envs.render() is None
    with pytest.raises(ConfigurationError, match="share one value"):
        envs.set_attr("render_mode", ["ansi", None, None])
    with pytest.raises(ConfigurationError, match="render_mode"):
        envs.set_attr("render_mode", "human")
    envs.close()
    assert envs.closed


def test_the_vector_env_without_a_seed_draws_its_games_from_np_random() -> None:
    first, second = TrickyTreatsVectorEnv(2), TrickyTreatsVectorEnv(2)
    first.reset(seed=3)
    second.reset(seed=3)
    _, a = first.reset()
    _, b = second.reset()
    assert a["seed"].tolist() == b["seed"].tolist()
    assert a["seed"].tolist() != [3, 4]


def _play(envs: Any, steps: int, seed: int) -> list[dict[str, Any]]:
    """Step ``envs`` (wrapped) with random legal codes; the infos of the steps that end a game."""
    _, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ends = []
    for _ in range(steps):
        masks = (
            infos["action_mask"]
            if isinstance(infos, dict)
            else np.stack([info["action_mask"] for info in infos])
        )
        _, rewards, terminations, _, infos = envs.step(_legal(masks, rng))
        assert np.shape(rewards) == (envs.num_envs,)
        if np.any(terminations):
            ends.append({"infos": infos, "rewards": np.array(rewards), "done": terminations.copy()})
    return ends


@pytest.mark.parametrize("native", [TrickyTreatsVectorEnv, TrickyTreatsSeatVectorEnv])
def test_gymnasiums_vector_wrappers_run_on_the_envs(native: type[Any]) -> None:
    envs = native(4, players=2)
    stats = wrappers.RecordEpisodeStatistics(envs)
    ends = _play(stats, 300, seed=1)
    assert ends
    for end in ends:
        episode = end["infos"]["episode"]
        done = end["done"]
        assert (episode["l"][done] > 0).all()
        assert np.allclose(episode["r"][done], end["rewards"][done])  # only the last is not 0
    assert len(stats.return_queue) == sum(int(end["done"].sum()) for end in ends)

    clipped = wrappers.ClipReward(native(4, players=3), min_reward=-0.25, max_reward=0.5)
    for end in _play(clipped, 300, seed=2):
        assert (end["rewards"] >= -0.25).all()
        assert (end["rewards"] <= 0.5).all()

    normalized = wrappers.NormalizeReward(native(4, players=2))
    assert _play(normalized, 200, seed=3)

    inner = native(4, players=2)
    listed = wrappers.DictInfoToList(inner)
    _, infos = listed.reset(seed=5)
    assert isinstance(infos, list)
    assert len(infos) == 4
    assert infos[0]["action_mask"].shape == (inner.action_count,)
    assert _play(listed, 200, seed=5)

    # Gymnasium's observation wrappers take only next-step auto-reset envs (a same-step
    # env's final observations are not transformed): on the native envs they refuse.
    with pytest.raises(ValueError, match="NEXT_STEP"):
        wrappers.NormalizeObservation(native(2))
    with pytest.raises(ValueError, match="NEXT_STEP"):
        wrappers.TransformObservation(native(2), lambda obs: obs / 2.0)


def test_observation_wrappers_run_on_make_vecs_sync_form() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync", opponents="greedy")
    scaled = wrappers.TransformObservation(envs, lambda obs: obs / 2.0)
    obs, _ = scaled.reset(seed=4)
    plain, _ = TrickyTreatsSeatVectorEnv(3, opponents="greedy").reset(seed=4)
    assert np.array_equal(obs, plain / 2.0)  # seat 0 moves first: no opponent moved yet
    normalized = wrappers.NormalizeObservation(scaled)
    stats = wrappers.RecordEpisodeStatistics(normalized)
    ends = _play(stats, 150, seed=4)
    assert ends
    assert "episode" in ends[0]["infos"]


@pytest.mark.parametrize(
    ("imports", "env_id"),
    [
        ("import tricky_treats.adapters.gym", ENV_ID),
        ("", f"tricky_treats.adapters.gym:{ENV_ID}"),  # Gymnasium's make imports the module
    ],
)
def test_importing_the_module_registers_the_env_and_the_root_imports_no_gymnasium(
    imports: str, env_id: str
) -> None:
    code = (
        "import sys, tricky_treats, tricky_treats.adapters\n"
        "assert 'gymnasium' not in sys.modules\n"
        f"import gymnasium\n{imports}\n"
        f"env = gymnasium.make({env_id!r}, players=3)\n"
        "print(type(env.unwrapped).__name__, env.unwrapped.players)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "TrickyTreatsEnv 3"


def test_the_batch_with_next_step_auto_reset_shows_final_observations_then_the_new_game() -> None:
    envs = gymnasium.make_vec(
        ENV_ID,
        num_envs=3,
        vectorization_mode="vector_entry_point",
        players=2,
        seat="random",
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    assert isinstance(envs, TrickyTreatsSeatVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=6)
    rng = np.random.default_rng(6)
    pending: dict[int, int] = {}  # env: the turn its new game is at, shown next step
    checked = 0
    for _ in range(400):
        before = envs.simulators
        seats = infos["seat"].copy()
        actions = _legal(infos["action_mask"], rng)
        actions[list(pending)] = 0  # ignored: those envs only show their new game
        obs, rewards, terminations, _, infos = envs.step(actions)
        for env, turn in pending.items():
            sim = envs.simulators[env]
            assert sim is before[env]  # the new game was not played
            assert sim.turn == turn
            assert not terminations[env]
            assert rewards[env] == 0
            assert np.array_equal(
                obs[env], envs.encoding.encode(sim.state().view(int(infos["seat"][env])))
            )
            checked += 1
        pending = {}
        for env in map(int, np.flatnonzero(terminations)):
            final = before[env].state()
            assert final.is_over
            assert infos["seat"][env] == seats[env]
            assert np.array_equal(obs[env], envs.encoding.encode(final.view(int(seats[env]))))
            assert not infos["action_mask"][env].any()
            assert rewards[env] == pytest.approx(outcome_rewards(final)[seats[env]])
            pending[env] = envs.simulators[env].turn
    assert checked >= 3


def test_gymnasiums_observation_wrappers_run_on_the_next_step_batch() -> None:
    envs = TrickyTreatsSeatVectorEnv(
        4, players=3, seat="random", autoreset_mode=AutoresetMode.NEXT_STEP
    )
    scaled = wrappers.TransformObservation(envs, lambda obs: obs / 2.0)
    obs, _ = scaled.reset(seed=4)
    assert np.array_equal(obs, envs.games.observations / 2.0)
    stats = wrappers.RecordEpisodeStatistics(wrappers.NormalizeObservation(scaled))
    ends = _play(stats, 300, seed=4)
    assert ends
    assert len(stats.return_queue) == sum(int(end["done"].sum()) for end in ends)
    with pytest.raises(ConfigurationError, match="autoreset_mode"):
        TrickyTreatsSeatVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)


def test_an_illegal_code_in_the_batch_loses_that_game_alone() -> None:
    envs = TrickyTreatsSeatVectorEnv(3, players=3, seat=0)
    _, infos = envs.reset(seed=12)
    masks = infos["action_mask"]
    actions = masks.argmax(axis=1)
    actions[1] = int(np.flatnonzero(masks[1] == 0)[0])
    turns = [sim.turn for sim in envs.simulators]
    seed = int(infos["seed"][1])
    _, rewards, terminations, _, infos = envs.step(actions)
    assert terminations.tolist() == [False, True, False]
    assert infos["illegal_action"].tolist() == [False, True, False]
    assert rewards.tolist() == [0.0, -1.0, 0.0]
    assert infos["rewards"][1].tolist() == [-1.0, 0.5, 0.5]
    assert int(infos["seed"][1]) != seed  # dealt again
    assert [envs.simulators[e].turn > turns[e] for e in (0, 2)] == [True, True]


def test_check_env_passes_with_the_ansi_render_mode() -> None:
    made = gymnasium.make(ENV_ID, players=2, render_mode="ansi")  # the checker reads its spec
    env = made.unwrapped
    assert isinstance(env, TrickyTreatsEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
    env.reset(seed=1)
    text = env.render()
    assert text is not None
    assert "as seen by player_0" in text


def test_action_masks_are_the_info_masks_and_empty_once_the_game_ends() -> None:
    """``action_masks()``, which sb3-contrib's MaskablePPO asks for, is ``info["action_mask"]``."""
    env = TrickyTreatsEnv(2, seat="random", opponents="greedy")
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    terminated = False
    while not terminated:
        masks = env.action_masks()
        assert masks.dtype == np.bool_
        assert (masks == (info["action_mask"] == 1)).all()
        assert masks.any()
        action = int(rng.choice(np.flatnonzero(masks)))
        _, _, terminated, _, info = env.step(action)
    assert not env.action_masks().any()  # the game is over: no legal code until reset
    env.reset(seed=4)
    assert env.action_masks().any()


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"variants": ["open-objectives"], "refresh_ends_turn": True}),
        (4, {"any_mean_house": True}),
        (2, {"variants": ["family"]}),  # scoring lines: greedy_codes values by the agent
    ],
)
def test_greedy_opponents_play_the_moves_and_draws_of_greedy_codes(
    players: int, options: dict[str, Any]
) -> None:
    """``"greedy"``: ``simulator.greedy_codes`` with a ``random.Random`` seeded from
    ``np_random``. The built-in opponents (the core chooses for the batch, each take valued
    from the mover's points worked out once; the games encoded once a step) and that very
    function given as the opponents (its codes checked against masks encoded each round)
    play the same games: the same observations, masks, seats and rewards step after step,
    and the same draws from ``np_random``."""

    def by_greedy_codes(simulators: Sequence[Simulator], rng: np.random.Generator) -> list[int]:
        return greedy_codes(simulators, random.Random(int(rng.integers(1 << 63))))

    built_in = TrickyTreatsSeatVectorEnv(12, players, seat="random", opponents="greedy", **options)
    given = TrickyTreatsSeatVectorEnv(
        12, players, seat="random", opponents=by_greedy_codes, **options
    )
    obs, infos = built_in.reset(seed=8)
    expected_obs, expected = given.reset(seed=8)
    rng = np.random.default_rng(8)
    ended = 0
    for _ in range(120):
        assert np.array_equal(obs, expected_obs)
        assert np.array_equal(infos["action_mask"], expected["action_mask"])
        assert np.array_equal(infos["seat"], expected["seat"])
        actions = _legal(infos["action_mask"], rng)
        obs, rewards, terminations, _, infos = built_in.step(actions)
        expected_obs, expected_rewards, expected_ends, _, expected = given.step(actions)
        assert np.array_equal(rewards, expected_rewards)
        assert np.array_equal(terminations, expected_ends)
        ended += int(terminations.sum())
    assert ended >= 12
    assert built_in.np_random.bit_generator.state == given.np_random.bit_generator.state

"""One encoder: the adapters' observations, listed by the core, are the reference encoding's.

PettingZoo, OpenSpiel and the vector env read their observations and masks from the
simulator's compact core where it plays the game, and from the views where it does not (one
encoder, private to the adapters); at every state of many random games (2 to 4 players,
variants, games that go on and games over, determinized worlds) each must equal
``ObservationEncoding.encode(view)`` and ``action_mask(view)`` exactly.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import tricky_treats as tt
from tests.requirements import install_hint

pytest.importorskip("numpy", reason=install_hint("pettingzoo"))
pytest.importorskip("pettingzoo", reason=install_hint("pettingzoo"))
pytest.importorskip("pyspiel", reason=install_hint("openspiel"))

import numpy as np
import pyspiel

from tricky_treats.adapters.observation import ObservationEncoding
from tricky_treats.adapters.openspiel import GAME_NAME, TrickyTreatsState, resample_from_infostate
from tricky_treats.adapters.pettingzoo import raw_env
from tricky_treats.adapters.vector import TrickyTreatsVectorEnv

CONFIGURATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (2, ()),
    (3, ()),
    (4, ()),
    (2, ("family",)),
    (3, ("open-objectives",)),
    (4, ("any-mean-house", "family")),
    (2, ("open-objectives", "any-mean-house")),
)


def _check(encoding: ObservationEncoding, state: tt.GameState, seat: int, obs: Any) -> None:
    view = state.view(seat)
    assert obs["observation"].dtype == np.float32
    assert np.array_equal(obs["observation"], encoding.encode(view))
    assert np.array_equal(obs["action_mask"], encoding.action_mask(view))


@pytest.mark.parametrize(("players", "variants"), CONFIGURATIONS)
def test_pettingzoo_observations_are_the_reference_encoding(
    players: int, variants: tuple[str, ...]
) -> None:
    """Every agent's observation at every step, and after the end, of three random games."""
    env = raw_env(players=players, variants=variants)
    encoding = ObservationEncoding(env.game)
    rng = random.Random(players)
    checked_over = 0
    for episode in range(3):
        env.reset(seed=100 + episode)
        for agent in env.agent_iter():
            state = env.game
            for other in env.possible_agents:
                _check(encoding, state, env.agent_name_mapping[other], env.observe(other))
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                checked_over += state.is_over
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert checked_over >= 3  # the games over were encoded too (all tiles shown, R16)


@pytest.mark.parametrize(("players", "variants"), CONFIGURATIONS)
def test_openspiel_observations_are_the_reference_encoding(
    players: int, variants: tuple[str, ...]
) -> None:
    """Observation and information-state tensors, every player, every state to the end."""
    game = pyspiel.load_game(GAME_NAME, {"players": players, "variants": "+".join(variants)})
    encoding = game.encoding
    rng = random.Random(players)
    for _ in range(2):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        while True:
            engine = state.game_state
            for player in range(players):
                view = engine.view(player)
                expected = encoding.encode(view)
                assert np.array_equal(state.observation_tensor(player), expected)
                info = np.asarray(state.information_state_tensor(player))
                assert np.array_equal(info[: encoding.size], expected)
                codes = [engine.action_space.encode(a) + 1 for a in engine.history]
                assert info[encoding.size : encoding.size + len(codes)].tolist() == codes
                assert not info[encoding.size + len(codes) :].any()
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_resampled_worlds_are_encoded_as_their_views() -> None:
    """A determinized world (other secret tiles, another deck order) is encoded afresh."""
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    encoding = game.encoding
    rng = random.Random(3)
    state: TrickyTreatsState = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(len(state.chance_outcomes())))
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    for player in range(3):
        sampled = resample_from_infostate(state, player, rng)
        world = sampled.game_state
        assert world is not None
        for seat in range(3):
            expected = encoding.encode(world.view(seat))
            assert np.array_equal(sampled.observation_tensor(seat), expected)


@pytest.mark.parametrize(("players", "variants"), CONFIGURATIONS)
def test_vector_env_observations_are_the_reference_encoding(
    players: int, variants: tuple[str, ...]
) -> None:
    """The vector env's games, through new games dealt in the steps that end others."""
    envs = TrickyTreatsVectorEnv(4, players=players, variants=variants)
    obs, infos = envs.reset(seed=5)
    encoding = envs.encoding
    rng = np.random.default_rng(players)
    ended = 0
    for _ in range(150):
        for env, sim in enumerate(envs.simulators):
            view = sim.state().view(int(infos["player"][env]))
            assert np.array_equal(obs[env], encoding.encode(view))
            assert np.array_equal(infos["action_mask"][env], encoding.action_mask(view))
        masks = infos["action_mask"]
        obs, _, terminations, _, infos = envs.step((rng.random(masks.shape) * masks).argmax(1))
        ended += int(terminations.sum())
    assert ended >= 1


_SIX_KIDS = attrs.evolve(
    tt.base_components(), rules=attrs.evolve(tt.base_components().rules, kids_per_player=6)
)


def test_vector_env_observations_beyond_the_core_are_the_reference_encoding() -> None:
    """Six kids a player: the rules play the games and the views are encoded."""
    envs = TrickyTreatsVectorEnv(3, players=3, components=_SIX_KIDS)
    obs, infos = envs.reset(seed=9)
    assert not any(sim.fast for sim in envs.simulators)
    encoding = envs.encoding
    rng = np.random.default_rng(9)
    for _ in range(60):
        for env, sim in enumerate(envs.simulators):
            view = sim.state().view(int(infos["player"][env]))
            assert np.array_equal(obs[env], encoding.encode(view))
            assert np.array_equal(infos["action_mask"][env], encoding.action_mask(view))
        masks = infos["action_mask"]
        obs, _, _, _, infos = envs.step((rng.random(masks.shape) * masks).argmax(1))


def test_a_game_taken_up_mid_way_is_encoded_with_its_history() -> None:
    """A simulator made from a state mid-game (``game_state`` set) has no history of its own.

    At each state of a game, an OpenSpiel state set to it and one that played up to it give
    every viewer the views' encoding, and the information state the codes played.
    """
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    encoding = game.encoding
    played = game.new_initial_state()
    played.game_state = tt.new_game(3, seed=9)
    rng = random.Random(9)
    while True:
        state = played.game_state
        assert state is not None
        again = game.new_initial_state()
        again.game_state = state
        codes = [state.action_space.encode(action) + 1 for action in state.history]
        for seat in range(3):
            expected = encoding.encode(state.view(seat))
            for taken in (played, again):
                assert np.array_equal(taken.observation_tensor(seat), expected)
                info = np.asarray(taken.information_state_tensor(seat))
                assert np.array_equal(info[: encoding.size], expected)
                assert info[encoding.size : encoding.size + len(codes)].tolist() == codes
                assert not info[encoding.size + len(codes) :].any()
        if played.is_terminal():
            break
        played.apply_action(rng.choice(played.legal_actions()))

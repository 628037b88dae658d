"""The vector env: N games stepped at once, as ``tt.Simulator`` and ``apply()`` play them."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import tricky_treats as tt
from tests.requirements import install_hint

pytest.importorskip("numpy", reason=install_hint("pettingzoo"))  # or [openspiel]

import numpy as np

from tricky_treats.adapters.observation import ObservationEncoding
from tricky_treats.adapters.vector import TrickyTreatsVectorEnv
from tricky_treats.dealing import start_game
from tricky_treats.errors import brief

_SIX_KIDS = attrs.evolve(
    tt.base_components(), rules=attrs.evolve(tt.base_components().rules, kids_per_player=6)
)
_FOUR_KIDS_SMALL_MARKET = attrs.evolve(
    tt.base_components(),
    rules=attrs.evolve(tt.base_components().rules, kids_per_player=4, market_size=3),
)

CONFIGURATIONS: tuple[tuple[int, dict[str, Any]], ...] = (
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"variants": ["family"]}),
    (3, {"variants": ["open-objectives"]}),
    (4, {"variants": ["any-mean-house", "family"]}),
    (2, {"refresh_ends_turn": True, "first_player": 1}),
    (3, {"components": _FOUR_KIDS_SMALL_MARKET}),
    (2, {"components": _SIX_KIDS}),  # outside the core's limits: encoded from the views
)


def _random_actions(masks: np.ndarray, rng: random.Random) -> list[int]:
    return [rng.choice(np.flatnonzero(row).tolist()) for row in masks]


def _outcome_rewards(game: tt.GameState) -> list[float]:
    """What docs/vector.md promises: +1 for a sole winner, -1/(n-1) for the others, shared
    wins split (each of k winners' share is 1/k, a seat's reward (n share - 1)/(n - 1)),
    zeros while the game goes on."""
    n, winners = len(game.players), game.winners() if game.is_over else ()
    if not winners:
        return [0.0] * n
    return [(n * (1 / len(winners) if p in winners else 0) - 1) / (n - 1) for p in range(n)]


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_the_vector_env_plays_the_games_of_apply_and_encodes_their_views(
    players: int, options: dict[str, Any]
) -> None:
    """Game by game: the states of ``apply()``, and obs and masks of the views' encoding."""
    _play_against_apply(players, options, _random_actions)


@pytest.mark.parametrize("options", [{}, {"refresh_ends_turn": True}])
def test_refreshes_of_the_market_are_encoded_as_the_views_show_them(
    options: dict[str, Any],
) -> None:
    """A refresh changes every slot of the market (and under R8 the same player acts)."""

    def refresh_often(masks: np.ndarray, rng: random.Random) -> list[int]:
        refresh = masks.shape[1] - 2  # refresh, then pass, end the action space
        chosen = _random_actions(masks, rng)
        return [refresh if row[refresh] else code for row, code in zip(masks, chosen, strict=True)]

    refreshes = _play_against_apply(2, options, refresh_often)
    assert refreshes >= 1  # legal only while the 5 cards share a feature (R8)


def _play_against_apply(
    players: int,
    options: dict[str, Any],
    choose: Callable[[np.ndarray, random.Random], list[int]],
) -> int:
    """Step 3 games 250 times against ``apply()``; the number of refreshes played."""
    envs = TrickyTreatsVectorEnv(3, players=players, **options)
    obs, infos = envs.reset(seed=11)
    assert obs.shape == (3, envs.observation_size)
    assert obs.dtype == np.float32
    masks = infos["action_mask"]
    assert masks.shape == (3, envs.action_count)
    assert masks.dtype == np.int8
    # The reference: each env's games dealt by new_game and played by apply().
    seeds = [random.Random(11 + i) for i in range(3)]
    states = [tt.new_game(players, seed=11 + i, **options) for i in range(3)]
    encoding = ObservationEncoding(states[0])
    rng = random.Random(5)
    finished = 0
    refreshes = 0
    refresh = envs.action_count - 2
    for _ in range(250):
        for env, state in enumerate(states):
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            assert np.array_equal(obs[env], encoding.encode(view))
            assert np.array_equal(masks[env], encoding.action_mask(view))
            assert infos["player"][env] == seat
            assert envs.simulators[env].state() == state
        actions = choose(masks, rng)
        refreshes += actions.count(refresh)
        obs, rewards, terminations, truncations, infos = envs.step(np.array(actions))
        masks = infos["action_mask"]
        seat_rewards = infos["rewards"]
        assert rewards.shape == (3,)
        assert seat_rewards.shape == (3, len(states[0].players))
        assert not truncations.any()
        for env, action in enumerate(actions):
            mover = states[env].current_player
            after = states[env].apply(states[env].action_space.decode(action))
            if after.is_over:
                assert terminations[env]
                assert seat_rewards[env].tolist() == pytest.approx(_outcome_rewards(after))
                assert seat_rewards[env].sum() == pytest.approx(0.0, abs=1e-6)
                assert rewards[env] == seat_rewards[env][mover]  # the seat that just moved
                assert infos["final_scores"][env].tolist() == [s.total for s in after.scores()]
                finished += 1
                seed = seeds[env].getrandbits(63)
                assert infos["seed"][env] == seed
                after = tt.new_game(players, seed=seed, **options)  # the same-step autoreset
            else:
                assert not terminations[env]
                assert not seat_rewards[env].any()
                assert rewards[env] == 0
                assert not infos["final_scores"][env].any()
            states[env] = after
    assert finished >= 1
    return refreshes


def test_the_core_encoder_covers_the_base_game_and_views_encode_the_rest() -> None:
    envs = TrickyTreatsVectorEnv(2, components=_SIX_KIDS)
    envs.reset(seed=1)
    assert not any(sim.fast for sim in envs.simulators)
    envs = TrickyTreatsVectorEnv(2, players=3)
    envs.reset(seed=1)
    assert all(sim.fast for sim in envs.simulators)


def test_seeds_deal_the_games_of_new_game() -> None:
    envs = TrickyTreatsVectorEnv(4, players=2)
    envs.reset(seed=100)
    assert [s.state() for s in envs.simulators] == [tt.new_game(2, seed=100 + i) for i in range(4)]
    assert envs.seeds.tolist() == [100, 101, 102, 103]
    envs.reset(seed=[7, 7, 9, 1])
    assert [s.state() for s in envs.simulators] == [tt.new_game(2, seed=s) for s in (7, 7, 9, 1)]
    first, _ = envs.reset(seed=3)
    first = first.copy()
    again, _ = TrickyTreatsVectorEnv(4, players=2).reset(seed=3)
    assert np.array_equal(first, again)
    envs.reset()  # fresh seeds from the system: each still a game of new_game
    assert [s.state() for s in envs.simulators] == [
        tt.new_game(2, seed=int(seed)) for seed in envs.seeds
    ]
    with pytest.raises(tt.ConfigurationError, match="reset needs 4 seeds"):
        envs.reset(seed=[1, 2])


SEEDS = [0, 1, 2**63 - 1, *range(5, 40, 7)]
"""Seeds the env takes (below 2**63); ``tests/test_base_deals.py`` deals up to 2**128 - 1."""


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_one_dealer_deals_seed_after_seed_the_games_of_new_game(
    players: int, options: dict[str, Any]
) -> None:
    """The env's dealer checks its arguments once; each game is still ``new_game``'s.

    And the game a record of its configuration starts (``start_game``, which resolves the
    variants by name again), so that reusing the dealer carries nothing from game to game:
    the same env dealt again, the seeds in another order.
    """
    envs = TrickyTreatsVectorEnv(len(SEEDS), players=players, **options)
    components = options.get("components")
    for seeds in (SEEDS, SEEDS[::-1]):
        envs.reset(seed=seeds)
        for seed, sim in zip(seeds, envs.simulators, strict=True):
            game = sim.state()
            assert game == tt.new_game(players, seed=seed, **options)
            assert game == start_game(
                game.config, components, custom_components=components is not None
            )
    for bad in (-1, 2**128, True, 1.0):
        with pytest.raises(tt.ConfigurationError, match="seed"):
            envs.reset(seed=[bad, *SEEDS[1:]])  # type: ignore[list-item]


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_the_first_states_are_those_of_new_game_and_play_its_game(
    players: int, options: dict[str, Any]
) -> None:
    """The env deals its games straight into the core where it can (no first state is
    built), which changes nothing: each first state is ``new_game``'s, on the core unless
    the core does not cover the configuration (6 kids), and it plays the game
    ``Simulator(new_game(...))`` plays, move by move."""
    envs = TrickyTreatsVectorEnv(4, players=players, **options)
    rng = random.Random(players)
    for round_ in range(3):
        seeds = [4 * round_ + i for i in range(4)]
        envs.reset(seed=seeds)
        for seed, sim in zip(seeds, envs.simulators, strict=True):
            game = tt.new_game(players, seed=seed, **options)
            assert sim.fast is (game.setup.rules.kids_per_player <= 5)  # docs/simulator.md
            first = sim.clone()
            assert first.state() == game
            reference = tt.Simulator(game)
            while not first.is_over:
                codes = first.legal_codes()
                assert codes == reference.legal_codes()
                code = rng.choice(codes)
                first.play(code)
                reference.play(code)
            assert first.state() == reference.state()
            assert first.scores() == reference.scores()


def test_auto_reset_deals_the_next_game_in_the_step_that_ends_one() -> None:
    envs = TrickyTreatsVectorEnv(2, players=2)
    obs, infos = envs.reset(seed=4)
    rng = random.Random(2)
    for _ in range(envs.max_game_length * 2):
        before = [sim.clone() for sim in envs.simulators]
        movers = infos["player"].copy()
        actions = _random_actions(infos["action_mask"], rng)
        obs, rewards, terminations, _, infos = envs.step(actions)
        if terminations.any():
            env = int(np.flatnonzero(terminations)[0])
            before[env].play(actions[env])
            assert before[env].is_over
            seat_rewards = _outcome_rewards(before[env].state())
            assert infos["rewards"][env].tolist() == pytest.approx(seat_rewards)
            assert rewards[env] == pytest.approx(seat_rewards[movers[env]])
            fresh = envs.simulators[env]
            assert fresh.turn == 0
            assert not fresh.is_over
            assert fresh.state() == tt.new_game(2, seed=int(infos["seed"][env]))
            assert obs[env][envs.encoding.section("turn").start] == 0
            return
    pytest.fail("no game ended")  # pragma: no cover


@pytest.mark.parametrize(
    ("actions", "error", "message"),
    [
        ([0, 10_000], tt.InvalidActionError, "env 1"),
        ([0, -1], tt.InvalidActionError, "env 1"),
        ([0.5, 1.0], tt.InvalidActionError, "whole numbers"),
        ([0], tt.InvalidActionError, "2 action codes"),
        (None, tt.IllegalActionError, "env 0"),  # a code of the space, not legal now
    ],
)
def test_bad_actions_raise_the_library_errors_and_no_game_moves(
    actions: list[Any] | None, error: type[Exception], message: str
) -> None:
    envs = TrickyTreatsVectorEnv(2, players=2)
    obs, infos = envs.reset(seed=8)
    if actions is None:
        illegal = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
        legal = int(np.flatnonzero(infos["action_mask"][1])[0])
        actions = [illegal, legal]
    before = [sim.state() for sim in envs.simulators]
    kept = obs.copy(), infos["action_mask"].copy()
    with pytest.raises(error, match=message):
        envs.step(np.array(actions))
    assert [sim.state() for sim in envs.simulators] == before
    assert np.array_equal(obs, kept[0])
    assert np.array_equal(infos["action_mask"], kept[1])


def test_step_before_reset_and_bad_sizes_are_refused() -> None:
    with pytest.raises(tt.InvalidActionError, match="before reset"):
        TrickyTreatsVectorEnv(2).step([0, 0])
    with pytest.raises(tt.ConfigurationError, match="num_envs"):
        TrickyTreatsVectorEnv(0)
    with pytest.raises(tt.ConfigurationError):
        TrickyTreatsVectorEnv(2, variants=["no-such-variant"])


def test_seeds_outside_64_bits_are_refused_and_numpy_ints_taken() -> None:
    envs = TrickyTreatsVectorEnv(2)
    with pytest.raises(tt.ConfigurationError, match=r"env 0: .* 2\*\*63 - 1"):
        envs.reset(seed=[1 << 63, 0])
    envs.reset(seed=np.int64(5))
    assert envs.seeds.tolist() == [5, 6]
    envs.reset(seed=np.array([7, 2**63 - 1], np.uint64))
    assert envs.seeds.tolist() == [7, 2**63 - 1]


# -- refused resets and sizes (issue 46, items 1, 3 and 11) ----------------------------------------


def _kept(envs: TrickyTreatsVectorEnv) -> tuple[Any, ...]:
    """What the env shows and plays: its arrays, its games' states and seeds."""
    return (
        envs.observations.copy(),
        envs.action_masks.copy(),
        envs.current_players.copy(),
        envs.seeds.copy(),
        [sim.state() for sim in envs.simulators],
    )


def _same(before: tuple[Any, ...], after: tuple[Any, ...]) -> bool:
    arrays_equal = all(np.array_equal(a, b) for a, b in zip(before[:4], after[:4], strict=True))
    return arrays_equal and before[4] == after[4]


BAD_SEEDS: tuple[tuple[Any, str], ...] = (
    ([500, -5], r"env 1: a seed must be a whole number from 0 to 2\*\*63 - 1, got -5$"),
    ([1.7, 2.2], "env 0: a seed must be a whole number .* got 1.7$"),
    ([np.nan, 1], "env 0: .* got nan$"),
    ([True, 1], "env 0: .* got True$"),
    ([1, np.True_], "env 1: .* got np.True_$"),
    (np.array([1.0, 2.0]), "env 0: .* got np.float64"),
    ([1, 2, 3], "reset needs 2 seeds, one per env, got 3$"),
    (1.5, r"reset takes a seed \(a whole number\), 2 seeds .* got 1.5$"),
    ("abc", "got 'abc'$"),
    (b"abc", "got b'abc'$"),
    ({"a": 1}, "got {'a': 1}$"),
    (True, "got True$"),
    (iter([1, 2]), "got <list_iterator object"),
    (-1, r"s must be a whole number from 0 to 2\*\*63 - 2 for 2 envs, got -1$"),
    (2**63 - 1, r"s must be a whole number from 0 to 2\*\*63 - 2 for 2 envs"),
    (10**5000, "got <int object>$"),
    ([10**5000, 1], "env 0: .* got <int object>$"),
)


@pytest.mark.parametrize(("seed", "message"), BAD_SEEDS, ids=[brief(s, 30) for s, _ in BAD_SEEDS])
def test_a_bad_seed_is_refused_shortly_and_the_env_is_unchanged(seed: Any, message: str) -> None:
    """Issue 46, items 1 and 3: checked before any game is dealt; the old games go on."""
    envs = TrickyTreatsVectorEnv(2, players=2)
    envs.reset(seed=11)
    before = _kept(envs)
    with pytest.raises(tt.ConfigurationError, match=message) as refused:
        envs.reset(seed=seed)
    assert len(str(refused.value)) < 200
    assert _same(before, _kept(envs))
    legal = [int(np.flatnonzero(row)[0]) for row in before[1]]
    envs.step(np.array(legal))  # legal in the games the env still shows: they are played
    for sim, state, code in zip(envs.simulators, before[4], legal, strict=True):
        assert sim.state() == state.apply(state.action_space.decode(code))


def test_a_refused_reset_leaves_the_games_it_refused_to_replace() -> None:
    """Issue 46, item 1: env 0's game was replaced before env 1's seed was refused."""
    envs = TrickyTreatsVectorEnv(2, players=2)
    envs.reset(seed=11)
    before = _kept(envs)
    with pytest.raises(tt.ConfigurationError):
        envs.reset(seed=[500, -5])
    assert _same(before, _kept(envs))
    legal = [int(np.flatnonzero(row)[0]) for row in before[1]]
    envs.step(np.array(legal))
    for sim, state, code in zip(envs.simulators, before[4], legal, strict=True):
        assert sim.state() == state.apply(state.action_space.decode(code))


def test_many_bad_seeds_are_refused_naming_the_first_only() -> None:
    envs = TrickyTreatsVectorEnv(3)
    with pytest.raises(tt.ConfigurationError) as refused:
        envs.reset(seed=[-1] * 20_000)
    assert "reset needs 3 seeds" in str(refused.value)
    with pytest.raises(tt.ConfigurationError) as refused:
        envs.reset(seed=[1, "x" * 10**6, -1])  # type: ignore[list-item]
    assert str(refused.value).startswith("env 1: ")
    assert len(str(refused.value)) < 200


def test_the_number_of_envs_has_an_upper_bound() -> None:
    """Issue 46, item 11: ``TrickyTreatsVectorEnv(10**12)`` raised ``MemoryError``."""
    with pytest.raises(tt.ConfigurationError, match="num_envs"):
        TrickyTreatsVectorEnv(10**12)
    from tricky_treats.adapters.vector import MAX_ENVS

    for count in (10**12, MAX_ENVS + 1, 10**5000):
        with pytest.raises(tt.ConfigurationError, match=f"from 1 to {MAX_ENVS:,}") as refused:
            TrickyTreatsVectorEnv(count)
        assert len(str(refused.value)) < 120


def test_the_gymnasium_spaces_hold_the_observations_and_actions() -> None:
    pytest.importorskip("gymnasium", reason=install_hint("pettingzoo"))
    envs = TrickyTreatsVectorEnv(3, players=3)
    obs, infos = envs.reset(seed=2)
    assert envs.observation_space.shape == obs.shape
    assert envs.single_action_space.n == envs.action_count
    rng = random.Random(1)
    for _ in range(60):
        assert envs.observation_space.contains(obs)
        actions = np.array(_random_actions(infos["action_mask"], rng))
        assert envs.action_space.contains(actions)
        obs, _, _, _, infos = envs.step(actions)


def test_import_tricky_treats_imports_no_numpy() -> None:
    code = (
        "import sys, tricky_treats as tt\n"
        "sim = tt.Simulator.new_game(2, seed=1)\n"  # the compact core, loaded and played
        "sim.play(sim.legal_codes()[0])\n"
        "assert sim.fast\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- numpy values as actions (issue 46, item 10) ---------------------------------------------------

BY_CORE_AND_BY_RULES: tuple[tuple[int, dict[str, Any]], ...] = (
    (2, {}),
    (2, {"components": _SIX_KIDS}),
)
"""A game the core plays and one the rules play (six kids): both must take the same values."""


@pytest.mark.parametrize(("players", "options"), BY_CORE_AND_BY_RULES)
@pytest.mark.parametrize(
    "as_code", [np.int64, np.int32, np.uint8, np.array], ids=lambda f: f.__name__
)
def test_a_numpy_integer_plays_as_its_code(
    players: int, options: dict[str, Any], as_code: Callable[[int], Any]
) -> None:
    """RL code passes ``np.argmax(...)``: a numpy integer (or a 0-d array) is its code."""
    game = tt.new_game(players, seed=4, **options)
    sim, reference = tt.Simulator(game), tt.Simulator(game)
    assert sim.fast is (not options)
    for _ in range(12):
        code = reference.legal_codes()[-1]
        sim.play(as_code(code))
        reference.play(code)
        assert sim.state() == reference.state()


NO_CODES: dict[str, Any] = {
    "np.True_": np.True_,
    "np.False_": np.False_,
    "np.ma.masked": np.ma.masked,
    "a masked 0": np.ma.masked_array(0, mask=True),
    "np.float64(1.0)": np.float64(1.0),
    "np.array([0])": np.array([0]),
}


@pytest.mark.parametrize(("players", "options"), BY_CORE_AND_BY_RULES)
@pytest.mark.parametrize("value", NO_CODES.values(), ids=NO_CODES.keys())
def test_numpy_values_that_are_no_code_are_refused(
    players: int, options: dict[str, Any], value: Any
) -> None:
    """A bool is no code (numpy's neither), nor a masked value (whatever lies under it)."""
    sim = tt.Simulator(tt.new_game(players, seed=4, **options))
    before = sim.state()
    with pytest.raises(tt.InvalidActionError, match="action code must be a whole number") as e:
        sim.play(value)
    assert ("masked value" in str(e.value)) is np.ma.is_masked(value)
    assert sim.state() == before


def _refused(envs: TrickyTreatsVectorEnv, actions: Any) -> str:
    """The message ``step(actions)`` is refused with; no game moved."""
    before = [sim.state() for sim in envs.simulators]
    kept = envs.observations.copy(), envs.action_masks.copy()
    with pytest.raises(tt.InvalidActionError) as refused:
        envs.step(actions)
    assert [sim.state() for sim in envs.simulators] == before
    assert np.array_equal(envs.observations, kept[0])
    assert np.array_equal(envs.action_masks, kept[1])
    return str(refused.value)


def test_bool_actions_are_refused_alike_by_the_core_and_by_the_rules() -> None:
    """A bool array is no array of codes: refused with the env's prefix on both paths."""
    for players, options in BY_CORE_AND_BY_RULES:
        envs = TrickyTreatsVectorEnv(2, players=players, **options)
        envs.reset(seed=3)
        assert envs.simulators[0].fast is (not options)  # the core's path, the rules'
        codes = f"action code must be a whole number from 0 to {envs.action_count - 1}"
        assert _refused(envs, np.array([True, False])) == f"env 0: {codes}, got np.True_"
        assert _refused(envs, [0, True]) == f"env 1: {codes}, got True"  # np.asarray: [0, 1]


@pytest.mark.parametrize(("players", "options"), BY_CORE_AND_BY_RULES)
def test_a_masked_action_is_refused_and_an_unmasked_one_played(
    players: int, options: dict[str, Any]
) -> None:
    """``np.asarray`` reads the value under a mask: the env refuses it instead."""
    envs = TrickyTreatsVectorEnv(2, players=players, **options)
    _, infos = envs.reset(seed=5)
    legal = [int(np.flatnonzero(row)[0]) for row in infos["action_mask"]]
    message = _refused(envs, np.ma.masked_array(legal, mask=[False, True]))
    assert message.startswith("env 1: action code must be a whole number")
    assert message.endswith("(a masked value)")
    reference = [sim.clone() for sim in envs.simulators]
    envs.step(np.ma.masked_array(legal, mask=[False, False]))  # nothing masked: its values
    for sim, code in zip(reference, legal, strict=True):
        sim.play(code)
    assert [sim.state() for sim in envs.simulators] == [sim.state() for sim in reference]

"""The learned value policy (issue 35, item 2): its features, the agent, the shipped weights
and the trainer that plays self-play games on the vector environment."""

from __future__ import annotations

import math
import random
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

import tricky_treats as tt
from tests.requirements import engine_hint, needs_extra
from tricky_treats.simulation import simulate

pytestmark = needs_extra("policy")


def _states(seed: int, players: int, **options: object) -> Iterator[tt.GameState]:
    """The states of a game played at random from ``seed``, the first and the last included."""
    state = tt.new_game(players, seed=seed, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    yield state
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        yield state


def test_the_features_read_only_what_the_player_sees() -> None:
    """Redrawing the hidden information (deck, other secret tiles) changes no feature, neither
    of the state nor of any afterstate: so the trainer's choices on the true state are the
    agent's choices from its view."""
    from tricky_treats.adapters.policy import afterstate_features

    checked = redrawn = 0
    for seed, players, variants in [(1, 2, ()), (2, 3, ("family",)), (3, 4, ())]:
        for index, state in enumerate(_states(seed, players, variants=variants)):
            if index % 4 or state.is_over:
                continue
            mover = state.current_player
            assert mover is not None
            for seat in range(players):
                sample = tt.determinize(state.view(seat), random.Random(index))
                redrawn += sample.setup.deck != state.setup.deck
                assert afterstate_features(sample, seat) == afterstate_features(state, seat)
            sample = tt.determinize(state.view(mover), random.Random(index + 1))
            for action in state.legal_actions():
                expected = afterstate_features(state.apply(action), mover)
                assert afterstate_features(sample.apply(action), mover) == expected
                checked += 1
    assert checked > 300
    assert redrawn > 30  # the samples did redraw the deck


def test_the_features_see_what_the_player_sees() -> None:
    """The counter-check: the player's own secret tile and a visit change the features."""
    from tricky_treats.adapters.policy import FEATURE_NAMES, afterstate_features

    state = next(s for s in _states(4, 2) if s.turn >= 14 and not s.is_over)
    seat = state.current_player
    assert seat is not None
    features = dict(zip(FEATURE_NAMES, afterstate_features(state, seat), strict=True))
    own = state.setup.secret_tiles[seat]
    others = [t for t in state.setup.components.trick_tiles if t.id != own.id]
    secrets = list(state.setup.secret_tiles)
    secrets[seat] = others[0]
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], secret_tile=others[0])
    changed = attrs.evolve(
        state,
        setup=attrs.evolve(state.setup, secret_tiles=tuple(secrets)),
        players=tuple(players),
    )
    swapped = dict(zip(FEATURE_NAMES, afterstate_features(changed, seat), strict=True))
    seen = ("own_points", "own_tile_progress", "own_treat_value", "own_visitable_value")
    assert any(features[name] != swapped[name] for name in seen)
    assert all(features[name] == swapped[name] for name in FEATURE_NAMES if "leader" in name)
    visits = [a for a in state.legal_actions() if isinstance(a, tt.VisitHouse)]
    assert visits, "the game of seed 4 offers a visit on turn 14"
    after = dict(zip(FEATURE_NAMES, afterstate_features(state.apply(visits[0]), seat), strict=True))
    assert after["own_footprints"] == pytest.approx(features["own_footprints"] - 0.1)
    assert after["own_visitable_houses"] < features["own_visitable_houses"]


def test_the_agent_plays_the_afterstate_of_highest_value() -> None:
    import numpy as np

    from tricky_treats.adapters.policy import FEATURE_NAMES, ValuePolicyAgent, afterstate_features

    rng = np.random.default_rng(5)
    for trial in range(3):
        weights = rng.standard_normal(len(FEATURE_NAMES))
        agent = ValuePolicyAgent(weights)
        for index, state in enumerate(_states(10 + trial, 2)):
            if index % 5 or state.is_over:
                continue
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            values = [math.fsum(weights * afterstate_features(state.apply(a), seat)) for a in legal]
            best = max(values)
            # The first of the highest; values within rounding of the best are ties.
            expected = next(a for a, v in zip(legal, values, strict=True) if v >= best - 1e-9)
            assert agent.choose(state.view(seat), legal, random.Random(1)) == expected
            assert agent.choose(state.view(seat), legal, random.Random(2)) == expected
            assert agent.value(state.apply(expected), seat) == pytest.approx(max(values))


def test_the_shipped_policy_is_the_policy_agent_of_every_command() -> None:
    import numpy as np

    from tricky_treats.adapters.policy import FEATURE_NAMES, ValuePolicyAgent
    from tricky_treats.adapters.training import greedy_weights
    from tricky_treats.agents import make_agent
    from tricky_treats.ladder import make_bot

    shipped = ValuePolicyAgent.shipped()
    assert shipped.weights.shape == (len(FEATURE_NAMES),)
    assert not np.array_equal(shipped.weights, greedy_weights())  # trained, not the start
    for agent in (make_agent("policy"), make_bot("policy")):
        assert isinstance(agent, ValuePolicyAgent)
        assert np.array_equal(agent.weights, shipped.weights)
    games = list(simulate(2, ["policy", "greedy"], seed=3, backend="inline"))
    assert len(games) == 2


def test_a_policy_file_round_trips_and_bad_files_are_refused(tmp_path: Path) -> None:
    import numpy as np

    from tricky_treats.adapters.policy import (
        FEATURE_NAMES,
        LinearPolicyAgent,
        ValuePolicyAgent,
        load_policy,
    )

    weights = np.arange(len(FEATURE_NAMES), dtype=float)
    path = tmp_path / "value.npz"
    ValuePolicyAgent(weights).save(path, about="a test")
    loaded = load_policy(path)
    assert isinstance(loaded, ValuePolicyAgent)
    assert np.array_equal(loaded.weights, weights)
    assert np.array_equal(ValuePolicyAgent.load(path).weights, weights)
    with pytest.raises(tt.ConfigurationError, match="holds a value policy"):
        LinearPolicyAgent.load(path)

    def write(name: str, **fields: object) -> Path:
        target = tmp_path / name
        base: dict[str, object] = {
            "kind": np.array("afterstate-value"),
            "weights": weights,
            "feature_names": np.array(FEATURE_NAMES),
            "features_version": np.array(1),
        }
        base.update(fields)
        np.savez(target, **{k: v for k, v in base.items() if v is not None})  # type: ignore[arg-type]
        return target

    with pytest.raises(tt.ConfigurationError, match="features version 7"):
        load_policy(write("version.npz", features_version=np.array(7)))
    with pytest.raises(tt.ConfigurationError, match="features version 1"):
        load_policy(write("names.npz", feature_names=np.array(FEATURE_NAMES[::-1])))
    with pytest.raises(tt.ConfigurationError, match=r"lacks \['weights'\]"):
        load_policy(write("missing.npz", weights=None))
    with pytest.raises(tt.ConfigurationError, match="unknown kind 'tree'"):
        load_policy(write("kind.npz", kind=np.array("tree")))
    with pytest.raises(tt.ConfigurationError, match=f"{len(FEATURE_NAMES)} finite weights"):
        load_policy(write("short.npz", weights=weights[:3]))
    with pytest.raises(tt.ConfigurationError, match="weights must be finite numbers"):
        ValuePolicyAgent(np.full(len(FEATURE_NAMES), math.nan))
    (tmp_path / "junk.npz").write_bytes(b"not a policy")
    with pytest.raises(tt.ConfigurationError, match=r"junk.npz: not a .npz file"):
        load_policy(tmp_path / "junk.npz")
    with pytest.raises(tt.ConfigurationError, match="cannot read the policy file"):
        load_policy(tmp_path / "absent.npz")
    linear = tmp_path / "linear.npz"
    from tricky_treats.adapters.observation import OBSERVATION_VERSION

    np.savez(
        linear,
        weights=np.zeros((39, 881)),
        bias=np.zeros(39),
        players=2,
        observation_version=OBSERVATION_VERSION,
    )
    assert isinstance(load_policy(linear), LinearPolicyAgent)
    with pytest.raises(tt.ConfigurationError, match="holds a linear policy"):
        ValuePolicyAgent.load(linear)


def test_without_numpy_import_works_and_the_policy_agent_says_what_to_install() -> None:
    script = textwrap.dedent(
        """
        import sys

        class NoNumpy:
            def find_spec(self, name, path=None, target=None):
                if name == "numpy" or name.startswith("numpy."):
                    raise ImportError("numpy is blocked for this test")
                return None

        sys.meta_path.insert(0, NoNumpy())
        import tricky_treats as tt
        from tricky_treats.ladder import make_bot

        assert "numpy" not in sys.modules
        from tricky_treats.agents import make_agent

        for make in (make_agent, make_bot):
            try:
                make("policy")
            except tt.ConfigurationError as exc:
                print(exc)
            else:
                raise SystemExit("no error without numpy")
        print(make_agent("greedy"))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    lines = result.stdout.splitlines()
    hint = re.compile("the policy agent needs numpy: " + engine_hint("policy").pattern)
    assert all(hint.fullmatch(line) for line in lines[:2]), lines
    assert lines[2] == "GreedyAgent()"


def test_the_trainer_plays_the_games_of_the_rules() -> None:
    """``play_games`` on the vector env plays the game the rules play for the same moves."""
    import numpy as np

    from tricky_treats.adapters.policy import FEATURE_NAMES, ValuePolicyAgent
    from tricky_treats.adapters.training import play_games
    from tricky_treats.scoring import score_sheets

    weights = np.random.default_rng(3).standard_normal(len(FEATURE_NAMES))
    seeds = [21, 22, 23]
    learners = [(0,), (1,), (0, 1)]
    results = play_games(weights, seeds, learners, margin=0.5)
    agent = ValuePolicyAgent(weights)
    for seed, seats, result in zip(seeds, learners, results, strict=True):
        state = tt.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            if seat in seats:
                action = agent._best(state, seat, legal)
            else:
                action = tt.GreedyAgent().choose(state.view(seat), legal, rng)
            state = state.apply(action)
        winners = state.winners()
        totals = [sheet.total for sheet in score_sheets(state)]
        assert result.seats == seats
        for seat, score, value in zip(seats, result.scores, result.returns, strict=True):
            assert score == (1.0 / len(winners) if seat in winners else 0.0)
            won = 1.0 if winners == (seat,) else (-1.0 if seat not in winners else 0.0)
            margin = totals[seat] - totals[1 - seat]
            assert value == pytest.approx(won + 0.5 * math.tanh(margin / 20))
        assert all(not g.any() for g in result.gradients)  # nothing sampled at temperature 0


def test_sampled_games_carry_the_gradient_of_their_moves() -> None:
    import numpy as np

    from tricky_treats.adapters.training import greedy_weights, play_games

    results = play_games(greedy_weights(), [5, 6], [(0, 1), (0,)], temperature=10.0)
    assert [len(r.gradients) for r in results] == [2, 1]
    assert all(np.isfinite(g).all() and g.any() for r in results for g in r.gradients)
    again = play_games(greedy_weights(), [5, 6], [(0, 1), (0,)], temperature=10.0)
    assert [r.scores for r in again] == [r.scores for r in results]


def test_training_is_reproducible_whatever_the_processes() -> None:
    import numpy as np

    from tricky_treats.adapters.training import TrainingConfig, greedy_weights, train

    config = TrainingConfig(batches=2, games=4, validate_every=1, validation_games=2)
    first = train(config)
    assert np.array_equal(train(config).weights, first.weights)
    assert np.array_equal(train(attrs.evolve(config, jobs=2)).weights, first.weights)
    assert not np.array_equal(first.weights, greedy_weights())  # it learned something
    assert [batch for batch, _ in first.history] == [1, 2]
    with pytest.raises(tt.ConfigurationError, match="games must be an even number"):
        TrainingConfig(games=3)
    with pytest.raises(tt.ConfigurationError, match="temperature must be above 0"):
        TrainingConfig(temperature=0.0)
    with pytest.raises(tt.ConfigurationError, match="averaging must be from 0 to below 1"):
        TrainingConfig(averaging=1.0)


def test_the_training_command_writes_a_policy_the_ladder_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tricky_treats.adapters.policy import ValuePolicyAgent, load_policy
    from tricky_treats.adapters.training import main
    from tricky_treats.ladder import play_ladder

    output = tmp_path / "policy.npz"
    argv = ["--output", str(output), "--batches", "1", "--games", "2", "--validation-games", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("training with TrainingConfig(seed=0, batches=1")
    assert f"wrote {output}: python -m tricky_treats.adapters.training" in out
    assert isinstance(load_policy(output), ValuePolicyAgent)
    games = play_ladder(["greedy", f"policy:{output}"], games=2, seed=1)
    assert len(games) == 2
    with pytest.raises(SystemExit):
        main(["--output", str(output), "--games", "3"])
    assert "games must be an even number" in capsys.readouterr().err


def test_the_shipped_policy_plays_any_player_count_and_variant() -> None:
    """Trained on 2 players, it values 3 and 4-player games by the leading opponent."""
    from tricky_treats.adapters.policy import ValuePolicyAgent

    policy = ValuePolicyAgent.shipped()
    for players, variants in [(3, ("family",)), (4, ())]:
        game = tt.new_game(players, seed=players, variants=variants)
        agents: list[tt.Agent] = [policy, *[tt.GreedyAgent()] * (players - 1)]
        final = tt.play_game(game, agents, seed=players)[-1]
        assert final.is_over
        assert len(final.history) > 4 * players  # it played a whole game, not a pass or two

"""The bot ladder: round-robin games, Elo ratings with intervals, and its command."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

import tricky_treats as tt
from tests.requirements import install_hint, needs_extra
from tricky_treats.cli import main
from tricky_treats.ladder import LadderGame, play_ladder, rate

EXAMPLES = Path(__file__).parent.parent / "examples"


def _games(a: str, b: str, a_scores: list[float]) -> list[LadderGame]:
    return [LadderGame((a, b), k, s, (1, 1), (0.0, 0.0)) for k, s in enumerate(a_scores)]


def test_two_bots_are_rated_by_their_score_with_one_drawn_game_as_prior() -> None:
    # 3 wins of 4, plus the prior's drawn game: odds of 3.5 to 1.5.
    ratings = rate(_games("b", "a", [0, 0, 0, 1]), anchor="b", resamples=50)
    assert [r.bot for r in ratings] == ["a", "b"]
    assert ratings[0].elo == pytest.approx(400 * math.log10(3.5 / 1.5))
    assert ratings[1].elo == 0.0
    assert ratings[0].score == pytest.approx(0.75)
    assert ratings[0].low <= ratings[0].elo <= ratings[0].high
    assert ratings[0].low < ratings[0].high  # the resamples differ


def test_a_bot_that_won_everything_has_a_finite_rating_and_order_is_kept() -> None:
    games = (
        _games("strong", "middle", [1.0] * 6)
        + _games("middle", "weak", [1.0] * 5 + [0.5])
        + _games("strong", "weak", [1.0] * 6)
    )
    ratings = rate(games, anchor="weak", resamples=100, seed=3)
    assert [r.bot for r in ratings] == ["strong", "middle", "weak"]
    assert all(math.isfinite(r.elo) for r in ratings)
    assert ratings[1].score == pytest.approx((6 * 0 + 5.5) / 12)
    assert rate(games, anchor="weak", resamples=100, seed=3) == ratings  # seeded
    with pytest.raises(tt.ConfigurationError, match="anchor 'nobody'"):
        rate(games, anchor="nobody")


def test_a_ladder_plays_every_deal_with_both_seatings_and_repeats_itself() -> None:
    games = play_ladder(["random", "greedy", "search:5"], games=2, seed=40)
    assert len(games) == 6
    assert [g.bots for g in games[:2]] == [("random", "greedy"), ("greedy", "random")]
    assert {g.seed for g in games} == {40}
    assert all(g.moves[0] > 0 and g.moves[1] > 0 for g in games)
    again = play_ladder(["random", "greedy", "search:5"], games=2, seed=40)
    assert [(g.bots, g.score, g.moves) for g in again] == [
        (g.bots, g.score, g.moves) for g in games
    ]
    # The score is the result of the game the seed deals and the bots play.
    final = tt.play_game(tt.new_game(2, seed=40), [tt.RandomAgent(), tt.GreedyAgent()], seed=40)[-1]
    winners = final.winners()
    assert games[0].score == (1.0 if 0 in winners else 0.0) / len(winners)


def test_a_ladder_refuses_what_it_cannot_play() -> None:
    with pytest.raises(tt.ConfigurationError, match="at least 2 different bots"):
        play_ladder(["greedy", "greedy"], games=2)
    with pytest.raises(tt.ConfigurationError, match="even"):
        play_ladder(["greedy", "random"], games=3)
    with pytest.raises(tt.ConfigurationError, match="no agent 'wizard'"):
        play_ladder(["greedy", "wizard"], games=2)


def test_the_ladder_command_prints_ratings_intervals_and_time_per_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(
        ["ladder", "--bots", "random,greedy", "--games", "4", "--resamples", "20", "--seed", "5"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "ladder: 2 bots, 4 games per pair (4 games)" in out
    assert "Elo ratings (random = 0)" in out
    rows = [line for line in out.splitlines() if "greedy" in line and "%" in line]
    assert len(rows) == 1
    assert "ms per move" in out
    assert main(["ladder", "--bots", "random,wizard", "--games", "2"]) == 2
    assert "no agent 'wizard'" in capsys.readouterr().err


needs_numpy = needs_extra("pettingzoo")  # the policy bot's numpy


@needs_numpy
def test_the_trainer_writes_a_policy_the_ladder_plays(tmp_path: Path) -> None:
    # The trainer plays in the PettingZoo environment.
    pytest.importorskip("pettingzoo", reason=install_hint("pettingzoo"))
    output = tmp_path / "policy.npz"
    result = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "train_policy.py"),
            *("--episodes", "40", "--batch", "10", "--eval-games", "8"),
            *("--output", str(output)),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("before training: ")
    assert lines[-2].startswith("after 40 games: ")
    assert lines[-1].startswith(f"wrote {output}; ")
    games = play_ladder(["random", f"policy:{output}"], games=2, seed=1)
    assert len(games) == 2


@needs_numpy
def test_the_policy_bot_plays_the_legal_action_it_scores_highest(tmp_path: Path) -> None:
    import numpy as np

    from tricky_treats.adapters.observation import OBSERVATION_VERSION
    from tricky_treats.adapters.policy import LinearPolicyAgent

    game = tt.new_game(2, seed=9)
    space = game.action_space
    weights = np.zeros((space.size, 1))
    bias = np.zeros(space.size)
    refresh = space.encode(tt.RefreshMarket())
    bias[refresh] = 1.0
    path = tmp_path / "p.npz"
    encoding_size = LinearPolicyAgent(weights, bias, 2)  # the shape is checked on first use
    with pytest.raises(tt.ConfigurationError, match="weights have shape"):
        encoding_size.choose(game.view(0), game.legal_actions(), None)  # type: ignore[arg-type]
    from tricky_treats.adapters.observation import ObservationEncoding

    size = ObservationEncoding(game).size
    np.savez(
        path,
        weights=np.zeros((space.size, size)),
        bias=bias,
        players=2,
        observation_version=OBSERVATION_VERSION,
    )
    agent = LinearPolicyAgent.load(path)
    legal = game.legal_actions()
    chosen = agent.choose(game.view(0), legal, None)  # type: ignore[arg-type]
    assert chosen == (tt.RefreshMarket() if tt.RefreshMarket() in legal else legal[0])
    np.savez(path, weights=weights, bias=bias, players=2, observation_version=99)
    with pytest.raises(tt.ConfigurationError, match="observation version 99"):
        LinearPolicyAgent.load(path)
    with pytest.raises(tt.ConfigurationError, match="cannot read the policy file"):
        LinearPolicyAgent.load(tmp_path / "missing.npz")


def test_openspiel_ismcts_through_the_adapter_plays_on_the_ladder() -> None:
    pytest.importorskip("pyspiel", reason=install_hint("openspiel"))
    games = play_ladder(["random", "ismcts:2"], games=2, seed=3)
    assert [g.bots for g in games] == [("random", "ismcts:2"), ("ismcts:2", "random")]
    assert all(g.seconds[g.bots.index("ismcts:2")] > 0 for g in games)


@pytest.mark.parametrize("game", ["hack-trick", "candy-chaser", "tricks-and-treats"])
def test_a_candy_game_has_a_ladder_of_its_own(game: str) -> None:
    package = {"hack-trick": "hack_trick", "candy-chaser": "candy_chaser"}.get(
        game, "tricks_and_treats"
    )
    module = pytest.importorskip(package, reason=f"pip install -e examples/{game}")
    games = play_ladder(["random", "greedy"], games=2, seed=7, game=game)
    assert [g.bots for g in games] == [("random", "greedy"), ("greedy", "random")]
    assert all(sum(g.moves) > 0 for g in games)  # a random accusation may end it at once
    # Seat 0's score is the result of the 2-player game the seed deals and the bots play.
    from tricky_treats.protocol import play_match

    bots = [module.make_bot("random"), module.make_bot("greedy")]
    first = module.new_match(seed=7) if game == "hack-trick" else module.new_game(2, 7)
    assert games[0].score == play_match(first, bots, seed=7).returns()[0]
    again = play_ladder(["random", "greedy"], games=2, seed=7, game=game)
    assert [(g.score, g.moves) for g in again] == [(g.score, g.moves) for g in games]
    with pytest.raises(tt.ConfigurationError, match="no bot 'wizard'; choose random, greedy"):
        play_ladder(["greedy", "wizard"], games=2, game=game)


def test_the_ladder_command_rates_a_candy_games_bots(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("candy_chaser", reason="pip install -e examples/candy-chaser")
    args = ["ladder", "--game", "candy-chaser", "--bots", "random,greedy", "--games", "4"]
    assert main([*args, "--resamples", "20"]) == 0
    out = capsys.readouterr().out
    assert "2 players of candy-chaser" in out
    assert len([line for line in out.splitlines() if "greedy" in line and "%" in line]) == 1
    # The games are those installed (entry points), read when one is asked for, not by argparse.
    assert main(["ladder", "--game", "chess", "--bots", "random,greedy"]) == 2
    assert "no game 'chess'; choose tricky-treats, candy-chaser" in capsys.readouterr().err
    with pytest.raises(tt.ConfigurationError, match="no game 'chess'"):
        play_ladder(["random", "greedy"], games=2, game="chess")


def test_the_ladder_finds_the_games_their_distributions_declare() -> None:
    """Issue 44: the candy games declare themselves in ``tricky_treats.games``; the engine
    names none of them (``_candy_ladder`` once kept their names and packages)."""
    from tricky_treats.protocol.installed import installed_games, load_game

    games = {
        "hack-trick": "hack_trick",
        "candy-chaser": "candy_chaser",
        "tricks-and-treats": "tricks_and_treats",
    }
    for game, package in games.items():
        module = pytest.importorskip(package, reason=f"pip install -e examples/{game}")
        assert game in installed_games()
        entry = load_game(game)
        assert entry.make_bot is module.make_bot
        first = entry.deal(3)
        assert first.num_players == 2
        assert first == entry.deal(3) != entry.deal(4)  # the seed deals the game


def _declared(monkeypatch: pytest.MonkeyPatch, **targets: str) -> None:
    """Make ``tricky_treats.games`` hold ``targets`` alone (name: ``module:attribute``)."""
    import importlib.metadata

    from tricky_treats.protocol.installed import GAMES_GROUP

    points = [
        importlib.metadata.EntryPoint(name, value, GAMES_GROUP) for name, value in targets.items()
    ]
    real = importlib.metadata.entry_points

    def entry_points(**params: str) -> object:
        if params.get("group") == GAMES_GROUP:
            return points
        return real(**params)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)


def test_a_game_no_distribution_declares_is_refused_with_the_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _declared(monkeypatch, checkers="json:dumps")
    with pytest.raises(
        tt.ConfigurationError, match="no game 'chess'; choose tricky-treats, checkers"
    ):
        play_ladder(["random", "greedy"], games=2, game="chess")


def test_a_broken_declared_game_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _declared(monkeypatch, gone="no_such_module_anywhere:GAME", odd="json:dumps")
    with pytest.raises(tt.ConfigurationError, match=r"'gone' \(no_such_module_anywhere:GAME\) "):
        play_ladder(["random", "greedy"], games=2, game="gone")
    with pytest.raises(tt.ConfigurationError, match=r"'odd' .* is a function, not a "):
        play_ladder(["random", "greedy"], games=2, game="odd")

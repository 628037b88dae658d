"""The game protocol and the generic players and runner, on Tricky Treats through its adapter."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import redirect_stdout

import pytest

import tricky_treats as tt
from tricky_treats.protocol import (
    InformationSet,
    MatchSummary,
    RandomPlayer,
    SearchPlayer,
    TerminalPlayer,
    TrickyTreatsGame,
    TurnBasedGame,
    make_player,
    play_match,
    run_console,
    simulate,
)


def _new(seed: int) -> TrickyTreatsGame:
    return TrickyTreatsGame(tt.new_game(2, seed=seed))


def test_the_adapter_satisfies_the_protocol() -> None:
    game = TrickyTreatsGame(tt.new_game(3, seed=1))
    assert isinstance(game, TurnBasedGame)
    assert game.num_players == 3
    assert game.current_player == game.state.current_player
    assert tuple(game.legal_actions()) == game.state.legal_actions()
    action = game.state.legal_actions()[0]
    assert game.apply(action).state == game.state.apply(action)
    assert game.view(1) == game.state.view(1)


def test_a_determinized_state_looks_the_same_to_its_player() -> None:
    game = TrickyTreatsGame(tt.new_game(3, seed=4))
    sample = game.determinize(2, random.Random(0))
    assert sample.view(2) == game.view(2)


def test_play_match_is_deterministic_and_ends_with_shares_summing_to_one() -> None:
    first = play_match(_new(3), [RandomPlayer()] * 2, seed=3)
    again = play_match(_new(3), [RandomPlayer()] * 2, seed=3)
    assert first == again
    assert first.is_over
    assert sum(first.returns()) == pytest.approx(1.0)
    assert first.returns() == tuple(
        1.0 / len(first.state.winners()) if p in first.state.winners() else 0.0 for p in range(2)
    )


def test_play_match_needs_one_agent_per_seat() -> None:
    with pytest.raises(tt.ConfigurationError, match="need 2 agents"):
        play_match(_new(0), [RandomPlayer()])


def test_agents_see_the_view_not_the_state() -> None:
    seen: list[InformationSet] = []

    class Spy:
        def choose(self, info: InformationSet, rng: random.Random) -> object:
            seen.append(info)
            return info.legal_actions[0]

    play_match(_new(1), [Spy(), Spy()], seed=1, max_actions=100_000)
    assert seen
    assert all(isinstance(info.view, tt.PlayerView) for info in seen)
    assert all(info.view.player == info.player for info in seen)  # type: ignore[attr-defined]


def test_simulate_counts_wins_per_seat() -> None:
    summary = simulate(_new, [RandomPlayer()] * 2, games=4, seed=10)
    assert summary.games == 4
    assert sum(summary.wins) == pytest.approx(4)
    assert summary.actions > 0
    assert str(summary).startswith("4 games, ")
    assert simulate(_new, [RandomPlayer()] * 2, games=4, seed=10) == summary
    assert MatchSummary(0, (), 0).win_rates() == ()
    with pytest.raises(tt.ConfigurationError, match="cannot play -1 games"):
        simulate(_new, [RandomPlayer()] * 2, games=-1)


def test_the_search_player_returns_a_legal_action() -> None:
    game = _new(5)
    seat = game.current_player
    assert seat is not None
    info = InformationSet(seat, game.view(seat), tuple(game.legal_actions()), state=game)
    assert SearchPlayer(iterations=8).choose(info, random.Random(0)) in info.legal_actions


def test_make_player() -> None:
    assert make_player("random") == RandomPlayer()
    assert make_player("search:7") == SearchPlayer(iterations=7)
    assert make_player("search") == SearchPlayer()
    for bad in ("greedy", "search:0", "random:3", "search:x"):
        with pytest.raises(tt.ConfigurationError, match="no bot"):
            make_player(bad)


def test_the_terminal_player_asks_until_the_answer_is_legal() -> None:
    game = _new(2)
    seat = game.current_player
    assert seat is not None
    info = InformationSet(seat, game.view(seat), tuple(game.legal_actions()), state=game)
    answers = iter(["nonsense", "99999", "1"])
    written: list[str] = []
    player = TerminalPlayer(
        render=lambda view: "VIEW", read=lambda _: next(answers), write=written.append
    )
    assert player.choose(info, random.Random(0)) == info.legal_actions[1]
    assert written[0] == "VIEW"
    assert sum("is not an action" in line for line in written) == 2
    by_text = TerminalPlayer(read=lambda _: str(info.legal_actions[0]), write=written.append)
    assert by_text.choose(info, random.Random(0)) == info.legal_actions[0]


def test_run_console_simulates_and_plays() -> None:
    def new(players: int, seed: int) -> TurnBasedGame:
        return TrickyTreatsGame(tt.new_game(players, seed=seed))

    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            run_console("tt", new, str, ["simulate", "--games", "2", "--players", "3"], (2, 4)) == 0
        )
        assert run_console("tt", new, str, ["play", "--watch", "--bot", "random"], (2, 4)) == 0
    text = out.getvalue()
    assert text.startswith("2 games, ")
    assert "winners: player " in text


def test_simulate_calls_on_game_after_each_game() -> None:
    seen: list[int] = []
    summary = simulate(
        _new, [RandomPlayer(), RandomPlayer()], 3, seed=5, on_game=lambda: seen.append(1)
    )
    assert len(seen) == summary.games == 3


def _console(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    def new(players: int, seed: int) -> TrickyTreatsGame:
        return TrickyTreatsGame(tt.new_game(players=players, seed=seed))

    try:
        status = run_console("tt", new, str, argv, (2, 4))
    except SystemExit as exit:
        status = int(exit.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_console_simulate_help_documents_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _console(["simulate", "--help"], capsys)
    assert status == 0
    help_text = " ".join(out.split())
    for option, meaning in [
        ("--games N", "how many games (100)"),
        ("--seed SEED", "the seed of game 0; game i uses SEED+i (0)"),
        ("--players N", "how many seats, 2 to 4 (default 2)"),
        ("--bots BOTS", "comma-separated, one per seat, or one bot for every seat"),
        ("", "default: random in every seat"),
        ("--quiet", "no progress"),
    ]:
        assert f"{option} {meaning}".strip() in help_text, option


def test_console_simulate_shows_progress_on_stderr_and_fills_the_seats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _console(["simulate", "--games", "2", "--players", "4"], capsys)
    assert status == 0
    assert out.startswith("2 games, ")
    assert "seat 3:" in out  # one random bot per seat
    assert err.splitlines() == [
        "Playing random, random, random, random: 2 games...",
        *[line for line in err.splitlines()[1:] if line.startswith("Playing random")],
    ]
    assert err.splitlines()[-1].startswith("Playing random, random, random, random: 2/2 in ")
    status, out, err = _console(["simulate", "--games", "2", "--quiet"], capsys)
    assert (status, err) == (0, "")


def _reader(answers: Iterator[str]) -> Callable[[str], str]:
    return lambda prompt: next(answers)


def test_the_terminal_player_reads_an_action_as_listed_in_any_case() -> None:
    # Card codes are upper-case ("play K4 2"): typed as listed, or in another case, they count.
    game = _new(2)
    actions = ("draw", "play K4 2")
    info = InformationSet(0, None, actions, state=game)
    for typed in ("play K4 2", "play k4 2", "  PLAY K4   2 "):
        answers = iter([typed])  # a second question would end the test, not loop
        player = TerminalPlayer(render=str, read=_reader(answers), write=print)
        assert player.choose(info, random.Random(0)) == "play K4 2"


def test_the_terminal_player_explains_the_game_on_help() -> None:
    game = _new(2)
    info = InformationSet(0, None, ("draw",), state=game)
    answers = iter(["help", "draw"])
    written: list[str] = []
    player = TerminalPlayer(
        render=str, read=lambda _: next(answers), write=written.append, help="HOW TO PLAY"
    )
    assert player.choose(info, random.Random(0)) == "draw"
    assert "HOW TO PLAY" in written


def test_the_search_player_considers_only_the_filtered_actions() -> None:
    game = _new(5)
    seat = game.current_player
    assert seat is not None
    info = InformationSet(seat, game.view(seat), tuple(game.legal_actions()), state=game)

    def last(state: TrickyTreatsGame) -> Sequence[Hashable]:
        return state.legal_actions()[-1:]

    last_only = SearchPlayer(iterations=8, action_filter=last)
    assert last_only.choose(info, random.Random(0)) == info.legal_actions[-1]
    assert make_player("search:8", action_filter=last) == last_only


def test_run_console_offers_game_options_and_explains_the_outcome() -> None:
    seen: list[object] = []

    def new(players: int, seed: int, colour: str) -> TurnBasedGame:
        seen.append(colour)
        return TrickyTreatsGame(tt.new_game(players, seed=seed))

    out = io.StringIO()
    with redirect_stdout(out):
        code = run_console(
            "tt",
            new,
            str,
            ["play", "--watch", "--bot", "random", "--colour", "red"],
            (2, 4),
            outcome=lambda final, seat: f"THE END for {seat}",
            game_options={"colour": {"default": "blue"}},
        )
    assert code == 0
    assert set(seen) == {"red"}
    assert "THE END for 0" in out.getvalue()


def test_a_playout_cutoff_stops_playouts_with_its_estimate() -> None:
    calls: list[int] = []

    def stop_at_once(start: TrickyTreatsGame, state: TrickyTreatsGame) -> tuple[float, ...]:
        calls.append(1)
        return (1.0, 0.0)

    game = _new(5)
    seat = game.current_player
    assert seat is not None
    info = InformationSet(seat, game.view(seat), tuple(game.legal_actions()), state=game)
    player = SearchPlayer(iterations=6, playout_cutoff=stop_at_once)
    assert player.choose(info, random.Random(0)) in info.legal_actions
    assert len(calls) == 6  # one playout action each, then the estimate ends it


def test_the_search_player_searches_in_the_states_its_sampler_draws() -> None:
    game = _new(5)
    seat = game.current_player
    assert seat is not None
    info = InformationSet(seat, game.view(seat), tuple(game.legal_actions()), state=game)
    drawn: list[TurnBasedGame] = []

    def sampler(given: InformationSet, rng: random.Random) -> TurnBasedGame:
        assert given is info
        drawn.append(given.determinize(rng))
        return drawn[-1]

    choice = SearchPlayer(iterations=6, sampler=sampler).choose(info, random.Random(0))
    assert choice in info.legal_actions
    assert len(drawn) == 6  # one sampled state an iteration, none from info.determinize

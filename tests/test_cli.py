"""The tricky-treats command: every subcommand, good and bad input."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tricky_treats as tt
from tricky_treats.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def test_variants(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "variants")
    assert status == 0
    for name in ("any-mean-house", "card-data", "family", "open-objectives"):
        assert name in out
    assert "tricky-treats" in out


def test_simulate_prints_win_rates_and_writes_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "games.csv"
    status, out, _ = _run(
        capsys,
        "simulate",
        "--games",
        "6",
        "--agents",
        "greedy,random",
        "--jobs",
        "1",
        "--seed",
        "3",
        "--quiet",
        "--output",
        str(output),
    )
    assert status == 0
    assert "win rate" in out
    assert "greedy" in out
    assert "random" in out
    assert "Mean game length" in out
    with output.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 12  # one per seat and game
    assert {r["game"] for r in rows} == {str(i) for i in range(6)}
    assert sum(float(r["win"]) for r in rows) == pytest.approx(6)


def test_simulate_jsonl_in_parallel_matches_serial(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    serial, parallel = tmp_path / "serial.jsonl", tmp_path / "parallel.jsonl"
    common = [
        "simulate",
        "--games",
        "4",
        "--agents",
        "random,random,greedy",
        "--quiet",
        "--seed",
        "9",
    ]
    assert _run(capsys, *common, "--jobs", "1", "--output", str(serial))[0] == 0
    assert _run(capsys, *common, "--jobs", "2", "--output", str(parallel))[0] == 0
    lines = [json.loads(line) for line in serial.read_text().splitlines()]
    assert len(lines) == 4
    assert serial.read_text() == parallel.read_text()  # the same games, whatever the processes


def test_simulate_with_a_variant(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys,
        "simulate",
        "--games",
        "2",
        "--agents",
        "random,random",
        "--jobs",
        "1",
        "--quiet",
        "--variant",
        "family",
    )
    assert status == 0
    assert "extras" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--agents", "greedy,wizard"], "no agent 'wizard'"),
        (["simulate", "--agents", "greedy:5"], "only the search agent takes a budget"),
        (["simulate", "--games", "0"], "--games must be at least 1"),
        (["simulate", "--output", "x.txt"], "must end in .csv or .jsonl"),
        (["simulate", "--agents", "random"], "for 2 to 4 players, got 1"),
        (["simulate", "--variant", "chess"], "no variant called 'chess'"),
        (["play", "--players", "5", "--seed", "1"], "for 2 to 4 players, got 5"),
        (["play", "--seats", "human,robot"], "'robot' is neither human nor a bot"),
        (["replay", "/no/such/file.json"], "cannot read /no/such/file.json"),
    ],
)
def test_bad_arguments_get_a_message_not_a_traceback(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, *argv, *(["--quiet"] if argv[0] == "simulate" else []))
    assert status == 2
    assert message in " ".join(err.split())
    assert "Traceback" not in out + err


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["dance"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_play_hints_on_bad_input_and_saves_on_request(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "now.json"
    _stdin(
        monkeypatch,
        f"help\nbanana\nt9k9\npass\nsave\nsave {saved}\nsave /no/such/dir/x.json\nquit\n",
    )
    status, out, _ = _run(capsys, "play", "--players", "3", "--seed", "5")
    assert status == 0
    text = " ".join(out.split())
    assert "Type an action's notation" in text
    assert "'banana' is not an action" in text
    assert "market slots are 0 to 4" in text
    assert "cannot pass" in text
    assert "Say where: save FILE" in text
    assert f"Saved to {saved}" in text
    assert "cannot write /no/such/dir/x.json" in text
    assert "Bye." in text
    assert tt.loads(saved.read_text()).turn == 0


def test_play_ends_quietly_at_the_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stdin(monkeypatch, "")
    status, out, _ = _run(capsys, "play", "--players", "2", "--seed", "5")
    assert status == 0
    assert "Bye." in out


def test_play_between_bots_only(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "play", "--seats", "greedy,random,search:5", "--seed", "2")
    assert status == 0
    assert "Game over; " in out
    assert "Score sheets" in out


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    game = tt.new_game(3, seed=8, variants=["family"])
    final = tt.play_game(game, [tt.GreedyAgent(), tt.RandomAgent(), tt.RandomAgent()], seed=8)[-1]
    path = tmp_path / "saved.json"
    path.write_text(tt.dumps(final))
    return path


def test_replay_prints_the_log_and_the_sheets(
    capsys: pytest.CaptureFixture[str], saved_game: Path
) -> None:
    status, out, _ = _run(capsys, "replay", str(saved_game))
    assert status == 0
    game = tt.loads(saved_game.read_text())
    assert "variants: family 1.0" in out
    assert f"{len(game.history):3}. " in out
    assert "game over" in out
    assert "(winner)" in out
    assert "Score sheets" in out


def test_replay_step_by_step_shows_the_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, saved_game: Path
) -> None:
    _stdin(monkeypatch, "\n\n\n")  # three steps, then the end of input plays the rest
    status, out, _ = _run(capsys, "replay", "--step", str(saved_game))
    assert status == 0
    assert out.count("Enter for the next, q quits") == 4
    assert out.count("└ bonuses") == 5  # the table at the start and after each step
    assert "Score sheets" in out


def test_replay_step_quits_on_q(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, saved_game: Path
) -> None:
    _stdin(monkeypatch, "\nq\n\n\n")
    status, out, _ = _run(capsys, "replay", "--step", str(saved_game))
    assert status == 0
    assert out.count("Enter for the next, q quits") == 2
    assert "  3. " not in out
    assert "Score sheets" not in out


def test_replay_a_game_in_progress(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "half.json"
    path.write_text(tt.dumps(tt.new_game(2, seed=1).apply(tt.TakeCard(0, 0))))
    status, out, _ = _run(capsys, "replay", str(path))
    assert status == 0
    assert "The game goes on" in out
    assert "so far" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "tricky-treats-record"', "not a valid game record: not valid JSON"),
        ('{"format": "something"}', "not a valid game record: $.format"),
        (b"\xff\xfe\x00\x01", "is not a text file"),
    ],
)
def test_replay_a_corrupt_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    status, out, err = _run(capsys, "replay", str(path))
    assert status == 2
    assert message in " ".join(err.split())
    assert "Traceback" not in out + err


def test_python_dash_m_and_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tricky_treats", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == f"tricky-treats {tt.__version__}"


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "tricky-treats"
    result = subprocess.run([str(script), "variants"], capture_output=True, text=True, check=True)
    assert "family" in result.stdout


@pytest.mark.parametrize(
    ("players", "seats"),
    [
        ([], ["1. greedy", "2. random"]),
        (["--players", "3"], ["1. greedy", "2. random", "3. greedy"]),
        (["--players", "4"], ["1. greedy", "2. random", "3. greedy", "4. random"]),
    ],
)
def test_simulate_default_bots_fill_the_seats(
    capsys: pytest.CaptureFixture[str], players: list[str], seats: list[str]
) -> None:
    argv = ["simulate", "--games", "2", "--seed", "3", "--backend", "inline", *players]
    status, out, err = _run(capsys, *argv)
    assert status == 0, err
    assert [seat for seat in seats if seat in out] == seats
    assert f"{len(seats) + 1}. " not in out
    assert f"{len(seats)} players" in out
    # The progress goes to stderr, where a log keeps a line per tenth of the games.
    lines = err.splitlines()
    assert (
        lines[0] == f"Playing {', '.join(s.split()[1] for s in seats)} in this process: 2 games..."
    )
    assert lines[-1].startswith(
        f"Playing {', '.join(s.split()[1] for s in seats)} in this process: 2/2 in "
    )

"""The runnable examples run and print what they promise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tricky_treats as tt

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_random_game_prints_the_log_and_the_score_sheets() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "random_game.py"), "--players", "4", "--seed", "7"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "Tricky Treats, 4 players, seed 7"
    assert any("puts the" in line for line in lines)
    assert any("game over" in line for line in lines)
    assert sum(line.startswith("Player ") for line in lines) == 4
    assert "Winner: " in lines[-1]
    again = subprocess.run(
        [sys.executable, str(EXAMPLES / "random_game.py"), "--players", "4", "--seed", "7"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert again.stdout == result.stdout


def _run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, check=True
    )
    return result.stdout


def test_frontend_loop_refuses_mistakes_and_plays_to_the_end() -> None:
    lines = _run("frontend_loop.py").splitlines()
    assert lines[0].startswith('{"ok": false, "error": "it is not player 2')
    assert '"ok": false' in lines[1]
    assert "nice house 4 wants" in lines[1]
    assert "no player 9" in lines[2]
    assert "request larger than 1024 bytes" in lines[3]
    assert "is not an action" in lines[4]
    assert "no player 999" in lines[5]
    assert "request is not valid JSON" in lines[6]
    assert all(len(line) < 400 for line in lines[:7])  # hostile input is never echoed whole
    assert "winners:" in lines[7]
    assert lines[8].endswith("True")


def test_custom_bot_beats_random() -> None:
    out = _run("custom_bot.py")
    assert out.startswith("20 games: {'PumpkinHunter': ")
    hunter = float(out.split("'PumpkinHunter': ")[1].split(",")[0])
    assert hunter >= 15


def test_replay_record_replays_a_saved_game(tmp_path: Path) -> None:
    out = _run("replay_record.py")
    assert "2 players, seed 3" in out.splitlines()[0]
    assert "game over" in out
    path = tmp_path / "given.json"
    final = tt.play_game(tt.new_game(3, seed=2), [tt.RandomAgent()] * 3, seed=2)[-1]
    path.write_text(tt.dumps(final))
    given = _run("replay_record.py", str(path))
    assert f"{len(final.history)} actions" in given.splitlines()[0]


def test_replay_record_help_is_help_not_a_file_name() -> None:
    """Issue 38: ``--help`` was read as the name of a record."""
    out = _run("replay_record.py", "--help")
    assert out.startswith("usage: replay_record.py [-h] [file]")
    assert "Save a game, load it back" in out


def _example_scripts() -> set[str]:
    """Every script under ``examples/`` that is no distribution of its own (a folder with a
    ``pyproject.toml``, such as the web app or a candy game, brings its own tests)."""
    distributions = {p.parent for p in EXAMPLES.glob("*/pyproject.toml")}
    return {
        path.relative_to(EXAMPLES).as_posix()
        for path in EXAMPLES.rglob("*")
        if path.suffix in {".py", ".mjs"}
        and "node_modules" not in path.parts
        and not any(folder in path.parents for folder in distributions)
    }


def test_every_example_script_is_run_by_a_test() -> None:
    """Each example script, in a subfolder too (``bots/``, ``learning/``), is named by the
    test file that runs it, so none can rot unnoticed."""
    scripts = _example_scripts()
    assert {"random_game.py", "bots/python_bot.py", "learning/train_maskable_ppo.py"} <= scripts
    here = Path(__file__)
    tests = [path.read_text() for path in here.parent.glob("test_*.py") if path != here]
    tests.append(here.read_text().partition("def _example_scripts")[0])  # not this check

    def named(script: str, text: str) -> bool:  # "bots/python_bot.py" or "bots" / "python_bot.py"
        return script in text or '"' + '" / "'.join(script.split("/")) + '"' in text

    untested = {script for script in scripts if not any(named(script, t) for t in tests)}
    assert untested == set()

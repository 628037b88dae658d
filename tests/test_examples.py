"""The runnable examples run and print what they promise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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

"""examples/learning/train_maskable_ppo.py trains, saves and evaluates (a run of seconds).

Needs torch and sb3-contrib, the example's own requirements (not an extra): without them,
this module skips with the line that installs them (tests/requirements.py).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from tricky_treats.adapters.gym import TrickyTreatsEnv

SCRIPT = Path(__file__).parent.parent / "examples" / "learning" / "train_maskable_ppo.py"


def test_the_example_trains_saves_and_evaluates_with_seats_swapped(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            *(sys.executable, str(SCRIPT), "--smoke", "--eval-games", "4", "--curve-games", "2"),
            *("--output", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    assert "maskable_ppo vs greedy: win share" in result.stdout
    assert "random vs greedy: win share" in result.stdout
    report = json.loads((tmp_path / "evaluation.json").read_text())
    for name in ("maskable_ppo", "random"):
        evaluation = report[name]
        assert evaluation["games"] == 4
        assert set(evaluation["win_share_by_seat"]) == {"0", "1"}  # 2 games in each seat
        low, high = evaluation["interval95"]
        assert 0.0 <= low <= evaluation["win_share"] <= high <= 1.0
    rows = list(csv.DictReader((tmp_path / "curve.csv").read_text().splitlines()))
    assert rows
    assert int(rows[-1]["timesteps"]) == report["timesteps"] > 0
    # The saved model loads and plays legal codes on the env's own observation, rescaled.
    model = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    env = TrickyTreatsEnv(2, seat=1, opponents="greedy")
    obs, _ = env.reset(seed=5)
    scale = 1.0 / np.maximum(np.asarray(env.encoding.high, np.float32), 1.0)
    with torch.no_grad():
        action, _ = model.predict(obs * scale, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]

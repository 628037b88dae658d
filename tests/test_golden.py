"""Golden records: complete games saved once, loaded and replayed by every later version."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import tricky_treats as tt

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_there_are_golden_files_for_every_player_count_with_and_without_variants() -> None:
    records = [json.loads(f.read_text()) for f in FILES]
    assert {len(r["config"]["players"]) for r in records} == {2, 3, 4}
    assert any(r["variants"] for r in records)
    assert any(not r["variants"] for r in records)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_golden_record_loads_replays_and_is_over(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = json.loads(text)
    jsonschema.validate(record, tt.record_schema())
    game = tt.loads(text)  # deals from the seed and replays every action, checking digests
    assert game.is_over
    assert game.outcome() is not None
    config = record["config"]
    replay = tt.new_game(
        players=config["players"],
        seed=config["seed"],
        first_player=config["first_player"],
        any_mean_house=config["any_mean_house"],
        refresh_ends_turn=config["refresh_ends_turn"],
        variants=[v["name"] for v in record["variants"]],
        variant_options=config["variant_options"],
    )
    for action in game.history:
        replay = replay.apply(action)
    assert replay == game


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_golden_record_is_written_again_identically(path: Path) -> None:
    """Apart from the version that wrote it, saving the loaded game gives the same record."""
    record = json.loads(path.read_text(encoding="utf-8"))
    again = json.loads(tt.dumps(tt.loads(path.read_text(encoding="utf-8"))))
    record.pop("written_by")
    again.pop("written_by")
    assert again == record

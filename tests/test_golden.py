"""Golden records: complete games saved once, loaded and replayed by every later version."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import tricky_treats as tt

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("v*/*.json"))
CURRENT = sorted(GOLDEN.glob(f"v{tt.RECORD_FORMAT_VERSION}/*.json"))


def _version(path: Path) -> int:
    return int(path.parent.name.removeprefix("v"))


def test_there_are_golden_files_for_every_player_count_with_and_without_variants() -> None:
    for version in range(1, tt.RECORD_FORMAT_VERSION + 1):
        records = [json.loads(f.read_text()) for f in FILES if _version(f) == version]
        assert {len(r["config"]["players"]) for r in records} == {2, 3, 4}, version
        assert any(r["variants"] for r in records)
        assert any(not r["variants"] for r in records)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_record_loads_replays_and_is_over(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = json.loads(text)
    assert record["format_version"] == _version(path)
    jsonschema.validate(record, tt.record_schema(_version(path)))
    game = tt.loads(text)  # migrates, deals from the seed and replays every action
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


@pytest.mark.parametrize("path", CURRENT, ids=lambda p: p.name)
def test_golden_record_is_written_again_identically(path: Path) -> None:
    """Apart from the version that wrote it, saving the loaded game gives the same record."""
    record = json.loads(path.read_text(encoding="utf-8"))
    again = json.loads(tt.dumps(tt.loads(path.read_text(encoding="utf-8"))))
    record.pop("written_by")
    again.pop("written_by")
    record.pop("digest")
    again.pop("digest")
    assert again == record


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_version_of_a_game_loads_to_the_same_game(path: Path) -> None:
    current = GOLDEN / f"v{tt.RECORD_FORMAT_VERSION}" / path.name
    assert tt.loads(path.read_text(encoding="utf-8")) == tt.loads(current.read_text("utf-8"))

"""The hostile records of issue 27 (items 1 to 9): what each does, in what time and memory.

Run with ``python benchmarks/bench_hostile_records.py`` (every case) or with ``--case NAME``
(one). Each case runs in a fresh process with a time limit (``--timeout``, 300 s by default),
so that a case that hangs (a FIFO opened by a record) or eats memory ends; it prints what the
call gave (the exception's class and its message's length, or what it returned), its CPU
time (``time.process_time``: other programs on a shared machine disturb it less than the
wall time), and the growth of the process's peak resident memory while it ran (``ru_maxrss`` after,
less the resident memory before). The goal for each: refused with a library error in under
100 ms and 100 MB. It asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tricky_treats as tt
from tricky_treats import serialization
from tricky_treats.components import base_components, components_document

TIMEOUT = 300.0


def _game(*variants: str) -> tt.GameState:
    game = tt.new_game(3, seed=1, variants=variants)
    for _ in range(10):
        game = game.apply(game.legal_actions()[0])
    return game


def _record(*variants: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(tt.dumps(_game(*variants)))
    return loaded


def _signed(document: dict[str, Any]) -> str:
    """The document with its digest computed again: a careful edit."""
    document.pop("digest", None)
    document["digest"] = serialization._digest(document)
    return json.dumps(document, ensure_ascii=False)


def _loads(text: str | bytes, **options: Any) -> Callable[[], object]:
    return lambda: tt.loads(text, **options)


def surrogate_in_record() -> Callable[[], object]:
    """Item 1: a lone surrogate in ``written_by`` (the digest cannot even be computed)."""
    text = tt.dumps(_game()).replace('"written_by":"', '"written_by":"\\ud800', 1)
    return _loads(text)


def surrogate_in_options() -> Callable[[], object]:
    """Item 1: a lone surrogate in ``new_game``'s variant options."""
    return lambda: tt.new_game(2, variants=["family"], variant_options={"family": {"x": "\ud800"}})


def version_1_rewrite() -> Callable[[], object]:
    """Item 2: a record rewritten as version 1 with a box of a 99-point tile (verified load)."""
    document = _record()
    document["format_version"] = 1
    for key in ("digest", "custom_components", "rules"):
        del document[key]
    del document["setup"]["secret_tiles_face_up"]
    box = components_document(base_components())
    box["trick_tiles"]["tiles"][0]["points"] = 99
    box["rules"]["pumpkin_points"] = 50
    document["components"] = box
    return _loads(json.dumps(document))


def _options_record(options: dict[str, Any], *variants: str) -> str:
    document = _record(*variants)
    document["config"]["variant_options"] = options
    return _signed(document)


def options_of_absent_variant() -> Callable[[], object]:
    """Item 3: options of a variant that is not in the game."""
    return _loads(_options_record({"family": {"x": 1}}))


def options_900_deep() -> Callable[[], object]:
    """Item 3: variant options nested 900 levels."""
    deep: Any = 1
    for _ in range(900):
        deep = [deep]
    return _loads(_options_record({"family": {"x": deep}}, "family"))


def options_of_1_5_mb() -> Callable[[], object]:
    """Item 3: variant options of 1.5 MB."""
    return _loads(_options_record({"family": {"x": "x" * 1_500_000}}, "family"))


def players_150000() -> Callable[[], object]:
    """Item 4: 150,000 empty objects in ``snapshot.players``."""
    document = _record()
    document["snapshot"]["players"] = [{}] * 150_000
    return _loads(_signed(document))


def variants_150000() -> Callable[[], object]:
    """Item 4: 150,000 entries in ``variants``."""
    document = _record()
    document["variants"] = [{}] * 150_000
    return _loads(_signed(document))


def card_data_fifo() -> Callable[[], object]:
    """Item 5: a record naming card-data with a FIFO as its file, its digest wrong."""
    fifo = Path(tempfile.mkdtemp()) / "box.toml"
    os.mkfifo(fifo)
    game = tt.new_game(2, seed=1, variants=["family"])
    document = json.loads(tt.dumps(game))
    document["variants"] = [{"name": "card-data", "version": "1.0"}]
    document["config"]["variant_options"] = {"card-data": {"file": str(fifo)}}
    document["digest"] = "sha256:" + "0" * 64
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _loads(text)


def unknown_key_of_1_mb() -> Callable[[], object]:
    """Item 6: an unknown key of 1 MB (the message repeated it)."""
    document = _record()
    document["snapshot"]["k" * 1_000_000] = 1
    return _loads(_signed(document))


def visited_300000() -> Callable[[], object]:
    """Item 6: 300,000 entries in a player's ``visited``."""
    document = _record()
    document["snapshot"]["players"][0]["visited"] = [1] * 300_000
    return _loads(_signed(document))


def view_visited_300000() -> Callable[[], object]:
    """Item 6: 300,000 entries in a player's ``visited`` in a player record."""
    view = _view(_game())
    view["view"]["players"][0]["visited"] = [1] * 300_000
    text = json.dumps(view)
    return lambda: tt.loads_view(text)


def _view(game: tt.GameState, player: int = 0) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(tt.dumps(game, player=player))
    return loaded


def view_every_tile_shown() -> Callable[[], object]:
    """Item 7: a base game's player record showing every other player's tile mid-game."""
    game = _game()
    view = _view(game)
    view["view"]["secret_tiles"] = [
        serialization._converter.unstructure(p.secret_tile) for p in game.players
    ]
    text = json.dumps(view)
    return lambda: tt.loads_view(text)


def view_foreign_card_with_a_variant() -> Callable[[], object]:
    """Item 7: a non-base card in the player record of a game with a variant."""
    game = tt.new_game(3, seed=1, variants=["open-objectives"])
    view = _view(game)
    view["view"]["market"][0]["colour"] = (
        "red" if view["view"]["market"][0]["colour"] != "red" else "green"
    )
    text = json.dumps(view)
    return lambda: tt.loads_view(text)


def utf8_of_6_mb() -> Callable[[], object]:
    """Item 8: a str record of under 2 Mi characters but 6.29 MB of UTF-8."""
    document = _record()
    document["written_by"] = "\u20ac" * 2_090_000
    text = _signed(document)
    return _loads(text)


def toml_long_integer() -> Callable[[], object]:
    """Item 9: a component file holding an integer of 5,000 digits."""
    path = Path(tempfile.mkdtemp()) / "box.toml"
    path.write_text("x = " + "9" * 5000 + "\n", encoding="utf-8")
    return lambda: tt.load_components(path)


def toml_escaped_dotted_key() -> Callable[[], object]:
    """Item 9: a dotted key of 30,000 parts whose first part holds an escaped quote."""
    path = Path(tempfile.mkdtemp()) / "box.toml"
    path.write_text('"\\"".' + ".".join(["a"] * 30_000) + " = 1\n", encoding="utf-8")
    return lambda: tt.load_components(path)


CASES: dict[str, Callable[[], Callable[[], object]]] = {
    "1 surrogate in a record": surrogate_in_record,
    "1 surrogate in new_game options": surrogate_in_options,
    "2 version-1 rewrite, 99-point tile": version_1_rewrite,
    "3 options of an absent variant": options_of_absent_variant,
    "3 options 900 levels deep": options_900_deep,
    "3 options of 1.5 MB": options_of_1_5_mb,
    "4 150,000 snapshot.players": players_150000,
    "4 150,000 variants": variants_150000,
    "5 card-data file is a FIFO": card_data_fifo,
    "6 unknown key of 1 MB": unknown_key_of_1_mb,
    "6 300,000 visited": visited_300000,
    "6 view: 300,000 visited": view_visited_300000,
    "7 view: every tile shown mid-game": view_every_tile_shown,
    "7 view: foreign card, a variant": view_foreign_card_with_a_variant,
    "8 6.29 MB of UTF-8 as str": utf8_of_6_mb,
    "9 TOML integer of 5,000 digits": toml_long_integer,
    "9 TOML dotted key, escaped quote": toml_escaped_dotted_key,
}


def _resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def run_case(name: str) -> None:
    """Run one case here and print one JSON line: outcome, seconds, peak growth in MB."""
    call = CASES[name]()
    before = _resident_mb()
    start = time.process_time()
    try:
        result = call()
        outcome = f"accepted: {type(result).__name__}"
    except Exception as exc:
        library = isinstance(exc, tt.TrickyTreatsError)
        outcome = f"{'' if library else 'NOT LIBRARY '}{type(exc).__name__}, {len(str(exc)):,} ch"
    seconds = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"outcome": outcome, "seconds": seconds, "mb": max(0.0, peak - before)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES), help="run one case in this process")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per case")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    arguments = parser.parse_args()
    if arguments.case:
        run_case(arguments.case)
        return
    print(f"{'case':<38} {'outcome':<44} {'time':>10} {'peak':>9}")
    broken = []
    for name in list(CASES)[:3] if arguments.quick else CASES:  # quick: a few cases, to see it runs
        try:
            done = subprocess.run(
                [sys.executable, __file__, "--case", name],
                capture_output=True,
                text=True,
                timeout=arguments.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            print(f"{name:<38} {'still running: killed':<44} {'>' + str(arguments.timeout):>8} s")
            broken.append(name)
            continue
        lines = done.stdout.strip().splitlines()
        if done.returncode or not lines:
            tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
            print(f"{name:<38} {'crashed: ' + tail[0][:60]}")
            broken.append(name)
            continue
        figures = json.loads(lines[-1])
        print(
            f"{name:<38} {figures['outcome']:<44} {figures['seconds'] * 1e3:8.1f} ms"
            f" {figures['mb']:6.1f} MB"
        )
    if arguments.quick and broken:
        sys.exit(f"the benchmark itself is broken: {', '.join(broken)}")


if __name__ == "__main__":
    main()

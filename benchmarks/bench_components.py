"""Time loading component data, and refusing hostile component data (issues 10, 12 and 16).

Prints how long the base box takes to load through the cattrs converter, and how long the
loader takes to refuse documents built to make it work hard: a million cards, a thousand bad
cards, absurd numbers, /dev/zero, and TOML nested as deep as 1 MiB allows.
"""

from __future__ import annotations

import argparse
import copy
import functools
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tricky_treats as tt
from tricky_treats.components import parse_components

DATA_FILE = Path(tt.__file__).parent / "data" / "base.toml"
BOX: dict[str, Any] = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))


def _timed(label: str, repeat: int, run: Callable[[], object]) -> None:
    best = float("inf")
    outcome = ""
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            run()
            outcome = "loaded"
        except tt.ComponentDataError as exc:
            outcome = f"refused, {len(str(exc))} characters"
        best = min(best, time.perf_counter() - start)
    print(f"{label:<48} {best * 1000:9.2f} ms  ({outcome})")


def _with(path: tuple[Any, ...], value: object) -> dict[str, Any]:
    doc = copy.deepcopy(BOX)
    parent: Any = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="runs per case; the best counts")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat

    text = DATA_FILE.read_text(encoding="utf-8")
    _timed("base.toml, parsed and structured", repeat, lambda: tt.load_components(DATA_FILE))
    _timed("base document, structured only", repeat, lambda: parse_components(BOX, "doc"))

    card = BOX["costume_cards"]["cards"][0]
    million = _with(("costume_cards", "cards"), [card] * 1_000_000)
    _timed("a million cards", repeat, lambda: parse_components(million, "doc"))
    bad = _with(("costume_cards", "cards"), [{**card, "id": i, "colour": "x"} for i in range(1000)])
    _timed("a thousand cards, each wrong", repeat, lambda: parse_components(bad, "doc"))
    huge = _with(("rules", "kids_per_player"), 10**20)
    _timed("kids_per_player = 10**20", repeat, lambda: parse_components(huge, "doc"))
    _timed("/dev/zero", repeat, lambda: tt.load_components("/dev/zero"))

    with tempfile.TemporaryDirectory() as folder:
        cases = {
            "1 MiB of nested arrays": "x = " + "[" * 500_000 + "]" * 500_000,
            "1 MiB dotted key": "a" + ".a" * 500_000 + " = 1",
            "1 MiB of 8-part dotted keys (the most allowed)": "".join(
                f"{'a.' * 7}k{i} = 1\n" for i in range(40_000)
            ),
            "base.toml padded to 1 MiB": text + "#" + "x" * ((1 << 20) - len(text) - 2) + "\n",
        }
        for label, content in cases.items():
            path = Path(folder) / "box.toml"
            path.write_text(content, encoding="utf-8")
            _timed(label, repeat, functools.partial(tt.load_components, path))


if __name__ == "__main__":
    main()

"""What ``import tricky_treats`` costs, beside ``import attrs, cattrs, pluggy``, in one run.

Run with ``python benchmarks/bench_import.py`` (``--quick`` for a smoke run of seconds); it
prints figures and asserts nothing. Each import runs in a fresh interpreter (a new process,
so nothing is cached in memory; the files are in the page cache after the first round, as
on any machine that imported them before), and its cost is the CPU time of that child
process (``resource.getrusage(RUSAGE_CHILDREN)``, user and system), less the median of an
interpreter that imports nothing. Every figure is the median of its rounds with the spread
(lowest to highest); the rounds alternate the commands, so that a shared machine's changing
speed touches them alike.

Target (issue 44): ``import tricky_treats`` costs at most 1.5 times ``import attrs, cattrs,
pluggy``, the run-time dependencies. The first game's line shows what a program pays on
first use, when the root's names are imported from their modules.

To measure another checkout with the same script, put its ``src`` first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from collections.abc import Sequence

COMMANDS = {
    "python (nothing imported)": "pass",
    "import attrs, cattrs, pluggy": "import attrs, cattrs, pluggy",
    "import tricky_treats": "import tricky_treats",
    "import tricky_treats, then a first game": (
        "import tricky_treats as tt; tt.new_game(2, seed=1).legal_actions()"
    ),
    "import tricky_treats, then a first record": (
        "import tricky_treats as tt; tt.loads(tt.dumps(tt.new_game(2, seed=1)))"
    ),
}
"""What each fresh interpreter runs, by the label printed."""

BASELINE = "import attrs, cattrs, pluggy"
EMPTY = "python (nothing imported)"
TARGET = 1.5


def child_seconds(code: str) -> float:
    """The CPU seconds (user and system) of a fresh interpreter that runs ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def rounds(count: int) -> dict[str, list[float]]:
    """Per command, its CPU seconds in each round; the rounds alternate the commands."""
    found: dict[str, list[float]] = {label: [] for label in COMMANDS}
    for number in range(count):
        order = list(COMMANDS.items())
        if number % 2:
            order.reverse()  # neither end of a round always goes first
        for label, code in order:
            found[label].append(child_seconds(code))
    return found


def line(label: str, samples: Sequence[float], empty: float) -> float:
    """Print a command's figure in milliseconds, less the empty interpreter; return it."""
    median = statistics.median(samples) - empty
    spread = f"({(min(samples) - empty) * 1e3:.1f} to {(max(samples) - empty) * 1e3:.1f})"
    print(f"  {label:<42} {median * 1e3:7.1f} ms {spread}")
    return median


def main(argv: Sequence[str] | None = None) -> int:
    """Time the imports in fresh interpreters and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=21, help="rounds of every command (21)")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    args = parser.parse_args(argv)
    count = 3 if args.quick else args.rounds
    child_seconds("import tricky_treats, attrs, cattrs, pluggy")  # files into the page cache
    found = rounds(count)
    empty = statistics.median(found[EMPTY])
    print(f"CPU time of a fresh interpreter, median of {count} alternating rounds (spread),")
    print(f"less the interpreter alone ({empty * 1e3:.1f} ms):")
    figures = {
        label: line(label, samples, empty) for label, samples in found.items() if label != EMPTY
    }
    ratio = figures["import tricky_treats"] / figures[BASELINE]
    verdict = "ok" if ratio <= TARGET else "OVER"
    print(f"import tricky_treats / {BASELINE}: {ratio:.2f}x (target at most {TARGET}x) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

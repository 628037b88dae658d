"""The worst cases of issue 27's plugin and command-line items: time, memory and outcome.

Each case runs in a fresh child process (once to warm up, unless ``--cold``, then timed,
then once more under ``tracemalloc``), capped at ``--cap-mb`` of address space and
``--timeout`` seconds, so that a case the code does not bound (on an older version) ends in
``MemoryError`` or a timeout instead of taking the machine. For each case it prints the wall
time of the case, the peak of memory Python allocated during it (``tracemalloc``) and how it
ended: ``ok``, the library's error (``PluginError``, ...), or anything else (a bug).

    python benchmarks/bench_limits.py            # every case
    python benchmarks/bench_limits.py dumps-indent search-budget
"""

from __future__ import annotations

import argparse
import functools
import json
import resource
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable

import tricky_treats as tt
from tricky_treats.host import Table


def _variant(name: str, plugin: object) -> tt.Variant:
    return tt.Variant(name=name, version="0", title=name, description=name, plugin=plugin)


def _scorer(function: Callable[[tt.GameState, int], object]) -> tt.Variant:
    class Scoring:
        @tt.hookimpl
        def tricky_treats_scoring(self) -> object:
            return function

    return _variant("scorer", Scoring())


def _board(change: Callable[[tt.Board], tt.Board]) -> tt.Variant:
    class Board:
        @tt.hookimpl
        def tricky_treats_board(self, board: tt.Board) -> tt.Board:
            return change(board)

    return _variant("board", Board())


def _exits(state: tt.GameState, player: int) -> object:
    raise SystemExit(3)


def _scorer_exits() -> None:
    tt.dumps(tt.new_game(2, seed=1, variants=[_scorer(_exits)]), player=0)


def _deal_exits() -> None:
    class Deal:
        @tt.hookimpl
        def tricky_treats_deal(self) -> object:
            raise SystemExit(4)

    tt.new_game(2, seed=1, variants=[_variant("deal", Deal())])


def _huge_points() -> None:
    scorer = _scorer(lambda s, p: [tt.ExtraScore("x", 10**5000)])
    tt.dumps(tt.new_game(2, seed=1, variants=[scorer]), player=0)


def _surrogate_label() -> None:
    table = Table(
        tt.new_game(2, seed=1, variants=[_scorer(lambda s, p: [tt.ExtraScore("\ud800", 1)])])
    )
    table.connect(table.credential(0)).text.encode()


@functools.cache
def _lines() -> list[tt.ExtraScore]:
    """The 100,000 lines, made once: making them is the plugin's cost, not the library's."""
    return [tt.ExtraScore(f"line {i}", 1) for i in range(100_000)]


def _many_lines() -> None:
    lines = _lines()
    text = tt.dumps(tt.new_game(2, seed=1, variants=[_scorer(lambda s, p: lines)]), player=0)
    tt.loads_view(text)


def _more_mean_houses() -> None:
    import attrs

    grow = _board(lambda b: attrs.evolve(b, mean_houses=(*b.mean_houses, b.mean_houses[0])))
    tt.loads_view(tt.dumps(tt.new_game(2, seed=1, variants=[grow]), player=0))


def _tile_twice() -> None:
    import attrs

    copy = _board(
        lambda b: attrs.evolve(b, secret_tiles=(b.mean_houses[0].tile,) * len(b.secret_tiles))
    )
    tt.new_game(4, seed=1, variants=[copy])


def _conformance() -> None:
    from tricky_treats.testing import check_variant

    check_variant(["family"], players=[2, 3, 4], games=2)


def _cli(*argv: str) -> Callable[[], None]:
    def run() -> None:
        from tricky_treats.cli import main

        try:
            status = main(list(argv))
        except SystemExit as exc:  # argparse's own refusal
            status = exc.code  # type: ignore[assignment]
        if status != 0:
            raise _RefusedError(f"exit status {status}")

    return run


class _RefusedError(Exception):
    """The command line refused, with a usage error."""


def _billion_games() -> None:
    """Start the run, take its first result (the pool's start included), stop it."""
    from tricky_treats.simulation import simulate

    games = simulate(10**9, ["random", "random"], seed=1, jobs=2, batch_size=1)
    next(games)
    games.close()  # type: ignore[attr-defined]


def _last_seed() -> None:
    from tricky_treats.simulation import simulate

    list(simulate(3, ["random", "random"], seed=2**128 - 1, backend="inline"))


def _many_jobs() -> None:
    from tricky_treats.simulation import simulate

    list(simulate(1, ["random", "random"], seed=1, jobs=100_000))


def _search_budget() -> None:
    from tricky_treats.agents import make_agent

    make_agent("search:1000000")


def _dumps_indent() -> None:
    tt.dumps(tt.new_game(4, seed=1), indent=10**6)


def _event_seat() -> None:
    event = tt.event_from_json({"type": "passed", "player": 10**4000})
    tt.describe_event(event, ["Ann", "Bo"])


CASES: dict[str, Callable[[], None]] = {
    "10 scorer-exits": _scorer_exits,
    "10 deal-exits": _deal_exits,
    "11 huge-points": _huge_points,
    "11 surrogate-label": _surrogate_label,
    "12 many-lines": _many_lines,
    "12 more-mean-houses": _more_mean_houses,
    "13 tile-twice": _tile_twice,
    "14 check-variant-family": _conformance,
    "18 play-players": _cli("play", "--players", "10000000"),
    "18 replay-dev-zero": _cli("replay", "/dev/zero"),
    "18 play-load-dev-zero": _cli("play", "--load", "/dev/zero"),
    "18 simulate-billion": _billion_games,
    "18 simulate-last-seed": _last_seed,
    "18 simulate-jobs": _many_jobs,
    "18 search-budget": _search_budget,
    "18 dumps-indent": _dumps_indent,
    "18 event-seat": _event_seat,
}


def _outcome(case: Callable[[], None]) -> str:
    try:
        case()
    except tt.TrickyTreatsError as exc:
        return f"library error: {type(exc).__name__}"
    except _RefusedError as exc:
        return f"refused ({exc})"
    except BaseException as exc:  # what the issue is about: anything else is a bug
        return f"NOT A LIBRARY ERROR: {type(exc).__name__}"
    return "ok"


def _threads_gone() -> None:
    """Wait (a second at most) for the threads a closed pool leaves to end.

    While another thread runs, ``simulate`` spawns its workers instead of forking them (see
    ``simulation._fork_is_safe``): a program that starts one run forks.
    """
    deadline = time.monotonic() + 1
    while threading.active_count() > 1 and time.monotonic() < deadline:
        time.sleep(0.01)


def _run_case(name: str, warm: bool) -> dict[str, object]:
    """Time the case, then run it again under tracemalloc for its peak of memory.

    ``warm`` runs it once first, as a running program would have: the imports a case makes
    on first use (rich, multiprocessing, ...) are not part of its cost.
    """
    case = CASES[name]
    if warm:
        _outcome(case)
        _threads_gone()
    start = time.perf_counter()
    outcome = _outcome(case)
    seconds = time.perf_counter() - start
    _threads_gone()
    tracemalloc.start()
    _outcome(case)
    peak = tracemalloc.get_traced_memory()[1]
    return {"seconds": seconds, "peak_mb": peak / 1e6, "outcome": outcome}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help="case names, or parts of them (default: all)")
    parser.add_argument("--cap-mb", type=int, default=2048, help="address space per case")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per case")
    parser.add_argument("--cold", action="store_true", help="no warm-up run before timing")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: a few cases, no warm-up; the figures mean nothing
        args.cases = args.cases or list(CASES)[:3]
        args.cold = True
    if args.child:
        print(json.dumps(_run_case(args.child, warm=not args.cold)))
        return
    chosen = [n for n in CASES if not args.cases or any(c in n for c in args.cases)]
    print(f"{'case':28} {'time':>10} {'peak MB':>9}  outcome")
    broken = []
    for name in chosen:

        def cap(limit: int = args.cap_mb * 1024 * 1024) -> None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        try:
            child = subprocess.run(
                [sys.executable, __file__, "--child", name, *(["--cold"] if args.cold else [])],
                capture_output=True,
                text=True,
                timeout=args.timeout,
                preexec_fn=cap,
                check=False,
            )
        except subprocess.TimeoutExpired:
            print(f"{name:28} {'>' + str(args.timeout) + ' s':>10} {'?':>9}  timed out")
            continue
        lines = child.stdout.strip().splitlines()
        try:
            result = json.loads(lines[-1])
        except (IndexError, json.JSONDecodeError):
            last = (child.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{name:28} {'?':>10} {'?':>9}  the process failed: {last[:60]}")
            broken.append(name)
            continue
        seconds = result["seconds"]
        shown = f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"
        print(f"{name:28} {shown:>10} {result['peak_mb']:9.1f}  {result['outcome']}")
    if args.quick and broken:
        sys.exit(f"the benchmark itself is broken: {', '.join(broken)}")


if __name__ == "__main__":
    main()

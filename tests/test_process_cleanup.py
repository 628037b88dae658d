"""Every process a command starts ends with it, and a command that cannot write says so
(issue 37): pool workers of ``simulate`` and ``report`` end when their parent is ended by
SIGTERM or SIGKILL (14 orphans were found), ``simulate --output`` on a full disk gives a clear
error, and ``ladder`` rates its games without keeping them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.requirements import needs_extra
from tricky_treats import ladder
from tricky_treats.cli import main
from tricky_treats.simulation import simulate

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc: the process table of Linux"
)

_DEADLINE = 20.0
"""Seconds a test waits for workers to appear, and then to be gone: bounded, never for ever."""


def _children(parent: int) -> set[int]:
    """The processes whose parent is ``parent``, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its ")".
        fields = stat.rpartition(")")[2].split()
        if int(fields[1]) == parent:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def _workers_of(command: list[str], count: int) -> tuple[subprocess.Popen[bytes], set[int]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tricky_treats", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + _DEADLINE
    workers: set[int] = set()
    while time.monotonic() < deadline:
        workers = {pid for pid in _children(process.pid) if _alive(pid)}
        if len(workers) >= count:
            return process, workers
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    process.wait()
    pytest.fail(f"{command}: {len(workers)} of {count} workers started in {_DEADLINE} s")


def _gone(workers: set[int]) -> set[int]:
    """The workers still running once the deadline has passed (none, if all ended)."""
    deadline = time.monotonic() + _DEADLINE
    left = set(workers)
    while left and time.monotonic() < deadline:
        left = {pid for pid in left if _alive(pid)}
        time.sleep(0.05)
    for pid in left:  # the test must not leave them either
        os.kill(pid, signal.SIGKILL)
    return left


SIMULATE = ["simulate", "--games", "1000000", "--agents", "greedy,greedy", "--jobs", "2",
            "--quiet", "--seed", "1"]  # fmt: skip


@linux_only
@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_simulate_workers_end_with_their_parent(ending: signal.Signals) -> None:
    process, workers = _workers_of(SIMULATE, 2)
    process.send_signal(ending)
    process.wait(timeout=_DEADLINE)
    assert _gone(workers) == set()


@linux_only
@needs_extra("report")
@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_report_workers_end_with_their_parent(ending: signal.Signals, tmp_path: Path) -> None:
    command = ["report", "--games", "1000000", "--jobs", "2", "--players", "2",
               "-o", str(tmp_path / "report.html")]  # fmt: skip
    process, workers = _workers_of(command, 2)
    process.send_signal(ending)
    process.wait(timeout=_DEADLINE)
    assert _gone(workers) == set()


@linux_only
@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_ladder_workers_end_with_their_parent(ending: signal.Signals) -> None:
    command = ["ladder", "--bots", "random,greedy", "--games", "1000000000", "--jobs", "2"]
    process, workers = _workers_of(command, 2)
    process.send_signal(ending)
    process.wait(timeout=_DEADLINE)
    assert _gone(workers) == set()


_SPAWNING_SIMULATE = (
    "import threading, time\n"
    "from tricky_treats.simulation import simulate\n"
    # A thread of the program's own: the pool then spawns its workers (a fresh Python that
    # imports the library before it runs a line of the worker) instead of forking them.
    "threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()\n"
    "for _ in simulate(10**6, ['greedy', 'greedy'], seed=1, backend='pool', jobs=2):\n"
    "    pass\n"
)


def _spawned_workers(parent: int) -> set[int]:
    """The children of ``parent`` that are spawned pool workers (not its resource tracker)."""
    found = set()
    for pid in _children(parent):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.add(pid)
    return found


@linux_only
def test_workers_whose_parent_is_killed_while_they_start_end() -> None:
    """The parent-death signal is asked for by the worker once it runs: a parent killed
    (SIGKILL) before that must be seen too, or the worker would wait for batches for ever.

    A program with a thread of its own makes ``simulate`` spawn its pool's workers, which
    import the library first (about 0.4 s of CPU); the parent is killed as soon as both
    have appeared, while they are still starting, and both must then end.
    """
    process = subprocess.Popen(
        [sys.executable, "-c", _SPAWNING_SIMULATE],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + _DEADLINE
    workers: set[int] = set()
    try:
        while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
            workers = _spawned_workers(process.pid)
            time.sleep(0.002)
    finally:
        process.kill()
        process.wait()
    assert len(workers) == 2, f"{len(workers)} of 2 spawned workers seen in {_DEADLINE} s"
    assert _gone(workers) == set()


def test_a_pool_stopped_early_leaves_no_worker() -> None:
    """Closing the results of a pool ends its workers at once (what ``report`` now does)."""
    linux = sys.platform.startswith("linux")
    others = _children(os.getpid()) if linux else set()  # other tests' children, not the pool's
    results = simulate(10_000, ["greedy", "greedy"], seed=1, backend="pool", jobs=2)
    next(iter(results))
    before = _children(os.getpid()) - others if linux else set()
    results.close()  # type: ignore[attr-defined]
    if sys.platform.startswith("linux"):
        assert before
        assert _gone(before & _children(os.getpid())) == set()


# -- a full disk ----------------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a full disk")
@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_simulate_output_on_a_full_disk_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str
) -> None:
    """It printed an OSError traceback (the file's buffer is written when it is closed)."""
    full = tmp_path / f"full{suffix}"
    full.symlink_to("/dev/full")
    status = main(["simulate", "--games", "3", "--agents", "greedy,random", "--seed", "1",
                   "--output", str(full), "--quiet"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2
    assert f"tricky-treats: cannot write {full}: No space left on device" in " ".join(err.split())
    assert "Traceback" not in err


# -- the ladder's memory --------------------------------------------------------------------------


def test_the_ladder_rates_games_it_does_not_keep(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ladder --games 10**9`` grew from 344 to 800 MiB in 10 s: every match was listed up
    front and every result kept. Now the matches are made and the games rated as they are
    played: a billion games per pair start at once and only a few exist at any time."""
    made: list[object] = []

    def play(
        bots: tuple[str, str], seed: int, game_name: str = ladder.GAME, settings: object = None
    ) -> ladder.LadderGame:
        game = ladder.LadderGame(bots, seed, float(seed % 2), (10, 10), (0.01, 0.02))
        made.append(game)
        return game

    monkeypatch.setattr(ladder, "_play", play)
    games = ladder.ladder_games(["random", "greedy"], 10**9, seed=0)
    first = [next(games) for _ in range(6)]
    assert [g.bots for g in first[:2]] == [("random", "greedy"), ("greedy", "random")]
    assert len(made) == 6  # lazily: nothing played beyond what was asked for


def test_rating_an_iterator_equals_rating_its_list() -> None:
    """``rate`` counts the games once; the ratings are those of the list of the same games."""
    games = [
        ladder.LadderGame(("a", "b"), k, [1.0, 0.5, 0.0, 1.0][k % 4], (9, 9), (0.1, 0.2))
        for k in range(40)
    ] + [ladder.LadderGame(("c", "a"), k, 0.0, (9, 9), (0.1, 0.2)) for k in range(10)]
    listed = ladder.rate(games, resamples=50, seed=4)
    counted = ladder.rate(iter(games), resamples=50, seed=4)
    assert listed == counted
    by_bot = {r.bot: r for r in listed}
    assert by_bot["a"].games == 50
    assert by_bot["a"].score == pytest.approx((40 * 0.625 + 10 * 1.0) / 50)
    assert by_bot["b"].low <= by_bot["b"].elo <= by_bot["b"].high


def test_the_ladder_command_still_prints_its_game_count(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["ladder", "--bots", "random,greedy", "--games", "2", "--resamples", "5"])
    out = capsys.readouterr().out
    assert status == 0
    assert "2 games in " in out

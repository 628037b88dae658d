"""The progress of long commands (issue 22): a bar on a terminal, plain lines elsewhere, both
with an estimate of the time left, on standard error."""

from __future__ import annotations

import io
import itertools
import sys
import time

import pytest

from tricky_treats.cli import main

LABEL = "Playing random, random on 1 process(es)"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _simulate(
    games: int, monkeypatch: pytest.MonkeyPatch, *options: str, tick: float | None = None
) -> None:
    """Run ``tricky-treats simulate``; the clock moves ``tick`` seconds each time it is read."""
    if tick is not None:
        clock = itertools.count(tick, tick)
        monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    argv = ["simulate", "--games", str(games), "--agents", "random,random", "--jobs", "1"]
    assert main([*argv, "--seed", "1", *options]) == 0


def test_plain_lines_at_every_tenth_with_the_time_left(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _simulate(40, monkeypatch)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == f"{LABEL}: 40 games..."
    assert [line.split(": ")[1].split()[0] for line in lines[1:]] == [
        f"{n}/40" for n in range(4, 41, 4)
    ]
    assert all("left" in line for line in lines[1:-1])
    assert "left" not in lines[-1]


@pytest.mark.parametrize(
    ("tick", "first", "middle", "last"),
    [
        (2.0, "4/40 in 2s, about 18s left", "20/40 in 10s, about 10s left", "40/40 in 20s"),
        (100.0, "4/40 in 1m40s, about 15m00s left", "20/40 in 8m20s, about 8m20s left",
         "40/40 in 16m40s"),
        (1000.0, "4/40 in 16m40s, about 2h30m left", "20/40 in 1h23m, about 1h23m left",
         "40/40 in 2h46m"),
    ],
)  # fmt: skip
def test_the_estimate_is_the_mean_time_per_step_times_the_steps_left(
    tick: float,
    first: str,
    middle: str,
    last: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The clock is read once per line: the k-th line is ``k * tick`` seconds in."""
    _simulate(40, monkeypatch, tick=tick)
    lines = capsys.readouterr().err.splitlines()
    assert lines[1] == f"{LABEL}: {first}"
    assert lines[5] == f"{LABEL}: {middle}"  # half way: as long left as gone
    assert lines[-1] == f"{LABEL}: {last}"


def test_a_bar_with_eta_on_a_terminal_and_nothing_when_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    _simulate(3, monkeypatch)
    shown = terminal.getvalue()
    assert LABEL in shown
    assert "eta" in shown
    assert "games..." not in shown  # the bar, not the plain lines
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    _simulate(3, monkeypatch, "--quiet")
    assert quiet.getvalue() == ""
    assert capsys.readouterr().err == ""

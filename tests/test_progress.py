"""The progress of long commands (issue 22): a bar on a terminal, plain lines elsewhere, both
with an estimate of the time left, on standard error."""

from __future__ import annotations

import io

from tricky_treats.cli._progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_at_every_tenth_with_the_time_left() -> None:
    stream = io.StringIO()
    with Progress(40, "Playing search, greedy", stream=stream) as progress:
        for _ in range(40):
            progress.advance()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "Playing search, greedy: 40 games..."
    assert [line.split(": ")[1].split()[0] for line in lines[1:]] == [
        f"{n}/40" for n in range(4, 41, 4)
    ]
    assert all("left" in line for line in lines[1:-1])
    assert "left" not in lines[-1]


def test_the_estimate_is_the_mean_time_per_step_times_the_steps_left() -> None:
    progress = Progress(10, "Playing")
    progress.done = 4
    assert progress.line(8.0) == "Playing: 4/10 in 8s, about 12s left"
    progress.done = 1
    assert progress.line(100.0) == "Playing: 1/10 in 1m40s, about 15m00s left"
    progress.done = 2
    assert progress.line(1000.0) == "Playing: 2/10 in 16m40s, about 1h06m left"


def test_a_bar_with_eta_on_a_terminal_and_nothing_when_quiet() -> None:
    terminal = _Terminal()
    with Progress(3, "Playing", stream=terminal) as progress:
        for _ in range(3):
            progress.advance()
    shown = terminal.getvalue()
    assert "Playing" in shown
    assert "eta" in shown
    assert "games..." not in shown  # the bar, not the plain lines
    quiet = _Terminal()
    with Progress(3, "Playing", stream=quiet, quiet=True) as progress:
        progress.advance()
    assert quiet.getvalue() == ""
    assert progress.done == 1

"""The progress of a long command: how far it is and about how long is left, on standard error.

On a terminal, a rich progress bar (the ``cli`` extra) that clears itself at the end;
elsewhere (a log file, a pipe, no rich), a plain line at every tenth of the way. Standard
output keeps only the command's results.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO

_PLAIN_STEPS = 10


class Progress:
    """Progress over ``total`` steps (``advance`` once per game), as a context manager."""

    def __init__(
        self, total: int, label: str, *, quiet: bool = False, stream: TextIO | None = None
    ) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._quiet = quiet
        self._start = time.perf_counter()
        self._next_line = 1
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        self._start = time.perf_counter()
        if self._quiet:
            return self
        if self._stream.isatty():
            try:
                from rich.console import Console
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    TextColumn,
                    TimeElapsedColumn,
                    TimeRemainingColumn,
                )
                from rich.progress import Progress as Bar
            except ModuleNotFoundError:  # the cli extra is not installed: plain lines
                pass
            else:
                self._bar = Bar(
                    # The label is shown as written: never a format string nor markup.
                    TextColumn("{task.description}", markup=False),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    TextColumn("eta"),
                    TimeRemainingColumn(),
                    console=Console(file=self._stream),
                    transient=True,
                )
                self._bar.__enter__()
                self._task = self._bar.add_task(self.label, total=self.total)
                return self
        print(f"{self.label}: {self.total} games...", file=self._stream, flush=True)
        return self

    def advance(self) -> None:
        """One more step done."""
        self.done += 1
        if self._quiet:
            return
        if self._bar is not None:
            self._bar.advance(self._task)
            return
        if self.done * _PLAIN_STEPS >= self._next_line * self.total:
            self._next_line = self.done * _PLAIN_STEPS // self.total + 1
            print(self.line(time.perf_counter() - self._start), file=self._stream, flush=True)

    def line(self, elapsed: float) -> str:
        """The plain progress line after ``elapsed`` seconds."""
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        estimate = f", about {_duration(left)} left" if self.done < self.total else ""
        return f"{self.label}: {self.done}/{self.total} in {_duration(elapsed)}{estimate}"

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, error, traceback)


def _duration(seconds: float) -> str:
    """``seconds`` as a person reads it: ``42s``, ``3m05s``, ``1h02m``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"

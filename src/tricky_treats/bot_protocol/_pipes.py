"""A bot's pipes: its output read as lines against deadlines, its input written without blocking.

Both ends the host holds are non-blocking, and every wait is a ``poll`` with a deadline, so a
bot that sleeps, floods or stops reading never blocks the host; a line is read only up to its
limit, and the bot's error output is drained as it comes, its last bytes kept.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from tricky_treats.bot_protocol.process import FailureKind

__all__: list[str] = []

_NOTE_CHARACTERS = 200
_ERROR_TAIL_BYTES = 2000
_READS_AT_ONCE = 16
"""Chunks of error output read in one go: a bot writing without end must not hold the host."""


@attrs.frozen
class _Event:
    kind: FailureKind
    detail: str


class _Pipes:
    """The bot's output read as lines against deadlines; its error output kept as a tail."""

    def __init__(self, process: subprocess.Popen[bytes], line_bytes: int) -> None:
        assert process.stdin is not None
        assert process.stdout is not None
        assert process.stderr is not None
        self.stdin = process.stdin.fileno()
        self.stdout = process.stdout.fileno()
        self.stderr: int | None = process.stderr.fileno()
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.line_bytes = line_bytes
        self.buffer = bytearray()
        self.ended = False
        self.error_tail = bytearray()

    def _drain_errors(self) -> None:
        if self.stderr is None:
            return
        try:
            for _ in range(_READS_AT_ONCE):
                chunk = os.read(self.stderr, 65536)
                if not chunk:
                    self.stderr = None  # its end: stop polling it
                    return
                self.error_tail += chunk
                del self.error_tail[:-_ERROR_TAIL_BYTES]
        except BlockingIOError:
            pass

    def _wait(self, deadline: float, write: bool = False) -> bool:
        """Wait for the bot's output (or room in its input); False once ``deadline`` passes."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        poller = select.poll()
        if write:
            poller.register(self.stdin, select.POLLOUT)
        elif not self.ended:
            poller.register(self.stdout, select.POLLIN)
        if self.stderr is not None:
            poller.register(self.stderr, select.POLLIN)
        if self.stderr is None and self.ended and not write:
            return False  # nothing left to wait for
        poller.poll(max(1, int(remaining * 1000 + 0.999)))
        self._drain_errors()
        return True

    def _fill(self) -> None:
        """Read what the bot has written, up to one line over the limit."""
        try:
            while len(self.buffer) <= self.line_bytes:
                chunk = os.read(self.stdout, 65536)
                if not chunk:
                    self.ended = True
                    return
                self.buffer += chunk
        except BlockingIOError:
            pass

    def read_line(self, deadline: float) -> bytes | _Event:
        """The next whole line, without its end; or what stopped it."""
        while True:
            end = self.buffer.find(b"\n", 0, self.line_bytes + 1)
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return line[:-1] if line.endswith(b"\r") else line
            if len(self.buffer) > self.line_bytes:
                return _Event("long-line", f"wrote a line longer than {self.line_bytes} bytes")
            if self.ended:
                if self.buffer:
                    return _Event("exited", f" in mid-line, after {_shown(self.buffer)}")
                return _Event("exited", "")
            self._fill()
            if self.ended or b"\n" in self.buffer or len(self.buffer) > self.line_bytes:
                continue
            if not self._wait(deadline):
                return _Event("timeout", "")

    def pending_lines(self, limit: int) -> list[bytes] | _Event:
        """The whole lines the bot has already written (none waited for)."""
        lines: list[bytes] = []
        taken = 0
        while True:
            self._fill()
            self._drain_errors()
            end = self.buffer.find(b"\n", 0, self.line_bytes + 1)
            if end < 0:
                if len(self.buffer) > self.line_bytes:
                    return _Event("long-line", f"wrote a line longer than {self.line_bytes} bytes")
                return lines
            taken += end + 1
            if taken > limit:
                return _Event("garbage", f"wrote more than {limit} bytes while no move was asked")
            lines.append(bytes(self.buffer[:end]).removesuffix(b"\r"))
            del self.buffer[: end + 1]

    def write(self, data: bytes, deadline: float) -> _Event | None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.stdin, view) :]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                return _Event("exited", "")
            if not self._wait(deadline, write=True):
                return _Event("not-reading", "did not read its input")
        return None

    def errors(self) -> str:
        self._drain_errors()
        text = self.error_tail.decode("utf-8", "replace").strip()
        if len(text) > 300:  # the end of it: where a traceback names the error
            text = "..." + text[-297:]
        return "" if not text else f"; its last error output: {text!r}"


def _cut(text: str, limit: int = _NOTE_CHARACTERS) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _shown(line: bytes | bytearray) -> str:
    """A line of the bot's as the log shows it: decoded, cut short, quoted."""
    return repr(_cut(bytes(line[: _NOTE_CHARACTERS * 4]).decode("utf-8", "replace")))


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time of ``pid`` and its waited-for children, from ``/proc`` (Linux)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    ticks = sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")

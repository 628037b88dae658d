"""One running bot program: started within its limits, asked for moves, told the end, ended.

``BotProcess`` speaks the host's side of the bot protocol (``docs/bot-protocol.md``) to one
program. Its input and output are pipes read and written without blocking, against a
deadline, and with a bound on the length of a line, so no bot can stall the host or fill its
memory; its error output is drained as it comes, and its last lines are kept to explain a
failure. The program runs in a session of its own, which ``kill()`` ends as a whole.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import attrs

from tricky_treats.actions import Action, parse_action
from tricky_treats.bot_protocol._pipes import (
    _cpu_seconds,
    _cut,
    _Event,
    _kill_group,
    _Pipes,
    _shown,
)
from tricky_treats.bot_protocol.limits import BotLimits
from tricky_treats.errors import ConfigurationError, InvalidActionError, brief

__all__ = [
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "BotAnswer",
    "BotFailure",
    "BotProcess",
    "FailureKind",
]

PROTOCOL_VERSION = 1
"""The bot protocol's version: the newest this host speaks."""
PROTOCOL_VERSIONS: tuple[int, ...] = (1,)
"""Every version this host speaks, as ``hello`` lists them."""

FailureKind = Literal[
    "start", "version", "timeout", "exited", "garbage", "long-line", "not-reading", "illegal"
]
"""What went wrong: the bot did not start or answer ``hello`` (``start``), speaks another
version (``version``), gave no answer in time (``timeout``), ended (``exited``), wrote a line
that is not the protocol's (``garbage``) or longer than its limit (``long-line``), did not read
its input (``not-reading``), or answered an action that is not legal now (``illegal``)."""

_NOTES_KEPT = 8
_BETWEEN_MOVES_BYTES = 1024 * 1024
"""The most a bot may write while no move is asked before it counts as garbage."""
_QUIT_SECONDS = 0.5
"""How long a bot told ``quit`` may take to exit before its group is killed."""
_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ")
"""The variables a bot gets from the host's environment: no secret of the host's."""
_SANDBOX = Path(__file__).with_name("_sandbox.py")
_EXIT_SECONDS = 0.2
"""How long a bot whose output has ended is given to exit before it is said to have closed it."""
_EXITED = os.WEXITED | os.WNOWAIT
"""``waitid`` flags: wait for the exit, but leave the process to be collected (and read)."""


@attrs.frozen
class BotFailure:
    """Why a bot gave no legal action: the host plays a fallback for the move."""

    kind: FailureKind
    """What went wrong (``FailureKind``)."""
    message: str
    """What went wrong, for the log: it names the bot's own output, cut short."""

    def __str__(self) -> str:
        return self.message


@attrs.frozen
class BotAnswer:
    """A bot's answer to one request for a move: a legal action, or a failure."""

    action: Action | None
    """The legal action the bot chose; None when it failed."""
    failure: BotFailure | None
    """Why it gave no legal action; None when it did."""
    seconds: float
    """The wall-clock seconds from sending the request to reading the answer (or failing)."""
    notes: tuple[str, ...] = ()
    """The bot's last ``info`` lines, and lines it sent out of turn, each cut short."""


def program_path(command: Sequence[str]) -> str:
    """The program ``command`` runs, found as the bot will look for it; else an error.

    Raises ``ConfigurationError`` for an empty command, a program that cannot be found, or a
    system other than Linux, where a bot's limits cannot be enforced.
    """
    if not sys.platform.startswith("linux"):
        raise ConfigurationError(
            f"exec bots run on Linux only, where their limits hold; this is {sys.platform}"
        )
    if isinstance(command, str) or not command or not all(isinstance(a, str) for a in command):
        raise ConfigurationError(
            f"a bot's command is a non-empty list of words, got {brief(command)}"
        )
    program = command[0]
    found = shutil.which(program, path=os.environ.get("PATH", os.defpath))
    if found is None:
        where = "" if os.sep in program else " on PATH"
        raise ConfigurationError(f"no program {brief(program)}{where} to run as a bot")
    return found


class BotProcess:
    """One bot program playing one seat of one game, over the bot protocol.

    ``start()`` starts it and reads its handshake; ``ask()`` sends it a player record and
    the legal actions and returns its answer; ``finish()`` announces the end and ends it;
    ``kill()`` ends it at once. It never raises for what the bot does: a failure is a
    ``BotFailure`` (in ``BotAnswer.failure``), and a bot whose output can no longer be
    trusted (it hung, crashed, or wrote what is no answer) is killed, so that ``alive`` is
    False. An illegal action leaves it running.

    Thread-safe: one call at a time holds the process, and ``kill()``, from any thread,
    ends a call that is waiting. From asyncio, call it through ``asyncio.to_thread``.

    ``die_with_host``: whether the kernel kills the bot when the thread that started it ends
    (``PR_SET_PDEATHSIG``: a host killed with ``kill -9`` leaves no bot behind). The kernel
    ties the bot to that thread, not to the host's process, so by default (None) only a bot
    started from the main thread is; True says the thread that starts it lives as long as
    the host (one of a pool of threads kept for bots, as the web app's), False never.
    """

    def __init__(
        self,
        command: Sequence[str],
        limits: BotLimits | None = None,
        *,
        transcript: Callable[[str, str], None] | None = None,
        die_with_host: bool | None = None,
    ) -> None:
        self.command: tuple[str, ...] = tuple(command)
        program_path(self.command)
        self.limits = limits if limits is not None else BotLimits()
        self.transcript = transcript
        """Called with ``(">", line)`` for each line sent and ``("<", line)`` for each read."""
        self.die_with_host = die_with_host
        self.name: str | None = None
        """The name the bot gave in its handshake, if any."""
        self.author: str | None = None
        """The author the bot gave in its handshake, if any."""
        self.version: int | None = None
        """The protocol version agreed in the handshake."""
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._pipes: _Pipes | None = None
        self._killed = False
        self._cpu = 0.0
        self._finalizer: weakref.finalize[..., BotProcess] | None = None

    def __repr__(self) -> str:
        return f"BotProcess({list(self.command)!r}, pid={self.pid})"

    @property
    def pid(self) -> int | None:
        """The bot's process id, which is also its process group's and session's."""
        return None if self._process is None else self._process.pid

    @property
    def alive(self) -> bool:
        """Whether it has started and may be asked for a move."""
        return self._pipes is not None and not self._killed and not self._pipes.ended

    @property
    def cpu_seconds(self) -> float:
        """The CPU time the bot's process has used (Linux; 0 elsewhere)."""
        if self._process is not None and self._process.returncode is None:
            now = _cpu_seconds(self._process.pid)
            if now is not None:
                self._cpu = now
        return self._cpu

    # -- starting ------------------------------------------------------------------------------

    def start(self) -> BotFailure | None:
        """Start the bot and read its handshake; None when it is ready, else why not.

        Does nothing for a bot already started. A bot once ended does not start again.
        """
        with self._lock:
            if self._process is not None or self._killed:
                return None if self.alive else BotFailure("exited", "the bot has ended")
            return self._start()

    def _start(self) -> BotFailure | None:
        limits = self.limits
        settings = {
            "memory_bytes": limits.memory_bytes,
            "cpu_seconds": limits.process_cpu_seconds,
            "file_bytes": limits.file_bytes,
            "open_files": limits.open_files,
            "processes": limits.processes,
            # Killed if this process dies: the kernel ties it to the thread that starts the
            # bot, so only from a thread that lives as long as the host (die_with_host).
            "parent": os.getpid() if self._tied() else 0,
        }
        environment = {k: os.environ[k] for k in _ENVIRONMENT if k in os.environ}
        try:
            process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(_SANDBOX), json.dumps(settings), *self.command],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env=environment,
            )
        except OSError as exc:
            return BotFailure("start", f"could not start {self.command[0]!r}: {exc}")
        self._process = process
        self._pipes = _Pipes(process, limits.line_bytes)
        # However the object goes (unfinished, or at exit), the bot's group goes with it.
        self._finalizer = weakref.finalize(self, _discard, process)
        if self._killed:  # kill() came while it was starting
            return self._failed(BotFailure("exited", "was ended by the host"))
        deadline = time.monotonic() + limits.startup_seconds
        hello = "hello " + " ".join(map(str, PROTOCOL_VERSIONS)) + "\n"
        event = self._send(hello, deadline)
        while event is None:
            line = self._pipes.read_line(deadline)
            if isinstance(line, _Event):
                event = line
                break
            text, failure = self._decoded(line)
            if failure is None and self.transcript is not None:
                self.transcript("<", text)
            if failure is not None:
                return self._failed(failure)
            word, _, rest = text.strip().partition(" ")
            if not word:
                continue  # a blank line
            if word == "name":
                self.name = _cut(rest.strip(), 100)
            elif word == "author":
                self.author = _cut(rest.strip(), 100)
            elif word == "info":
                pass
            elif word == "ready":
                return self._agree(rest.strip())
            else:
                return self._failed(
                    BotFailure("garbage", f"answered hello with {_shown(line)}, not 'ready 1'")
                )
        if event.kind == "timeout":
            failure = BotFailure(
                "start", f"did not answer hello with ready in {limits.startup_seconds:g} s"
            )
        else:
            failure = BotFailure("start", f"{self._ending()}{event.detail} before it was ready")
        failure = self._failed(failure, with_errors=True)
        if limits.processes == 0:  # the likeliest reason a bot that runs elsewhere fails here
            failure = BotFailure(
                failure.kind,
                f"{failure.message} (a bot may start no process: if its command is a launcher, "
                "a shim or a script that starts the bot, name the bot's program itself)",
            )
        return failure

    def _tied(self) -> bool:
        """Whether the bot started now dies with the thread that starts it (and the host)."""
        if self.die_with_host is None:
            return threading.current_thread() is threading.main_thread()
        return self.die_with_host

    def _send(self, lines: str, deadline: float) -> _Event | None:
        assert self._pipes is not None
        if self.transcript is not None:
            for line in lines.splitlines():
                self.transcript(">", line)
        return self._pipes.write(lines.encode(), deadline)

    def _agree(self, version: str) -> BotFailure | None:
        if version.isascii() and version.isdigit() and int(version) in PROTOCOL_VERSIONS:
            self.version = int(version)
            return None
        spoken = " or ".join(map(str, PROTOCOL_VERSIONS))
        return self._failed(
            BotFailure(
                "version",
                f"speaks protocol version {_cut(version, 20)!r}; this host speaks {spoken}",
            )
        )

    def _ending(self) -> str:
        """How the bot ended, once its output has: its exit code or signal, waited for briefly."""
        assert self._process is not None
        deadline = time.monotonic() + _EXIT_SECONDS
        while True:
            try:
                ended = os.waitid(os.P_PID, self._process.pid, _EXITED | os.WNOHANG)
            except ChildProcessError:
                return "ended"
            if ended is not None:
                if ended.si_code == os.CLD_EXITED:
                    return f"exited with code {ended.si_status}"
                try:
                    return f"was killed by {signal.Signals(ended.si_status).name}"
                except ValueError:
                    return f"was killed by signal {ended.si_status}"
            if time.monotonic() >= deadline:
                return "closed its output"
            time.sleep(0.005)

    def _failed(self, failure: BotFailure, with_errors: bool = False) -> BotFailure:
        """Kill the bot and return ``failure``, with its last error output if asked."""
        if with_errors and self._pipes is not None and self._process is not None:
            _kill_group(self._process.pid)  # what it wrote before it died waits in the pipe
            failure = BotFailure(failure.kind, failure.message + self._pipes.errors())
        self._end()
        return failure

    @staticmethod
    def _decoded(line: bytes) -> tuple[str, BotFailure | None]:
        try:
            return line.decode("utf-8"), None
        except UnicodeDecodeError:
            return "", BotFailure("garbage", f"wrote a line that is not UTF-8: {_shown(line)}")

    # -- moves ---------------------------------------------------------------------------------

    def ask(
        self,
        view_record: str,
        legal_actions: Sequence[Action],
        seconds: float,
        game_seconds: float | None = None,
    ) -> BotAnswer:
        """Ask for a move: the bot's legal action, or why it gave none, within ``seconds``.

        ``view_record`` is the player record of the seat to move
        (``tt.dumps(game, player=seat)``), ``legal_actions`` its legal actions,
        ``seconds`` the time the bot has for this move and ``game_seconds`` what is left of
        its time for the game (None: no limit), which it is told. Starts the bot first if
        it has not started (that time is not counted). Raises ``ConfigurationError`` for a
        record of more than one line or a time that is not a positive number of seconds.
        """
        if "\n" in view_record or "\r" in view_record:
            raise ConfigurationError("a player record is one line of JSON, as dumps writes it")
        for name, value in (("seconds", seconds), ("game_seconds", game_seconds)):
            if value is not None and not (isinstance(value, int | float) and 0 < value < 1e9):
                raise ConfigurationError(f"{name} must be a positive number, got {brief(value)}")
        started = time.monotonic()
        with self._lock:
            if self._process is None and not self._killed:
                failure = self._start()
                started = time.monotonic()
                if failure is not None:
                    return BotAnswer(None, failure, 0.0)
            if not self.alive:
                return BotAnswer(None, BotFailure("exited", "the bot has ended"), 0.0)
            return self._ask(view_record, legal_actions, seconds, game_seconds, started)

    def _ask(
        self,
        record: str,
        legal: Sequence[Action],
        seconds: float,
        game_seconds: float | None,
        started: float,
    ) -> BotAnswer:
        pipes = self._pipes
        assert pipes is not None
        notes: list[str] = []

        def answer(action: Action | None, failure: BotFailure | None = None) -> BotAnswer:
            return BotAnswer(action, failure, answered - started, tuple(notes))

        def failed(failure: BotFailure, with_errors: bool = False) -> BotAnswer:
            # The bot's time ends with its last word; ending it is the host's time.
            return answer(None, self._failed(failure, with_errors))

        stale = pipes.pending_lines(_BETWEEN_MOVES_BYTES)
        answered = time.monotonic()
        if isinstance(stale, _Event):
            return failed(BotFailure(stale.kind, stale.detail))
        for sent in stale:
            text = sent.decode("utf-8", "replace").strip()
            if self.transcript is not None:
                self.transcript("<", text)
            if not text:
                continue
            note = text[5:] if text.startswith("info ") else f"(sent out of turn) {text}"
            self._note(notes, note)
        message = (
            f'move {{"time_left": {seconds:.3f}, "game_time_left": '
            f"{'null' if game_seconds is None else f'{game_seconds:.3f}'}, "
            f'"legal_actions": {json.dumps([str(a) for a in legal])}, "view": {record}}}\n'
        )
        deadline = started + seconds
        event = self._send(message, deadline)
        while event is None:
            line = pipes.read_line(deadline)
            answered = time.monotonic()
            if isinstance(line, _Event):
                event = line
                break
            text, failure = self._decoded(line)
            if failure is not None:
                return failed(failure)
            if self.transcript is not None:
                self.transcript("<", text)
            word, _, rest = text.strip().partition(" ")
            if not word:
                continue  # a blank line
            if word == "info":
                self._note(notes, rest)
            elif word == "action":
                return answer(*self._action(rest, legal))
            else:
                return failed(
                    BotFailure(
                        "garbage",
                        f"answered {_shown(line)} where 'action <notation>' was expected",
                    )
                )
        answered = min(time.monotonic(), deadline)
        if event.kind == "timeout":
            return failed(BotFailure("timeout", f"gave no answer in {seconds:.2f} s"))
        if self._killed:
            return answer(None, BotFailure("exited", "was ended by the host while it thought"))
        detail = f"{self._ending()}{event.detail}" if event.kind == "exited" else event.detail
        return failed(BotFailure(event.kind, detail), with_errors=True)

    @staticmethod
    def _action(text: str, legal: Sequence[Action]) -> tuple[Action | None, BotFailure | None]:
        try:
            action = parse_action(text)
        except InvalidActionError:
            return None, BotFailure("illegal", f"answered {_cut(text)!r}, which is no action")
        if action not in legal:
            return None, BotFailure(
                "illegal", f"answered {str(action)!r}, which is not a legal action now"
            )
        return action, None

    @staticmethod
    def _note(notes: list[str], text: str) -> None:
        notes.append(_cut(text.strip()))
        del notes[:-_NOTES_KEPT]

    # -- ending --------------------------------------------------------------------------------

    def finish(self, final_record: str | None = None, winners: Sequence[int] = ()) -> None:
        """Tell the bot the game is over (with its final record, if given), then end it.

        It gets ``end`` and ``quit`` and a moment to exit; its process group is killed
        then in any case, so nothing it started outlives the game.
        """
        with self._lock:
            pipes = self._pipes
            if pipes is not None and self.alive:
                deadline = time.monotonic() + _QUIT_SECONDS
                lines = "quit\n"
                if final_record is not None:
                    end = f'{{"winners": {json.dumps(list(winners))}, "view": {final_record}}}'
                    lines = f"end {end}\n{lines}"
                if self._send(lines, deadline) is None:
                    assert self._process is not None
                    assert self._process.stdin is not None
                    self._process.stdin.close()  # the end of its input, for a bot that reads to it
                    self._await_exit(deadline)
            self._end()

    def kill(self) -> None:
        """End the bot and everything it started at once; a call waiting on it returns."""
        self._killed = True
        process = self._process
        if process is not None and process.returncode is None:  # collected: its id may be reused
            _kill_group(process.pid)

    def _await_exit(self, deadline: float) -> None:
        """Wait until the bot has exited or ``deadline`` has passed, leaving it uncollected."""
        assert self._process is not None
        while time.monotonic() < deadline:
            try:
                if os.waitid(os.P_PID, self._process.pid, _EXITED | os.WNOHANG) is not None:
                    return
            except ChildProcessError:
                return
            time.sleep(0.005)

    def _end(self) -> None:
        """Kill the process group, keep the CPU time it used, collect the process."""
        process = self._process
        self._killed = True
        if process is None:
            return
        if process.returncode is None:
            _kill_group(process.pid)
            # The dead process's CPU time, read from /proc before it is collected.
            with contextlib.suppress(ChildProcessError):
                os.waitid(os.P_PID, process.pid, _EXITED)
            self.cpu_seconds  # noqa: B018 - reads and keeps the last figure
        if self._finalizer is not None:
            self._finalizer()  # collects it, closes its pipes; once


def _discard(process: subprocess.Popen[bytes]) -> None:
    """End a bot's process group, collect the process and close its pipes (once: finalize)."""
    _kill_group(process.pid)
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()

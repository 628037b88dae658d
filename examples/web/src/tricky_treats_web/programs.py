"""Bot programs at the web host's tables: the exec bots its operator allows, by name.

A player never gives a command. The operator allows each program by a name
(``tricky-treats-web serve --allow-exec-bot NAME=COMMAND``); a table seats one by that name,
or names it as its takeover bot, and the host runs the command it was given, speaking the
bot protocol (``docs/bot-protocol.md``) through ``tricky_treats.bot_protocol.BotProcess``:
within ``BotLimits`` (time per move, memory, CPU, no process of its own, line length), in a
process group of its own that is killed when the game ends.

Every program is started, asked and ended from a pool of threads kept for them for the
server's whole life: the kernel ties a bot to the thread that started it
(``PR_SET_PDEATHSIG``), so a server killed with ``kill -9`` takes its bots with it, and a
thread of asyncio's default pool, which may end, never starts one. One program runs per seat
of a game that uses it, on the process that plays its moves; at most ``max_running`` on one
server process (past that, the fallback plays).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import threading
from collections.abc import Mapping, Sequence

import attrs

import tricky_treats as tt
from tricky_treats.bot_protocol import (
    EXEC_PREFIX,
    BotAnswer,
    BotFailure,
    BotLimits,
    BotProcess,
    FailureKind,
    exec_command,
)

__all__ = ["AllowedProgram", "Programs", "allowed_program"]

_NAME = re.compile(r"[a-z][a-z0-9-]{0,23}")
_RESERVED = frozenset({"random", "greedy", "search", "policy", "exec"})


@attrs.frozen
class AllowedProgram:
    """A bot program the operator allows: the name players choose, the command it runs."""

    name: str
    command: tuple[str, ...]


def allowed_program(spec: str) -> AllowedProgram:
    """``NAME=COMMAND`` as ``--allow-exec-bot`` takes it; ``ConfigurationError`` if it is not.

    The name is lowercase letters, digits and ``-`` (at most 24), and not a built-in bot's;
    the command is split as a POSIX shell would (no shell runs it) and its program must exist.
    """
    name, equals, command = spec.partition("=")
    if not equals or not _NAME.fullmatch(name) or name in _RESERVED:
        raise tt.ConfigurationError(
            f"--allow-exec-bot takes NAME=COMMAND, NAME of lowercase letters, digits and '-' "
            f"(not {', '.join(sorted(_RESERVED))}), got {tt.errors.brief(spec)}"
        )
    # Split as a POSIX shell would, the program found, and Linux (where the limits hold).
    return AllowedProgram(name, exec_command(EXEC_PREFIX + command))


@attrs.define
class _Running:
    process: BotProcess
    starts: int = 1
    out: str | None = None  # why the fallback plays this seat to the end, once it does


class Programs:
    """The allowed bot programs, and those running for this process's tables.

    ``ask`` starts a seat's program at its first move (and again after a crash, up to
    ``BotLimits.restarts`` times a game); ``finish`` tells a game's programs the end and
    ends them; ``end`` kills them (a game unloaded or deleted); ``close`` kills every one.
    """

    def __init__(
        self,
        allowed: Mapping[str, AllowedProgram] | None = None,
        *,
        limits: BotLimits | None = None,
        max_running: int = 16,
    ) -> None:
        self.allowed = dict(allowed or {})
        self.limits = limits if limits is not None else BotLimits(move_seconds=2.0)
        self.max_running = max_running
        self._running: dict[tuple[str, int], _Running] = {}
        self._lock = threading.Lock()
        # Threads that live as long as the server: the only ones that start a bot.
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max_running, thread_name_prefix="tricky-treats-bots"
        )

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the programs a table may seat."""
        return tuple(sorted(self.allowed))

    @property
    def running(self) -> int:
        """How many program processes run now."""
        with self._lock:
            return sum(1 for r in self._running.values() if r.process.alive)

    def pids(self) -> list[int]:
        """The process ids of the running programs (each is its process group's)."""
        with self._lock:
            return [r.process.pid for r in self._running.values() if r.process.pid is not None]

    async def ask(self, game_id: str, seat: int, name: str, game: tt.GameState) -> BotAnswer:
        """The move of program ``name`` for ``seat`` of ``game``: its legal action, or why not.

        Never raises for what the program does; a program this server does not allow (any
        more) is a failure too.
        """
        record = tt.dumps(game, player=seat)
        legal = game.legal_actions()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, self._ask, (game_id, seat), name, record, legal
        )

    def _ask(
        self, key: tuple[str, int], name: str, record: str, legal: Sequence[tt.Action]
    ) -> BotAnswer:
        program = self.allowed.get(name)
        if program is None:
            return _failed("start", f"is not a program this server runs (only {self.names})")
        with self._lock:
            running = self._running.get(key)
            if running is not None and running.out is not None:
                return _failed("exited", running.out)
            if running is None or not running.process.alive:
                alive = sum(1 for r in self._running.values() if r.process.alive)
                if alive >= self.max_running:
                    return _failed("start", "could not start: the server runs all it may")
                starts = 1 if running is None else running.starts + 1
                if starts > self.limits.restarts + 1:
                    assert running is not None
                    running.out = f"is out of the game (started {starts - 1} times)"
                    return _failed("exited", running.out)
                process = BotProcess(program.command, self.limits, die_with_host=True)
                running = self._running[key] = _Running(process, starts)
        answer = running.process.ask(record, legal, self.limits.move_seconds)
        if answer.failure is not None and answer.failure.kind == "version":
            running.out = f"is out of the game: it {answer.failure}"
        return answer

    async def finish(self, game_id: str, game: tt.GameState) -> None:
        """The game is over: each of its programs is told the end, then ended."""
        loop = asyncio.get_running_loop()
        for key, running in self._take(game_id):
            record = tt.dumps(game, player=key[1])
            await loop.run_in_executor(self._pool, running.process.finish, record, game.winners())

    def end(self, game_id: str) -> None:
        """Kill the programs of ``game_id`` at once (the game is unloaded or deleted)."""
        for _, running in self._take(game_id):
            running.process.kill()
            self._pool.submit(running.process.finish)  # collects it

    def _take(self, game_id: str) -> list[tuple[tuple[str, int], _Running]]:
        with self._lock:
            taken = [(k, r) for k, r in self._running.items() if k[0] == game_id]
            for key, _ in taken:
                del self._running[key]
        return taken

    def close(self) -> None:
        """Kill every program and stop the pool (the server stops)."""
        with self._lock:
            running, self._running = list(self._running.values()), {}
        for item in running:
            item.process.kill()
        for item in running:
            item.process.finish()
        self._pool.shutdown(wait=False, cancel_futures=True)


def _failed(kind: FailureKind, message: str) -> BotAnswer:
    return BotAnswer(None, BotFailure(kind, message), 0.0)

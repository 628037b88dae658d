"""``ExecAgent``: a program that speaks the bot protocol, playing as an ``Agent``.

The ladder and ``simulate`` make one from ``exec:COMMAND``. Each seat it plays in a game gets
a process of its own, started at its first move and ended when the game ends. A move the bot
fails (no answer in time, a crash, a line that is no answer, an illegal action) is played by
the fallback agent, and the failure is kept in ``fallbacks`` with the reason; a bot that
failed in a way that leaves its output untrustworthy is started again for its next move, up
to ``BotLimits.restarts`` times a game, and then the fallback plays its seat to the end.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tricky_treats.actions import Action
from tricky_treats.agents import Agent, RandomAgent, make_agent
from tricky_treats.bot_protocol.limits import BotLimits
from tricky_treats.bot_protocol.process import BotProcess, program_path
from tricky_treats.errors import ConfigurationError, brief
from tricky_treats.model import GameState
from tricky_treats.serialization import dumps, dumps_view
from tricky_treats.views import PlayerView

__all__ = [
    "EXEC_PREFIX",
    "ExecAgent",
    "Fallback",
    "check_fallback",
    "exec_agent",
    "exec_command",
    "fallbacks_of",
    "is_exec_spec",
]

EXEC_PREFIX = "exec:"
"""How a bot spec names a program: ``exec:COMMAND``."""


def is_exec_spec(spec: str) -> bool:
    """Whether ``spec`` names a program (``exec:COMMAND``) rather than a built-in bot."""
    return isinstance(spec, str) and spec.startswith(EXEC_PREFIX)


def exec_command(spec: str) -> tuple[str, ...]:
    """The command of ``exec:COMMAND``, split into words as a POSIX shell would.

    No shell runs it: no pipes, redirections or variables. Raises ``ConfigurationError`` for
    a spec that names no command, unbalanced quotes, a program that cannot be found, or a
    system where exec bots cannot be held to their limits (any but Linux).
    """
    if not is_exec_spec(spec):
        raise ConfigurationError(f"an exec bot is named 'exec:COMMAND', got {brief(spec)}")
    try:
        words = tuple(shlex.split(spec[len(EXEC_PREFIX) :]))
    except ValueError as exc:
        raise ConfigurationError(f"{brief(spec)}: {exc}") from None
    if not words:
        raise ConfigurationError(f"{brief(spec)} names no command: write 'exec:COMMAND'")
    program_path(words)
    return words


_LEAST_SECONDS = 0.001
"""Less time than this left in a bot's bank is none: no process starts for a move so short."""


@attrs.frozen
class Fallback:
    """A move an exec bot did not make: why, and what the fallback played instead."""

    seat: int
    """The seat the bot played."""
    move: int
    """The game's move number, from 0 (the actions played before it)."""
    bot: str
    """The bot, as named (``exec:COMMAND``)."""
    reason: str
    """Why the bot's move was not played."""
    action: Action
    """The fallback's action, played instead."""

    def __str__(self) -> str:
        return f"seat {self.seat}, move {self.move}: {self.bot} {self.reason}; played {self.action}"


@attrs.define
class _Seat:
    """One seat an ``ExecAgent`` plays in the current game."""

    bank: float | None
    process: BotProcess | None = None
    starts: int = 0
    out: str | None = None  # why the fallback plays this seat to the end, once it does


class ExecAgent:
    """A bot program speaking the bot protocol (``docs/bot-protocol.md``), as an ``Agent``.

    ``command`` is the program and its arguments (a string is split as by a POSIX shell).
    ``limits`` bound its time, memory and processes; ``fallback`` plays the moves it fails
    (a ``RandomAgent`` by default); ``label`` names it in ``fallbacks`` (its command by
    default); ``transcript``, if given, hears every line (``BotProcess``).

    It plays one game at a time: call ``begin_game(game)`` before the game's first move and
    ``end_game(final)`` after its last (``play_game``, ``simulate`` and the ladder do), which
    ends every process it started. It draws no random numbers but its fallback's: the bot's
    answers are its own.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        limits: BotLimits | None = None,
        fallback: Agent | None = None,
        label: str | None = None,
        transcript: Callable[[str, str], None] | None = None,
    ) -> None:
        if isinstance(command, str):
            self.command = exec_command(EXEC_PREFIX + command)
        else:
            self.command = tuple(command)
            program_path(self.command)
        self.limits = limits if limits is not None else BotLimits()
        self.fallback: Agent = fallback if fallback is not None else RandomAgent()
        self.label = label if label is not None else EXEC_PREFIX + shlex.join(self.command)
        self.transcript = transcript
        self.fallbacks: list[Fallback] = []
        """The moves of the current (or last) game that the fallback played, in order."""
        self._game: GameState | None = None
        self._seats: dict[int, _Seat] = {}
        self._cpu = 0.0

    def __repr__(self) -> str:
        return f"ExecAgent({list(self.command)!r}, limits={self.limits!r})"

    def __getstate__(self) -> dict[str, Any]:
        # A copy for another process (simulate's pool): the settings, no running process.
        return {
            "command": self.command,
            "limits": self.limits,
            "fallback": self.fallback,
            "label": self.label,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(  # type: ignore[misc]
            state["command"], limits=state["limits"], fallback=state["fallback"],
            label=state["label"],
        )  # fmt: skip

    @property
    def cpu_seconds(self) -> float:
        """The CPU time of the processes this game's seats have run, ended ones included."""
        running = sum(s.process.cpu_seconds for s in self._seats.values() if s.process)
        return self._cpu + running

    def begin_game(self, game: GameState) -> None:
        """Get ready to play ``game`` (a new game: any earlier one's processes are ended)."""
        self.end_game(None)
        self._game = game
        self.fallbacks = []
        self._cpu = 0.0

    def end_game(self, game: GameState | None) -> None:
        """End the game: each process is told the end (if ``game`` is over) and ended."""
        for seat, state in self._seats.items():
            if state.process is None:
                continue
            if game is not None and game.is_over:
                state.process.finish(dumps(game, player=seat), game.winners())
            else:
                state.process.finish()
            self._cpu += state.process.cpu_seconds
            state.process = None
        self._seats = {}
        self._game = None

    def close(self) -> None:
        """End every process at once, the game unfinished."""
        for state in self._seats.values():
            if state.process is not None:
                state.process.kill()
        self.end_game(None)

    def choose(
        self, view: PlayerView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """The bot's action for the seat of ``view``, or the fallback's if the bot fails."""
        game = self._game
        if game is None:
            raise ConfigurationError(
                "an ExecAgent plays a game it was told of: call begin_game(game) before the "
                "first move and end_game(final) after the last (play_game, simulate and the "
                "ladder do)"
            )
        if len(view.players) != len(game.players):
            raise ConfigurationError("the view is not of the game given to begin_game")
        seat = self._seats.setdefault(view.player, _Seat(self.limits.game_seconds))
        reason = seat.out or self._ask(seat, game, view, legal_actions)
        if isinstance(reason, Action):
            return reason
        action = self.fallback.choose(view, legal_actions, rng)
        self.fallbacks.append(Fallback(view.player, len(view.history), self.label, reason, action))
        return action

    def _ask(
        self, seat: _Seat, game: GameState, view: PlayerView, legal: Sequence[Action]
    ) -> Action | str:
        """The bot's legal action, or why there is none (and whether it is out for good)."""
        limits = self.limits
        if seat.bank is not None and seat.bank < _LEAST_SECONDS:
            seat.out = f"is out of time (its {limits.game_seconds:g} s for the game are spent)"
            return seat.out
        if seat.process is None:
            seat.process = BotProcess(self.command, limits, transcript=self.transcript)
            seat.starts += 1
        seconds = limits.move_seconds if seat.bank is None else min(limits.move_seconds, seat.bank)
        answer = seat.process.ask(dumps_view(game, view), legal, seconds, seat.bank)
        if seat.bank is not None:
            seat.bank -= answer.seconds
        if answer.action is not None:
            return answer.action
        assert answer.failure is not None
        reason = answer.failure.message
        if not seat.process.alive:
            self._cpu += seat.process.cpu_seconds
            seat.process = None
            if answer.failure.kind == "version" or seat.starts > limits.restarts:
                restarted = "" if seat.starts == 1 else f" (started {seat.starts} times)"
                seat.out = f"is out of the game{restarted}: it {reason}"
        return reason


def check_fallback(fallback: str) -> None:
    """Raise ``ConfigurationError`` unless ``fallback`` names a built-in bot (no exec bot)."""
    if is_exec_spec(fallback):
        raise ConfigurationError(f"the fallback is a built-in bot, got {brief(fallback)}")
    make_agent(fallback)


def exec_agent(spec: str, limits: BotLimits | None = None, fallback: str = "random") -> ExecAgent:
    """The ``ExecAgent`` of ``exec:COMMAND``, named by ``spec``, with a built-in fallback bot."""
    return ExecAgent(exec_command(spec), limits=limits, fallback=make_agent(fallback), label=spec)


def fallbacks_of(agents: Iterable[object]) -> tuple[str, ...]:
    """The moves the exec bots among ``agents`` failed in their last game, in move order."""
    execs = {id(agent): agent for agent in agents if isinstance(agent, ExecAgent)}
    fallbacks = sorted((f for a in execs.values() for f in a.fallbacks), key=lambda f: f.move)
    return tuple(map(str, fallbacks))

"""What an exec bot may use: its time per move and per game, memory, processes, output."""

from __future__ import annotations

import math
from typing import Any

import attrs

from tricky_treats.errors import ConfigurationError, brief

__all__ = ["MOVES_PER_GAME", "BotLimits"]

MOVES_PER_GAME = 100
"""More moves than one seat makes in any game (about 20 in a 2-player game): what the CPU
limit of a bot without a time bank allows for (``BotLimits.process_cpu_seconds``)."""


def _within(low: float, high: float, whole: bool = False) -> Any:
    """A validator: a number (a whole one if ``whole``) from ``low`` to ``high``."""
    kinds = int if whole else int | float

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None and attribute.name in _OPTIONAL:
            return
        if not isinstance(value, kinds) or isinstance(value, bool) or not low <= value <= high:
            what = "a whole number" if whole else "a number of seconds"
            raise ConfigurationError(
                f"BotLimits.{attribute.name} must be {what} from {low:g} to {high:g}, "
                f"got {brief(value)}"
            )

    return check


_OPTIONAL = frozenset({"game_seconds", "cpu_seconds"})
_GIB = 1024**3
_MIB = 1024**2


@attrs.frozen
class BotLimits:
    """The bounds an exec bot plays within (see ``docs/bot-protocol.md``).

    Times are wall-clock seconds as the host measures them, from writing the request to
    reading the answer. The resource limits hold for the bot's process and everything it
    starts; each is set by the kernel in the bot's process before its program runs.
    """

    move_seconds: float = attrs.field(default=1.0, validator=_within(0.001, 3600))
    """The most time a move may take."""
    game_seconds: float | None = attrs.field(default=None, validator=_within(0.001, 86400))
    """A time bank for all of one seat's moves in a game (each move still at most
    ``move_seconds``); None: none, every move gets ``move_seconds``."""
    startup_seconds: float = attrs.field(default=10.0, validator=_within(0.001, 600))
    """The time to start and answer ``hello`` with ``ready``; not taken from the bank."""
    memory_bytes: int = attrs.field(
        default=2 * _GIB, validator=_within(16 * _MIB, 2**48, whole=True)
    )
    """Address space (RLIMIT_AS). Node needs 1 GiB of address space to start."""
    cpu_seconds: int | None = attrs.field(default=None, validator=_within(1, 86400, whole=True))
    """CPU seconds for the process's whole life (RLIMIT_CPU), a backstop for a bot that
    computes while it is not its turn; None: ``process_cpu_seconds``."""
    file_bytes: int = attrs.field(default=16 * _MIB, validator=_within(0, 2**40, whole=True))
    """The largest file the bot may write (RLIMIT_FSIZE)."""
    processes: int = attrs.field(default=0, validator=_within(0, 4096, whole=True))
    """Processes the bot may start. 0: none; the kernel refuses its forks (threads are
    allowed), so a fork bomb stops at its first fork. Above 0 (a bot started by a launcher
    that forks, such as ``npx``), RLIMIT_NPROC bounds them, which binds no root user."""
    open_files: int = attrs.field(default=256, validator=_within(16, 65536, whole=True))
    """Open files and pipes (RLIMIT_NOFILE)."""
    line_bytes: int = attrs.field(default=64 * 1024, validator=_within(64, 16 * _MIB, whole=True))
    """The longest line read from the bot; a longer one is a failure, and is not kept."""
    restarts: int = attrs.field(default=2, validator=_within(0, 100, whole=True))
    """How often in a game a bot that crashed, hung or printed what is no answer is started
    again for its next move; after that the fallback plays its seat to the end."""

    @property
    def process_cpu_seconds(self) -> int:
        """The CPU limit of one process: ``cpu_seconds``, else the game's time and more.

        Without ``cpu_seconds``: the startup time, the time bank (or ``MOVES_PER_GAME`` moves
        of ``move_seconds``) and 10 seconds, rounded up.
        """
        if self.cpu_seconds is not None:
            return self.cpu_seconds
        game = self.game_seconds
        if game is None:
            game = self.move_seconds * MOVES_PER_GAME
        return math.ceil(self.startup_seconds + game + 10)

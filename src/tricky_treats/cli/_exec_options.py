"""The options of ``ladder`` and ``simulate`` for ``exec:`` bots, and their log of fallbacks."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from tricky_treats.agents import AGENTS
from tricky_treats.bot_protocol import BotLimits

if TYPE_CHECKING:
    from rich.console import Console

__all__: list[str] = []

_SHOWN = 50
"""Fallbacks printed in full before the rest are only counted."""


def _seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``low`` to ``high``."""

    def seconds(text: str) -> float:
        try:
            value = float(text) if len(text) <= 30 else math.nan
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # NaN fails too
            raise argparse.ArgumentTypeError(f"expected seconds from {low:g} to {high:g}")
        return value

    return seconds


def _whole(low: int, high: int) -> Callable[[str], int]:
    def number(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}")
        value = int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {low} to {high}, got {value}")
        return value

    number.__name__ = "number"
    return number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that bound ``exec:COMMAND`` bots (``docs/bot-protocol.md``)."""
    group = parser.add_argument_group(
        "exec bots",
        "exec:COMMAND runs a program that speaks the bot protocol (docs/bot-protocol.md), "
        "one process per seat and game; a move it fails is played by the fallback bot",
    )
    defaults = BotLimits()
    group.add_argument(
        "--move-seconds",
        type=_seconds(0.001, 3600),
        default=defaults.move_seconds,
        metavar="SECONDS",
        help=f"an exec bot's time per move ({defaults.move_seconds:g})",
    )
    group.add_argument(
        "--game-seconds",
        type=_seconds(0.001, 86400),
        metavar="SECONDS",
        help="an exec bot's time for all its moves in a game (default: no limit but each move's)",
    )
    group.add_argument(
        "--bot-memory",
        type=_whole(16, 1024 * 1024),
        default=defaults.memory_bytes // 1024**2,
        metavar="MIB",
        help=f"an exec bot's address space in MiB ({defaults.memory_bytes // 1024**2}; "
        "node needs 1024)",
    )
    group.add_argument(
        "--bot-processes",
        type=_whole(0, 4096),
        default=defaults.processes,
        metavar="N",
        help="processes an exec bot may start (0: none, the default; a launcher such as npx "
        "needs some)",
    )
    group.add_argument(
        "--fallback",
        default="random",
        choices=list(AGENTS),
        help="the bot that plays the moves an exec bot fails (random)",
    )


def bot_limits(args: argparse.Namespace) -> BotLimits:
    """The ``BotLimits`` the options ask for."""
    return BotLimits(
        move_seconds=args.move_seconds,
        game_seconds=args.game_seconds,
        memory_bytes=args.bot_memory * 1024**2,
        processes=args.bot_processes,
    )


class FallbackLog:
    """Prints each move an exec bot failed, on standard error, as its game comes in."""

    def __init__(self) -> None:
        self.count = 0
        self._console: Console | None = None

    def add(self, game: str, fallbacks: Iterable[str]) -> None:
        for fallback in fallbacks:
            self.count += 1
            if self.count <= _SHOWN:
                self._print(f"{game}: {fallback}")

    def _print(self, text: str) -> None:
        if self._console is None:
            from rich.console import Console

            # The bots' words are printed as they are: never read as markup or highlighted.
            self._console = Console(
                stderr=True, markup=False, emoji=False, highlight=False, soft_wrap=True
            )
        self._console.print(text, style="yellow")

    def close(self) -> None:
        """Say how many there were, if more than were shown."""
        if self.count > _SHOWN:
            self._print(f"{self.count} moves in all were played by the fallback bot")

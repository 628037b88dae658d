"""What the commands share: the one-line error, bounded numbers, reading and writing files."""

from __future__ import annotations

import argparse
import errno
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tricky_treats.components import COMPONENT_LIMITS
from tricky_treats.dealing import MAX_SEED
from tricky_treats.errors import TrickyTreatsError
from tricky_treats.i18n import N_, _
from tricky_treats.model import GameState
from tricky_treats.serialization import MAX_RECORD_BYTES, loads

if TYPE_CHECKING:
    from rich.table import Table


__all__: list[str] = []


class CommandError(Exception):
    """A problem to report in one line, with no traceback (exit status 2).

    Its message is written in the player's language (``_``): unlike the engine's exceptions,
    which read the same in every language, it is said to the person at the terminal.
    """


_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOSPC: N_("no space left on the disk"),
    errno.EROFS: N_("the file system is read-only"),
}


def os_reason(exc: OSError) -> str:
    """Why a file could not be read or written, in the player's language where known."""
    known = _OS_REASONS.get(exc.errno or 0)
    return _(known) if known is not None else str(exc.strerror or exc)


def _bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, refused before any work."""

    def number(text: str) -> int:
        digits = text.strip()
        if not digits.lstrip("+-").isascii() or not digits.lstrip("+-").isdigit():
            raise argparse.ArgumentTypeError(f"expected a whole number from {low:,} to {high:,}")
        # int() of thousands of digits is slow (and refused past 4,300): count them first.
        if len(digits) > 60:
            raise argparse.ArgumentTypeError(
                f"expected {low:,} to {high:,}, got a number of {len(digits):,} digits"
            )
        value = int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {low:,} to {high:,}, got {value:,}")
        return value

    number.__name__ = "number"  # argparse names the type in some messages
    return number


_PLAYERS = _bounded(*COMPONENT_LIMITS["players"])  # what any component data allows
_SEED = _bounded(0, MAX_SEED - 1)


def _read_record(path: Path) -> GameState:
    try:
        with path.open("rb") as file:
            # No more than a record may hold: /dev/zero or a huge file is refused, not read.
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise CommandError(
            _("cannot read {file}: {reason}").format(file=path, reason=os_reason(exc))
        ) from None
    if len(data) > MAX_RECORD_BYTES:
        raise CommandError(
            _(
                "{file} is not a game record: it is larger than a record may be ({bytes} bytes)"
            ).format(file=path, bytes=f"{MAX_RECORD_BYTES:,}")
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CommandError(_("{file} is not a text file").format(file=path)) from None
    try:
        return loads(text)
    except TrickyTreatsError as exc:
        # The engine's reason is in English, as its errors are in every language.
        raise CommandError(
            _("{file} is not a valid game record: {reason}").format(file=path, reason=exc)
        ) from None


def _score_table(game: GameState) -> Table:
    from rich.table import Table

    from tricky_treats.cli.session import _SHEET_COLUMNS

    names = list(game.config.players)
    table = Table(title=_("Score sheets") if game.is_over else _("Score sheets so far"))
    for column in _SHEET_COLUMNS:
        table.add_column(_(column), justify="left" if column == "player" else "right")
    won = game.winners()
    for sheet in game.scores():
        table.add_row(
            names[sheet.player] + (_(" (winner)") if sheet.player in won else ""),
            str(sheet.pumpkins),
            "+".join(map(str, sheet.costumes)),
            "+".join(str(t.points) for t in sheet.trick_tiles),
            str(sum(e.points for e in sheet.extras)),
            str(sheet.total),
        )
    return table


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(
            _("cannot write {file}: {reason}").format(file=path, reason=os_reason(exc))
        ) from None

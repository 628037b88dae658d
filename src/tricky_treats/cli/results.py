"""``simulate``'s results: each bot's totals, and the ``--output`` file written in game order."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricky_treats.simulation import (
    GameResult,
    game_seed,
)

if TYPE_CHECKING:
    from rich.console import Console

from tricky_treats.cli.common import CommandError

__all__: list[str] = []


class _Summary:
    """Each agent's totals, gathered as results stream in (no list of all results kept)."""

    def __init__(self) -> None:
        self.games = 0
        self.actions = 0
        self.first_seed: int | None = None
        self.stats: dict[str, dict[str, float]] = {}

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.actions += result.actions
        for seat in result.seats:
            entry = self.stats.setdefault(
                f"{seat.agent_index + 1}. {seat.agent}",
                dict.fromkeys(
                    ("games", "wins", "total", "pumpkins", "costumes", "tiles", "extras"), 0.0
                ),
            )
            entry["games"] += 1
            entry["wins"] += seat.win
            entry["total"] += seat.total
            entry["pumpkins"] += seat.pumpkins
            entry["costumes"] += seat.costumes
            entry["tiles"] += seat.tiles
            entry["extras"] += seat.extras

    def print(self, console: Console, seats: int, seed: int, elapsed: float, where: str) -> None:
        from rich.table import Table

        table = Table(
            title=f"{self.games} games, {seats} players, seeds {seed} to "
            f"{game_seed(seed, self.games - 1)}"
        )
        table.add_column("agent", no_wrap=True)
        for heading in ("games", "wins", "win rate", "mean total", "pumpkins", "costumes",
                        "tiles", "extras"):  # fmt: skip
            table.add_column(heading, justify="right")
        for label, stats in sorted(self.stats.items()):
            n = stats["games"]
            table.add_row(
                label,
                f"{n:.0f}",
                f"{stats['wins']:.1f}",
                f"{stats['wins'] / n:.1%}",
                f"{stats['total'] / n:.1f}",
                f"{stats['pumpkins'] / n:.1f}",
                f"{stats['costumes'] / n:.1f}",
                f"{stats['tiles'] / n:.1f}",
                f"{stats['extras'] / n:.1f}",
            )
        console.print(table)
        console.print(
            f"Mean game length {self.actions / self.games:.1f} actions; "
            f"{self.games / elapsed:.1f} games/s, {self.actions / elapsed:,.0f} actions/s "
            f"{where}."
        )


_CSV_COLUMNS = (
    "game", "seed", "actions", "termination", "seat", "agent", "total", "pumpkins", "costumes",
    "tiles", "extras", "win",
)  # fmt: skip


class _Output:
    """Writes results to ``--output`` in game order as they arrive (out of order)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.written = 0
        self._waiting: dict[int, GameResult] = {}
        self._handle: Any = None
        self._csv: Any = None

    def __enter__(self) -> _Output:
        if self.path is not None:
            try:
                self._handle = self.path.open("w", encoding="utf-8", newline="")
            except OSError as exc:
                raise CommandError(f"cannot write {self.path}: {exc.strerror or exc}") from None
            if self.path.suffix == ".csv":
                self._csv = csv.writer(self._handle)
                self._csv.writerow(_CSV_COLUMNS)
        return self

    def add(self, result: GameResult) -> None:
        if self._handle is None:
            return
        self._waiting[result.game] = result
        try:
            while self.written in self._waiting:
                self._write(self._waiting.pop(self.written))
                self.written += 1
        except OSError as exc:
            raise CommandError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _write(self, result: GameResult) -> None:
        if self._csv is None:
            self._handle.write(json.dumps(result.to_dict()) + "\n")
            return
        for seat, s in enumerate(result.seats):
            self._csv.writerow(
                (result.game, result.seed, result.actions, result.termination, seat, s.agent,
                 s.total, s.pumpkins, s.costumes, s.tiles, s.extras, s.win)
            )  # fmt: skip

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            try:
                self._handle.close()  # writes what is buffered: a full disk fails here
            except OSError as error:
                raise CommandError(f"cannot write {self.path}: {error.strerror or error}") from None

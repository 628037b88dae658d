"""Where the web app keeps its tables so that games survive a restart or a crash.

``TableStore`` is the interface the app needs: ``save`` a table after every accepted move
(and return only once it is durable), ``load_unfinished`` the games to bring back on start,
``load`` one game by id, and ``quarantined`` the stored tables that failed to load. A store
saves ``table.save(hash_credentials=True)``: the game record, a SHA-256 of each seat's
credential (never the credential) and the bots.

``SqliteTableStore`` is the default: one SQLite file (the standard library's ``sqlite3``) in
WAL mode with ``synchronous=FULL``, one transaction per move. A server with several processes
needs one store they all share (a database server, say) and so a new class with these four
methods; nothing else changes.
"""

from __future__ import annotations

import datetime
import logging
import sqlite3
from pathlib import Path
from typing import Protocol

import attrs

import tricky_treats as tt

__all__ = ["QuarantinedTable", "SqliteTableStore", "TableStore"]

log = logging.getLogger("tricky_treats_web.store")


@attrs.frozen
class QuarantinedTable:
    """A stored table that failed to load: kept aside with the reason, never dropped."""

    game_id: str
    data: str
    reason: str


class TableStore(Protocol):
    """What the web app needs from a store of tables."""

    def save(self, game_id: str, table: tt.Table) -> None:
        """Store ``table`` under ``game_id``; return only once it would survive a crash."""

    def load(self, game_id: str) -> tt.Table | None:
        """The table stored under ``game_id`` (finished or not), or None."""

    def load_unfinished(self) -> dict[str, tt.Table]:
        """Every stored game that is not over; a table that fails to load is quarantined."""

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, kept aside."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    game_id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    over INTEGER NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    data TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
"""


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class SqliteTableStore:
    """Tables in one SQLite file: WAL mode, a transaction per save, fsync'd on commit.

    A file that is not a readable SQLite database is moved aside (renamed to
    ``<name>.corrupt-<time>``, reported in the log and in ``set_aside``) and a new one
    started, so that the server still starts.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.set_aside: Path | None = None
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            self.set_aside = self._move_aside(exc)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        # isolation_level=None: this class says where each transaction begins and ends.
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            (check,) = db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {check}")
            db.executescript(_SCHEMA)
        except BaseException:
            db.close()
            raise
        return db

    def _move_aside(self, error: Exception) -> Path:
        aside = self.path.with_name(
            f"{self.path.name}.corrupt-{datetime.datetime.now(datetime.UTC):%Y%m%dT%H%M%S%f}"
        )
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                part.rename(f"{aside}{suffix}")
        log.error(
            "the table store %s is not a readable SQLite database (%s); it is kept as %s "
            "and a new store is started",
            self.path,
            error,
            aside,
        )
        return aside

    def close(self) -> None:
        """Close the database file."""
        self._db.close()

    def save(self, game_id: str, table: tt.Table) -> None:
        """Store ``table`` under ``game_id`` in one committed transaction."""
        data = table.save(hash_credentials=True)
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "INSERT INTO tables (game_id, data, over, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET "
                "data = excluded.data, over = excluded.over, updated = excluded.updated",
                (game_id, data, int(table.game.is_over), _now()),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def load(self, game_id: str) -> tt.Table | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        row = self._db.execute("SELECT data FROM tables WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else self._resume(game_id, row[0])

    def load_unfinished(self) -> dict[str, tt.Table]:
        """Every game that is not over, by id; the ones that fail to load are quarantined."""
        rows = self._db.execute("SELECT game_id, data FROM tables WHERE over = 0").fetchall()
        tables = {}
        for game_id, data in rows:
            table = self._resume(game_id, data)
            if table is not None:
                tables[game_id] = table
        return tables

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, oldest first."""
        rows = self._db.execute("SELECT game_id, data, reason FROM quarantine ORDER BY id")
        return [QuarantinedTable(*row) for row in rows]

    def _resume(self, game_id: str, data: object) -> tt.Table | None:
        try:
            if not isinstance(data, str):
                raise tt.RecordError(f"expected text, got {type(data).__name__}")
            return tt.Table.resume(data)
        except Exception as exc:  # any bad row is kept aside; the server must still start
            reason = f"{type(exc).__name__}: {exc}"
            log.error(
                "stored game %s does not load (%s); it is kept in quarantine", game_id, reason
            )
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "INSERT INTO quarantine (game_id, data, reason, at) VALUES (?, ?, ?, ?)",
                    (game_id, data if isinstance(data, str) else repr(data), reason, _now()),
                )
                db.execute("DELETE FROM tables WHERE game_id = ?", (game_id,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return None

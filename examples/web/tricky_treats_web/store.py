"""Where the web app keeps its tables so that games survive a restart, a crash, or many processes.

``TableStore`` is the interface the app needs: ``save`` a table after every accepted move
(and return only once it is durable), ``load_unfinished`` the games to bring back on start,
``load`` one game by id, ``expire`` the games left idle too long, ``quarantined`` the stored
tables that failed to load, and ``watch`` the saves that other processes make. A store saves
``table.save(hash_credentials=True)``: the game record, a SHA-256 of each seat's credential
(never the credential) and the bots.

Every stored table has a version: 0 when created, one more per accepted move. ``save`` with
``version=v`` stores version ``v`` only if the stored one is ``v - 1`` (or, for 0, if there is
none) and raises ``VersionConflictError`` otherwise: two processes moving one game are put in
order by the database, never by a process's memory.

- ``SqliteTableStore`` is the default: one SQLite file (the standard library's ``sqlite3``) in
  WAL mode with ``synchronous=FULL``, one transaction per move, for one server process. On
  start it checks the file and its write-ahead log and reports what damage lost.
- ``PostgresTableStore`` (``tricky_treats_web.postgres``) is for several server processes on
  one PostgreSQL database; they hear of each other's moves by LISTEN/NOTIFY.

``open_store(spec)`` picks one from a path or a ``postgresql://`` URL.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import sqlite3
import struct
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator
from pathlib import Path
from typing import Protocol

import attrs

import tricky_treats as tt

__all__ = [
    "QuarantinedTable",
    "SqliteTableStore",
    "StoredTable",
    "TableStore",
    "VersionConflictError",
    "WalDamage",
    "open_store",
]

log = logging.getLogger("tricky_treats_web.store")

Changed = Callable[[str, int], Awaitable[None]]
"""Called with a game id and its new version when another process saved it."""
Resync = Callable[[], Awaitable[None]]
"""Called when saves by other processes may have gone unheard (a lost connection)."""


class VersionConflictError(Exception):
    """The stored table is not the version this save follows: another process moved first."""


@attrs.frozen
class StoredTable:
    """A table as stored, with its version (0 when created, one more per accepted move)."""

    table: tt.Table
    version: int


@attrs.frozen
class QuarantinedTable:
    """A stored table that failed to load: kept aside with the reason, never dropped."""

    game_id: str
    data: str
    reason: str


class TableStore(Protocol):
    """What the web app needs from a store of tables."""

    def save(self, game_id: str, table: tt.Table, *, version: int | None = None) -> None:
        """Store ``table`` under ``game_id``; return only once it would survive a crash.

        With ``version``, store it as that version of the game only if the stored one is the
        version before (none, for 0), and raise ``VersionConflictError`` otherwise.
        """

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id`` (finished or not), or None."""

    def load_unfinished(self) -> dict[str, StoredTable]:
        """Every stored game that is not over; a table that fails to load is quarantined."""

    def version(self, game_id: str) -> int | None:
        """The stored version of ``game_id``, or None if it is not stored."""

    def expire(
        self, idle_before: datetime.datetime, finished_before: datetime.datetime | None
    ) -> list[str]:
        """Delete the games left idle too long; answer their ids.

        Those are the unfinished games last saved before ``idle_before`` and the finished ones
        last saved before ``finished_before`` (None keeps them).
        """

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, kept aside."""

    async def watch(self, changed: Changed, resync: Resync) -> None:
        """Call ``changed`` for every save made by another process, until cancelled.

        A store that only one process uses returns at once.
        """


def open_store(spec: str | Path) -> TableStore:
    """A store from ``spec``: a ``postgresql://`` URL, or else the path of a SQLite file."""
    text = str(spec)
    if text.startswith(("postgresql://", "postgres://")):
        from tricky_treats_web.postgres import PostgresTableStore

        return PostgresTableStore(text)
    return SqliteTableStore(text)


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


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _stamp(moment: datetime.datetime) -> str:
    # One fixed layout, so that SQLite compares the texts in time order.
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def resume_or_quarantine(
    game_id: str, data: object, quarantine: Callable[[str, str, str], None]
) -> tt.Table | None:
    """The table in ``data``, or None after ``quarantine(game_id, data, reason)`` if it fails."""
    try:
        if not isinstance(data, str):
            raise tt.RecordError(f"expected text, got {type(data).__name__}")
        return tt.Table.resume(data)
    except Exception as exc:  # any bad row is kept aside; the server must still start
        reason = f"{type(exc).__name__}: {exc}"
        log.error("stored game %s does not load (%s); it is kept in quarantine", game_id, reason)
        quarantine(game_id, data if isinstance(data, str) else repr(data), reason)
        return None


def resume_unfinished(
    rows: Iterable[tuple[str, object, int]], quarantine: Callable[[str, str, str], None]
) -> dict[str, StoredTable]:
    """The tables of ``(game_id, data, version)`` rows by id; those that fail are quarantined."""
    tables = {}
    for game_id, data, version in rows:
        stored = resume_stored(game_id, (data, version), quarantine)
        if stored is not None:
            tables[game_id] = stored
    return tables


def resume_stored(
    game_id: str, row: tuple[object, int] | None, quarantine: Callable[[str, str, str], None]
) -> StoredTable | None:
    """The table of a ``(data, version)`` row, or None: no row, or it failed and is quarantined."""
    if row is None:
        return None
    table = resume_or_quarantine(game_id, row[0], quarantine)
    return None if table is None else StoredTable(table, row[1])


@attrs.frozen
class WalDamage:
    """What a damaged SQLite write-ahead log lost: found on start, logged, its copy kept."""

    frames: int
    """Frames the log file holds (of this log's generation)."""
    valid_frames: int
    """Frames SQLite reads: those before the first damaged one, up to the last commit."""
    lost_commits: int
    """Committed transactions (moves or new games) after the damage, which SQLite drops."""
    games: tuple[str, ...]
    """Stored games whose rows lie in the lost pages: their latest moves may be gone."""
    kept_as: Path
    """The damaged log, copied before SQLite opened the database."""


def _wal_checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def _read_wal(wal: bytes) -> tuple[int, int, int, bytes] | None:
    """What a write-ahead log holds, checked as SQLite checks it; None if it holds nothing.

    Answers (frames, valid frames, lost commits, the lost frames' bytes), by the checksums of
    https://www.sqlite.org/fileformat.html#the_write_ahead_log. A log too short or with a
    header that does not check holds nothing (SQLite ignores it too).
    """
    if len(wal) < 32:
        return None
    magic, _, page_size, _, salt1, salt2, c1, c2 = struct.unpack(">8I", wal[:32])
    if magic not in (0x377F0682, 0x377F0683) or page_size < 512:
        return None
    big = magic == 0x377F0683
    s0, s1 = _wal_checksum(wal[:24], big, 0, 0)
    if (s0, s1) != (c1, c2):
        return None
    size = 24 + page_size
    count = (len(wal) - 32) // size
    valid = 0
    bad = None
    for index in range(count):
        start = 32 + index * size
        header = wal[start : start + 24]
        _, commit, f1, f2, k1, k2 = struct.unpack(">6I", header)
        if (f1, f2) != (salt1, salt2):
            break  # older frames of an earlier log generation: not part of this log
        s0, s1 = _wal_checksum(header[:8], big, s0, s1)
        s0, s1 = _wal_checksum(wal[start + 24 : start + size], big, s0, s1)
        if (s0, s1) != (k1, k2):
            bad = index
            break
        if commit:
            valid = index + 1
    if bad is None:
        return count, valid, 0, b""
    lost = 0
    frames = bad
    for index in range(bad, count):
        start = 32 + index * size
        _, commit, f1, f2, _, _ = struct.unpack(">6I", wal[start : start + 24])
        if (f1, f2) != (salt1, salt2):
            break
        frames = index + 1
        lost += commit != 0
    return frames, valid, lost, wal[32 + valid * size : 32 + frames * size]


class SqliteTableStore:
    """Tables in one SQLite file: WAL mode, a transaction per save, fsync'd on commit.

    On start it checks the write-ahead log's checksums before SQLite reads it: SQLite silently
    drops every transaction after a damaged frame, so the log is copied aside
    (``<name>-wal.damaged-<time>``) and what is lost is logged and kept in ``wal_damage``.
    A file that is not a readable SQLite database (``quick_check`` fails) is moved aside
    (renamed to ``<name>.corrupt-<time>``, reported in the log and in ``set_aside``) and a new
    one started, so that the server still starts. Safe to call from several threads.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.set_aside: Path | None = None
        self.wal_damage: WalDamage | None = None
        self._lock = threading.Lock()
        lost = self._check_wal()
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            self.set_aside = self._move_aside(exc)
            self._db = self._open()
        if lost is not None:
            self._report_wal_damage(*lost)

    def _check_wal(self) -> tuple[int, int, int, bytes, Path] | None:
        wal_path = Path(f"{self.path}-wal")
        if str(self.path) == ":memory:" or not wal_path.is_file():
            return None
        wal = wal_path.read_bytes()
        found = _read_wal(wal)
        if found is None or not found[2]:
            return None  # intact, or frames after the last commit: a save the crash cut short
        kept = wal_path.with_name(f"{wal_path.name}.damaged-{_now():%Y%m%dT%H%M%S%f}")
        kept.write_bytes(wal)
        return (*found, kept)

    def _report_wal_damage(
        self, frames: int, valid: int, lost: int, lost_bytes: bytes, kept: Path
    ) -> None:
        rows = self._db.execute("SELECT game_id FROM tables").fetchall()
        games = tuple(sorted(g for (g,) in rows if g.encode() in lost_bytes))
        self.wal_damage = WalDamage(frames, valid, lost, games, kept)
        log.error(
            "the write-ahead log of the table store %s is damaged at frame %d of %d: %d "
            "committed transactions after it are lost (new games, or moves of the games "
            "whose rows lie in the lost pages: %s); the damaged log is kept as %s. Restore "
            "from a backup to get them back (see docs/hosting.md)",
            self.path,
            valid + 1,
            frames,
            lost,
            ", ".join(games) or "(none still stored)",
            kept,
        )

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
            columns = [row[1] for row in db.execute("PRAGMA table_info(tables)")]
            if "version" not in columns:  # a store written before versions were kept
                db.execute("ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
        except BaseException:
            db.close()
            raise
        return db

    def _move_aside(self, error: Exception) -> Path:
        aside = self.path.with_name(f"{self.path.name}.corrupt-{_now():%Y%m%dT%H%M%S%f}")
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
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction on the database, one thread at a time."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def save(self, game_id: str, table: tt.Table, *, version: int | None = None) -> None:
        """Store ``table`` under ``game_id`` in one committed transaction."""
        data = table.save(hash_credentials=True)
        row = (data, int(table.game.is_over), _stamp(_now()))
        if version is None:
            sql = (
                "INSERT INTO tables (data, over, updated, game_id, version) VALUES (?, ?, ?, ?, 0) "
                "ON CONFLICT (game_id) DO UPDATE SET data = excluded.data, "
                "over = excluded.over, updated = excluded.updated, version = version + 1"
            )
            with self._transaction() as db:
                db.execute(sql, (*row, game_id))
            return
        if version == 0:
            sql = (
                "INSERT INTO tables (data, over, updated, game_id, version) VALUES (?, ?, ?, ?, 0) "
                "ON CONFLICT (game_id) DO NOTHING"
            )
            args: tuple[object, ...] = (*row, game_id)
        else:
            sql = (
                "UPDATE tables SET data = ?, over = ?, updated = ?, version = ? "
                "WHERE game_id = ? AND version = ?"
            )
            args = (*row, version, game_id, version - 1)
        with self._transaction() as db:
            stored = db.execute(sql, args).rowcount
        if stored != 1:
            raise VersionConflictError(f"game {game_id}: version {version - 1} is not stored")

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        with self._lock:
            row = self._db.execute(
                "SELECT data, version FROM tables WHERE game_id = ?", (game_id,)
            ).fetchone()
        return resume_stored(game_id, row, self._quarantine)

    def version(self, game_id: str) -> int | None:
        """The stored version of ``game_id``, or None if it is not stored."""
        with self._lock:
            row = self._db.execute(
                "SELECT version FROM tables WHERE game_id = ?", (game_id,)
            ).fetchone()
        return None if row is None else int(row[0])

    def load_unfinished(self) -> dict[str, StoredTable]:
        """Every game that is not over, by id; the ones that fail to load are quarantined."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, data, version FROM tables WHERE over = 0"
            ).fetchall()
        return resume_unfinished(rows, self._quarantine)

    def expire(
        self, idle_before: datetime.datetime, finished_before: datetime.datetime | None
    ) -> list[str]:
        """Delete the games left idle too long (see ``TableStore.expire``); answer their ids."""
        where = "(over = 0 AND updated < ?)"
        args: list[object] = [_stamp(idle_before)]
        if finished_before is not None:
            where += " OR (over = 1 AND updated < ?)"
            args.append(_stamp(finished_before))
        with self._transaction() as db:
            gone = [g for (g,) in db.execute(f"SELECT game_id FROM tables WHERE {where}", args)]
            db.execute(f"DELETE FROM tables WHERE {where}", args)
        return sorted(gone)

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, data, reason FROM quarantine ORDER BY id"
            ).fetchall()
        return [QuarantinedTable(*row) for row in rows]

    async def watch(self, changed: Changed, resync: Resync) -> None:
        """Nothing to watch: one process owns a SQLite store."""

    def _quarantine(self, game_id: str, data: str, reason: str) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO quarantine (game_id, data, reason, at) VALUES (?, ?, ?, ?)",
                (game_id, data, reason, _stamp(_now())),
            )
            db.execute("DELETE FROM tables WHERE game_id = ?", (game_id,))

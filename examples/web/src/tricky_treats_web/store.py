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
    "StoreUnavailableError",
    "StoredTable",
    "TableStore",
    "VersionConflictError",
    "WalDamage",
    "open_store",
]

log = logging.getLogger("tricky_treats_web.store")

Changed = Callable[[str, int], Awaitable[None]]
"""Called with a game id and its new version when another process saved it."""
NextGame = Callable[[str, str], Awaitable[None]]
"""Called with a game id and the id of its next game when another process stored that."""
Resync = Callable[[], Awaitable[None]]
"""Called when saves by other processes may have gone unheard (a lost connection)."""


class VersionConflictError(Exception):
    """The stored table is not the version this save follows: another process moved first."""


class StoreUnavailableError(Exception):
    """The store cannot be reached now (the database is down): try again later."""


@attrs.frozen
class StoredTable:
    """A table as stored, with its version (0 when created, one more per accepted move)."""

    table: tt.Table
    version: int
    next_game: str | None = None
    """The game "play again" made after this one, once a seat asked for it."""


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
        self,
        idle_before: datetime.datetime,
        finished_before: datetime.datetime | None,
        unplayed_before: datetime.datetime | None = None,
    ) -> list[str]:
        """Delete the games left idle too long; answer their ids.

        Those are the unfinished games last saved before ``idle_before``, the finished ones
        last saved before ``finished_before`` (None keeps them), and the games nobody has
        moved in (version 0, not over) stored before ``unplayed_before``.
        """

    def count_unplayed(self) -> int:
        """How many stored games nobody has moved in yet (version 0, not over)."""

    def open_next(self, game_id: str, next_id: str, table: tt.Table) -> str:
        """Store ``table`` as ``next_id``, the next game of ``game_id``, unless it has one.

        One transaction; answers the id of the next game: ``next_id``, or the one another
        process stored first (then ``table`` is not stored). Announced to the other processes.
        """

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, kept aside."""

    async def watch(self, changed: Changed, resync: Resync, next_game: NextGame) -> None:
        """Call ``changed`` for every save made by another process, until cancelled.

        And ``next_game`` for every next game another process stored. A store that only one
        process uses returns at once.
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
    game_id: str,
    row: tuple[object, int] | tuple[object, int, str | None] | None,
    quarantine: Callable[[str, str, str], None],
) -> StoredTable | None:
    """The table of a ``(data, version[, next_game])`` row, or None (no row, or quarantined)."""
    if row is None:
        return None
    table = resume_or_quarantine(game_id, row[0], quarantine)
    following = row[2] if len(row) > 2 else None
    return None if table is None else StoredTable(table, row[1], following)


@attrs.frozen
class WalDamage:
    """What a damaged SQLite write-ahead log lost: found on start, logged, its copy kept."""

    kind: str
    """What is wrong: ``header`` (the log's header does not check, so SQLite ignores the whole
    log), ``frame`` (a frame's checksum), ``salt`` (a frame of another generation amid this
    one's), ``truncated`` (the log ends inside a frame) or ``missing`` (no log, yet saves that
    only it held are gone)."""
    frames: int
    """Frames the log file holds (of this log's generation)."""
    valid_frames: int
    """Frames SQLite reads: those before the first damaged one, up to the last commit."""
    lost_commits: int
    """Committed transactions seen in the log after the damage, which SQLite drops (those of
    a truncated log's lost end cannot be counted)."""
    games: tuple[str, ...]
    """Every game that lost moves: its acknowledged version (by the store's save journal) is
    above the version SQLite has."""
    losses: tuple[tuple[str, int, int | None], ...]
    """For each of ``games``: (game id, the last version saved, the version left or None if
    the whole game is gone)."""
    kept_as: Path | None
    """The damaged log, copied before SQLite opened the database (None: there was no log)."""


def _wal_checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


@attrs.frozen
class _WalCheck:
    kind: str
    frames: int
    valid_frames: int
    lost_commits: int


def _commits(wal: bytes, size: int, frames: range, salts: tuple[int, int] | None) -> int:
    """Commit frames among ``frames`` (those with ``salts``, if given)."""
    count = 0
    for index in frames:
        start = 32 + index * size
        _, commit, f1, f2 = struct.unpack(">4I", wal[start : start + 16])
        count += commit != 0 and (salts is None or (f1, f2) == salts)
    return count


def _check_wal(wal: bytes, page_size: int) -> _WalCheck | None:
    """What is wrong with a write-ahead log, checked as SQLite checks it; None if intact.

    By the checksums and salts of https://www.sqlite.org/fileformat.html#the_write_ahead_log.
    ``page_size`` is the database's, for a log whose own header cannot be read.
    """
    if not wal:
        return None
    if len(wal) < 32:
        return _WalCheck("header", 0, 0, 0)
    magic, _, own_page, _, salt1, salt2, c1, c2 = struct.unpack(">8I", wal[:32])
    big = magic == 0x377F0683
    if magic in (0x377F0682, 0x377F0683) and own_page >= 512:
        page_size = own_page
    size = 24 + page_size
    count = (len(wal) - 32) // size
    if magic not in (0x377F0682, 0x377F0683) or _wal_checksum(wal[:24], big, 0, 0) != (c1, c2):
        # SQLite ignores a log whose header does not check: every frame in it is lost.
        first = struct.unpack(">2I", wal[40:48]) if count else None
        return _WalCheck("header", count, 0, _commits(wal, size, range(count), first))
    s0, s1 = _wal_checksum(wal[:24], big, 0, 0)
    valid = 0
    for index in range(count):
        start = 32 + index * size
        header = wal[start : start + 24]
        _, commit, f1, f2, k1, k2 = struct.unpack(">6I", header)
        kind = None
        if (f1, f2) != (salt1, salt2):
            # Frames of an earlier generation after this one's end are normal; but a frame
            # with this generation's salts after it means the odd one is damage.
            later = range(index + 1, count)
            if not _commits(wal, size, later, (salt1, salt2)):
                return (
                    None if (len(wal) - 32) % size == 0 else _WalCheck("truncated", index, valid, 0)
                )
            kind = "salt"
        else:
            s0, s1 = _wal_checksum(header[:8], big, s0, s1)
            s0, s1 = _wal_checksum(wal[start + 24 : start + size], big, s0, s1)
            if (s0, s1) != (k1, k2):
                kind = "frame"
        if kind is not None:
            lost = _commits(wal, size, range(index, count), (salt1, salt2))
            return _WalCheck(kind, count, valid, lost)
        if commit:
            valid = index + 1
    if (len(wal) - 32) % size:
        return _WalCheck("truncated", count, valid, 0)
    return None


class _SaveJournal:
    """The last version saved of every game, appended to ``<store>-saves`` after each commit.

    SQLite drops, without a word, whatever a damaged write-ahead log held; this journal is
    what the store knows it acknowledged, so that on start it can name every game that lost
    moves. Appended without an fsync of its own (a killed process loses none of it; a power
    cut may lose its last lines, so the report may then miss the very latest moves); rewritten
    short when it grows.
    """

    COMPACT_BYTES = 4 * 1024 * 1024

    def __init__(self, path: Path) -> None:
        self.path = path
        self.versions: dict[str, int] = {}
        self._size = 0
        if path.is_file():
            for line in path.read_text("utf-8", "replace").splitlines():
                game_id, _, version = line.partition(" ")
                if version == "-":
                    self.versions.pop(game_id, None)
                elif version.isdigit():
                    self.versions[game_id] = int(version)

    def start(self, stored: dict[str, int]) -> None:
        """Begin a new journal from the versions now stored."""
        self.versions = dict(stored)
        self._rewrite()

    def saved(self, game_id: str, version: int) -> None:
        self.versions[game_id] = version
        self._append(f"{game_id} {version}\n")

    def deleted(self, game_ids: Iterable[str]) -> None:
        lines = []
        for game_id in game_ids:
            self.versions.pop(game_id, None)
            lines.append(f"{game_id} -\n")
        if lines:
            self._append("".join(lines))

    def _append(self, text: str) -> None:
        # Opened per append (a few microseconds beside the commit's fsync): no file is left
        # open by a store nobody closed.
        with self.path.open("a", encoding="utf-8") as journal:
            journal.write(text)
        self._size += len(text)
        if self._size > self.COMPACT_BYTES:
            self._rewrite()

    def _rewrite(self) -> None:
        fresh = self.path.with_name(f"{self.path.name}.new")
        text = "".join(f"{g} {v}\n" for g, v in sorted(self.versions.items()))
        fresh.write_text(text, "utf-8")
        fresh.replace(self.path)
        self._size = len(text)


class SqliteTableStore:
    """Tables in one SQLite file: WAL mode, a transaction per save, fsync'd on commit.

    On start it checks the write-ahead log before SQLite reads it (SQLite silently drops
    every transaction after a damaged frame, and the whole log if its header is damaged):
    the damaged log is copied aside (``<name>-wal.damaged-<time>``), and every game that lost
    moves is named in the log and in ``wal_damage``, by the save journal (``<name>-saves``,
    the last version saved of each game). A file that is not a readable SQLite database
    (``quick_check`` fails) is moved aside (renamed to ``<name>.corrupt-<time>``, reported in
    the log and in ``set_aside``) and a new one started, so that the server still starts.
    Safe to call from several threads.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.set_aside: Path | None = None
        self.wal_damage: WalDamage | None = None
        self._lock = threading.Lock()
        memory = str(self.path) == ":memory:"
        self._journal = None if memory else _SaveJournal(Path(f"{self.path}-saves"))
        found = None if memory else self._check_wal()
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            self.set_aside = self._move_aside(exc)
            self._db = self._open()
        if self._journal is not None:
            stored = dict(self._db.execute("SELECT game_id, version FROM tables").fetchall())
            self._report_losses(found, stored)
            self._journal.start(stored)

    def _check_wal(self) -> tuple[_WalCheck, Path] | None:
        wal_path = Path(f"{self.path}-wal")
        if not wal_path.is_file():
            return None
        wal = wal_path.read_bytes()
        found = _check_wal(wal, self._page_size())
        if found is None:
            return None
        kept = wal_path.with_name(f"{wal_path.name}.damaged-{_now():%Y%m%dT%H%M%S%f}")
        kept.write_bytes(wal)
        return found, kept

    def _page_size(self) -> int:
        try:
            with self.path.open("rb") as db:
                header = db.read(18)
        except OSError:
            return 4096
        if len(header) < 18 or not header.startswith(b"SQLite format 3\0"):
            return 4096
        size = int.from_bytes(header[16:18], "big")
        return 65536 if size == 1 else size or 4096

    def _report_losses(self, found: tuple[_WalCheck, Path] | None, stored: dict[str, int]) -> None:
        assert self._journal is not None
        losses = tuple(
            (game_id, version, stored.get(game_id))
            for game_id, version in sorted(self._journal.versions.items())
            if stored.get(game_id, -1) < version
        )
        if found is None and not losses:
            return
        check, kept = found if found is not None else (_WalCheck("missing", 0, 0, 0), None)
        games = tuple(game_id for game_id, _, _ in losses)
        self.wal_damage = WalDamage(
            check.kind, check.frames, check.valid_frames, check.lost_commits, games, losses, kept
        )
        what = {
            "header": "its header is damaged, so SQLite ignores all of it",
            "frame": f"frame {check.valid_frames + 1} of {check.frames} is damaged",
            "salt": f"frame {check.valid_frames + 1} of {check.frames} is of another log",
            "truncated": f"it ends inside frame {check.frames + 1}",
            "missing": "it is gone, with saves that only it held",
        }[check.kind]
        if not losses:
            log.warning(
                "the write-ahead log of the table store %s is damaged (%s), but no saved "
                "move is lost (by the save journal); the damaged log is kept as %s",
                self.path,
                what,
                kept,
            )
            return
        detail = ", ".join(
            f"{g} (saved to version {v}, {'gone' if left is None else f'now {left}'})"
            for g, v, left in losses
        )
        log.error(
            "the write-ahead log of the table store %s is damaged (%s): %d games lost moves: "
            "%s; the damaged log is kept as %s. Restore from a backup to get them back "
            "(see docs/hosting.md)",
            self.path,
            what,
            len(losses),
            detail,
            kept or "(none)",
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
            if "next_game" not in columns:  # ... or before "play again" was stored
                db.execute("ALTER TABLE tables ADD COLUMN next_game TEXT")
            # Counted on every new game (max_unplayed) and swept (unplayed_expiry).
            db.execute(
                "CREATE INDEX IF NOT EXISTS unplayed ON tables (updated) "
                "WHERE version = 0 AND over = 0"
            )
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

    def _saved(self, game_id: str, version: int) -> None:
        # Under the lock, after the commit: the journal holds only what is acknowledged.
        if self._journal is not None:
            self._journal.saved(game_id, version)

    def _deleted(self, game_ids: Iterable[str]) -> None:
        if self._journal is not None:
            self._journal.deleted(game_ids)

    def save(self, game_id: str, table: tt.Table, *, version: int | None = None) -> None:
        """Store ``table`` under ``game_id`` in one committed transaction."""
        data = table.save(hash_credentials=True)
        row = (data, int(table.game.is_over), _stamp(_now()))
        if version is None:
            sql = (
                "INSERT INTO tables (data, over, updated, game_id, version) VALUES (?, ?, ?, ?, 0) "
                "ON CONFLICT (game_id) DO UPDATE SET data = excluded.data, "
                "over = excluded.over, updated = excluded.updated, version = version + 1 "
                "RETURNING version"
            )
            with self._lock:
                with self._transaction() as db:
                    ((stored,),) = db.execute(sql, (*row, game_id)).fetchall()
                self._saved(game_id, stored)
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
        with self._lock:
            with self._transaction() as db:
                changed = db.execute(sql, args).rowcount
            if changed == 1:
                self._saved(game_id, version)
        if changed != 1:
            raise VersionConflictError(f"game {game_id}: version {version - 1} is not stored")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction on the database (the caller holds ``_lock``)."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def open_next(self, game_id: str, next_id: str, table: tt.Table) -> str:
        """Store ``table`` as the next game of ``game_id`` unless it has one; the next game."""
        data = table.save(hash_credentials=True)
        with self._lock:
            with self._transaction() as db:
                row = db.execute(
                    "SELECT next_game FROM tables WHERE game_id = ?", (game_id,)
                ).fetchone()
                if row is None:
                    raise VersionConflictError(f"game {game_id} is not stored")
                if row[0] is not None:
                    return str(row[0])
                db.execute(
                    "INSERT INTO tables (game_id, data, over, updated, version) "
                    "VALUES (?, ?, ?, ?, 0)",
                    (next_id, data, int(table.game.is_over), _stamp(_now())),
                )
                db.execute("UPDATE tables SET next_game = ? WHERE game_id = ?", (next_id, game_id))
            self._saved(next_id, 0)
        return next_id

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        with self._lock:
            row = self._db.execute(
                "SELECT data, version, next_game FROM tables WHERE game_id = ?", (game_id,)
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

    def count_unplayed(self) -> int:
        """How many stored games nobody has moved in yet (version 0, not over)."""
        with self._lock:
            (count,) = self._db.execute(
                "SELECT count(*) FROM tables WHERE version = 0 AND over = 0"
            ).fetchone()
        return int(count)

    def expire(
        self,
        idle_before: datetime.datetime,
        finished_before: datetime.datetime | None,
        unplayed_before: datetime.datetime | None = None,
    ) -> list[str]:
        """Delete the games left idle too long (see ``TableStore.expire``); answer their ids."""
        where = "(over = 0 AND updated < ?)"
        args: list[object] = [_stamp(idle_before)]
        if finished_before is not None:
            where += " OR (over = 1 AND updated < ?)"
            args.append(_stamp(finished_before))
        if unplayed_before is not None:
            where += " OR (over = 0 AND version = 0 AND updated < ?)"
            args.append(_stamp(unplayed_before))
        with self._lock:
            with self._transaction() as db:
                gone = [g for (g,) in db.execute(f"SELECT game_id FROM tables WHERE {where}", args)]
                db.execute(f"DELETE FROM tables WHERE {where}", args)
            self._deleted(gone)
        return sorted(gone)

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, data, reason FROM quarantine ORDER BY id"
            ).fetchall()
        return [QuarantinedTable(*row) for row in rows]

    async def watch(self, changed: Changed, resync: Resync, next_game: NextGame) -> None:
        """Nothing to watch: one process owns a SQLite store."""

    def _quarantine(self, game_id: str, data: str, reason: str) -> None:
        with self._lock:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO quarantine (game_id, data, reason, at) VALUES (?, ?, ?, ?)",
                    (game_id, data, reason, _stamp(_now())),
                )
                db.execute("DELETE FROM tables WHERE game_id = ?", (game_id,))
            self._deleted([game_id])

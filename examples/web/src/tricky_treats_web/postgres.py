"""A table store on PostgreSQL, for several server processes that share their games.

Needs ``pip install 'tricky-treats-web[postgresql]'`` (psycopg 3). A move is one transaction
of one statement: it adds the move's row to the game's log, ``(game, version, actions)``, only
if the row of version ``v - 1`` is there; the log's key takes each version once, so of two
processes storing version ``v`` of one game, the one that comes second finds it taken and gets
``VersionConflictError``. The same statement sends
``NOTIFY tricky_treats, '<version> <game id> <actions>'``, which PostgreSQL delivers on commit
to every process that listens: a process that holds the game at the version before plays the
actions (checked by the rules) and tells its sockets; one further behind reads the log. The
move's clock and ``played_by``, if it has them, follow its actions as one JSON object. "Play
again" is announced the same way (``'next <game id> <next game id>'``), and so is a change of
a process's sockets of a game (``'presence <game id>'``: the others read its presence rows).
Each process says it is alive every ``PRESENCE_SECONDS`` (``heartbeat``); the sockets of one
not heard of for ``PRESENCE_TTL`` count as closed when it was last heard of.

While the database is down, every call fails within ``timeout`` seconds with
``StoreUnavailableError`` (never waits for a pool to give up), and the first call after it is
back opens a fresh connection: service resumes as soon as PostgreSQL answers again. While it is
frozen (stopped with SIGSTOP, a host that went quiet: the connections stay open and nothing
answers), a call that has its connection fails after ``statement_seconds`` the same way: a
watchdog shuts the connection's socket down. A move cut so may still be stored when the
database wakes (it had the statement); it is then announced as any move is, and every process
plays it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import itertools
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import tricky_treats as tt
from tricky_treats.host import Table
from tricky_treats_web.store import (
    PRESENCE_TTL,
    SCHEMA_VERSION,
    Changed,
    NextGame,
    PresenceChanged,
    PresenceRow,
    QuarantinedTable,
    Resync,
    StoredMove,
    StoredMoves,
    StoredTable,
    StoreUnavailableError,
    VersionConflictError,
    maker_to_make_way,
    mover_bit,
    new_actions,
    played_by_text,
    read_played_by,
    resume_logged,
    stored_moves,
)

__all__ = ["CHANNEL", "PostgresTableStore"]

log = logging.getLogger("tricky_treats_web.store")

CHANNEL = "tricky_treats"
"""The LISTEN/NOTIFY channel on which every move is announced."""

NOTIFY_BYTES = 7000
"""The longest notification sent with the move's actions (PostgreSQL takes 8000 bytes); a
longer move is announced without them, and the processes read it from the log."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tricky_treats_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tricky_treats_games (
    game_id TEXT PRIMARY KEY,
    snapshot TEXT NOT NULL,
    snapshot_version BIGINT NOT NULL,
    over BOOLEAN NOT NULL,
    moved BOOLEAN NOT NULL,
    updated TIMESTAMPTZ NOT NULL DEFAULT now(),
    next_game TEXT,
    policy TEXT,
    maker TEXT,
    movers BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tricky_treats_games_unplayed
    ON tricky_treats_games (updated) WHERE NOT moved AND NOT over;
CREATE INDEX IF NOT EXISTS tricky_treats_games_idle ON tricky_treats_games (over, updated);
CREATE TABLE IF NOT EXISTS tricky_treats_moves (
    game_id TEXT NOT NULL REFERENCES tricky_treats_games ON DELETE CASCADE,
    version BIGINT NOT NULL,
    actions TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    clock TEXT,
    played_by TEXT,
    PRIMARY KEY (game_id, version)
);
ALTER TABLE tricky_treats_games ADD COLUMN IF NOT EXISTS policy TEXT;
ALTER TABLE tricky_treats_games ADD COLUMN IF NOT EXISTS maker TEXT;
ALTER TABLE tricky_treats_games ADD COLUMN IF NOT EXISTS movers BIGINT NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS tricky_treats_games_maker
    ON tricky_treats_games (maker) WHERE NOT moved AND NOT over;
ALTER TABLE tricky_treats_moves ADD COLUMN IF NOT EXISTS clock TEXT;
ALTER TABLE tricky_treats_moves ADD COLUMN IF NOT EXISTS played_by TEXT;
CREATE TABLE IF NOT EXISTS tricky_treats_presence (
    game_id TEXT NOT NULL REFERENCES tricky_treats_games ON DELETE CASCADE,
    process TEXT NOT NULL,
    seat INTEGER NOT NULL,
    sockets INTEGER NOT NULL,
    left_at TIMESTAMPTZ,
    seen TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, process, seat)
);
CREATE INDEX IF NOT EXISTS tricky_treats_presence_process ON tricky_treats_presence (process);
CREATE TABLE IF NOT EXISTS tricky_treats_quarantine (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL,
    data TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    moves TEXT NOT NULL DEFAULT ''
);
"""
"""Schema 3 (``SCHEMA_VERSION``): a row per game with its snapshot and policy, a row per move
with its clock, a row per game, process and seat (-1: the spectators) with its sockets. The
log's and the presence rows go with their game (``ON DELETE CASCADE``), and a move cannot be
stored for a game that is being deleted (the foreign key). The ``ALTER TABLE`` lines take a
database of schema 2 to 3."""

_PRESENCE = """
WITH written AS (
    INSERT INTO tricky_treats_presence AS row (game_id, process, seat, sockets, left_at)
    VALUES (%(game)s, %(process)s, %(seat)s, %(sockets)s,
        CASE WHEN %(sockets)s = 0 THEN now() END)
    ON CONFLICT (game_id, process, seat) DO UPDATE
        SET sockets = excluded.sockets, left_at = excluded.left_at, seen = now()
    RETURNING game_id
)
SELECT pg_notify(%(channel)s, 'presence ' || game_id) FROM written
"""
"""One process's sockets of a seat of a game (``seat`` -1: the spectators), and the others told."""

_OTHERS = """
SELECT process, seat,
    CASE WHEN seen > now() - make_interval(secs => %(ttl)s) THEN sockets ELSE 0 END,
    extract(epoch FROM now() - CASE
        WHEN sockets = 0 THEN left_at
        WHEN seen > now() - make_interval(secs => %(ttl)s) THEN NULL
        ELSE seen END)
FROM tricky_treats_presence WHERE game_id = %(game)s AND process <> %(process)s
"""
"""The other processes' presence rows of a game, in the database's time: a process not heard of
for ``PRESENCE_TTL`` has no sockets, closed when it was last heard of."""

_FROM_WHOLE_TABLES = """
INSERT INTO tricky_treats_games
    (game_id, snapshot, snapshot_version, over, moved, updated, next_game)
    SELECT game_id, data, version, over, version > 0, updated, next_game
    FROM tricky_treats_tables;
ALTER TABLE tricky_treats_tables RENAME TO tricky_treats_tables_v1;
ALTER INDEX IF EXISTS tricky_treats_tables_unplayed RENAME TO tricky_treats_tables_v1_unplayed;
ALTER INDEX IF EXISTS tricky_treats_tables_idle RENAME TO tricky_treats_tables_v1_idle;
ALTER TABLE tricky_treats_quarantine ADD COLUMN IF NOT EXISTS moves TEXT NOT NULL DEFAULT '';
"""
"""Schema 1 to 2: each stored table becomes a game's snapshot, at its version."""

_APPEND = """
WITH logged AS (
    INSERT INTO tricky_treats_moves (game_id, version, actions, clock, played_by)
    SELECT game_id, %(version)s, %(actions)s, %(clock)s, %(played_by)s
    FROM tricky_treats_games AS game
    WHERE game_id = %(game)s AND (snapshot_version = %(version)s - 1 OR EXISTS (
        SELECT 1 FROM tricky_treats_moves AS move
        WHERE move.game_id = game.game_id AND move.version = %(version)s - 1))
    ON CONFLICT DO NOTHING
    RETURNING game_id
), marked AS (
    UPDATE tricky_treats_games AS game SET movers = game.movers | %(mover)s,
        moved = ((game.movers | %(mover)s) & ((game.movers | %(mover)s) - 1)) <> 0,
        over = %(over)s, updated = now()
    FROM logged WHERE game.game_id = logged.game_id AND (NOT game.moved OR %(over)s)
)
SELECT pg_notify(%(channel)s, %(note)s) FROM logged
"""
"""A move as version v, stored only if v - 1 is (the key (game, version) takes each once);
an unplayed game's row records the seat that moved (played once two have: ``m & (m - 1)``
clears the lowest bit) and the time of its last move, a played game's its last move; the
processes are told. One statement, one round trip."""

_UNPLAYED = "SELECT count(*) FROM tricky_treats_games WHERE NOT moved AND NOT over"
_HEAVIEST = (
    "SELECT maker, count(*) AS held FROM tricky_treats_games WHERE NOT moved AND NOT over "
    "AND maker IS NOT NULL GROUP BY maker ORDER BY held DESC, min(updated) LIMIT 1"
)
_OLDEST = (
    "SELECT game_id FROM tricky_treats_games WHERE NOT moved AND NOT over AND maker = %s "
    "ORDER BY updated LIMIT 1"
)

_LOG = """
SELECT game.snapshot_version, game.next_game, move.version, move.actions, move.clock,
    move.played_by
FROM tricky_treats_games AS game LEFT JOIN tricky_treats_moves AS move
    ON move.game_id = game.game_id AND move.version > %s
WHERE game.game_id = %s ORDER BY move.version
"""


def _import_psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise tt.ConfigurationError(
            "a postgresql:// store needs psycopg 3: pip install 'tricky-treats-web[postgresql]'"
        ) from None
    return psycopg


class _Watchdog:
    """Cuts the connection of a transaction that runs past its deadline.

    A frozen database keeps its TCP connections open (the kernel still acknowledges what is
    sent) and answers nothing, so psycopg would wait for ever. Shutting the socket down makes
    the waiting call fail at once (``OperationalError``). One thread, started on first use,
    watches every transaction of the process.
    """

    def __init__(self) -> None:
        self._running: dict[int, tuple[float, Any]] = {}
        self._keys = itertools.count()
        self._condition = threading.Condition()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def watching(self, conn: Any, seconds: float | None) -> Iterator[None]:
        """Cut ``conn`` if the block lasts more than ``seconds`` (None: never)."""
        if seconds is None:
            yield
            return
        key = next(self._keys)
        with self._condition:
            self._running[key] = (time.monotonic() + seconds, conn)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="tricky-treats-web store watchdog", daemon=True
                )
                self._thread.start()
            self._condition.notify()
        try:
            yield
        finally:
            with self._condition:
                self._running.pop(key, None)

    def _run(self) -> None:
        with self._condition:
            while True:
                now = time.monotonic()
                for key, (deadline, conn) in list(self._running.items()):
                    if deadline <= now:
                        del self._running[key]
                        _cut(conn)
                soonest = min((d for d, _ in self._running.values()), default=now + 60)
                self._condition.wait(max(0.01, soonest - now))


def _cut(conn: Any) -> None:
    """Shut the socket of ``conn`` down: a call waiting on it fails, in its own thread."""
    with contextlib.suppress(Exception):  # closed meanwhile: nothing to cut
        duplicate = socket.socket(fileno=os.dup(conn.pgconn.socket))
        try:
            duplicate.shutdown(socket.SHUT_RDWR)
        finally:
            duplicate.close()
    log.warning("PostgreSQL did not answer in time: a connection was cut")


class _Connections:
    """At most ``size`` connections to ``url``, opened when needed, each used by one thread.

    Not psycopg_pool: its reconnection backs off for many seconds after an outage, and its
    waits last the pool's timeout. Here a call waits at most ``timeout`` s for a connection,
    a connection that fails is dropped with every idle one (they went down with the server),
    and one idle for a while is checked before use.
    """

    CHECK_AFTER = 1.0
    """Seconds idle after which a connection is checked (``SELECT 1``) before it is used."""

    def __init__(
        self, psycopg: Any, url: str, size: int, timeout: float, statement_seconds: float
    ) -> None:
        self._psycopg = psycopg
        self._url = url
        self._timeout = timeout
        self._statement_seconds = statement_seconds
        self._watchdog = _Watchdog()
        self._slots = threading.BoundedSemaphore(size)
        self._idle: list[tuple[Any, float]] = []
        self._lock = threading.Lock()
        self.closed = False

    def _open(self) -> Any:
        return self._psycopg.connect(
            self._url,
            connect_timeout=max(2, round(self._timeout)),
            application_name="tricky-treats-web",
        )

    def _take(self) -> Any:
        while True:
            with self._lock:
                if not self._idle:
                    break
                conn, since = self._idle.pop()
            if conn.closed or conn.broken:
                continue
            if time.monotonic() - since < self.CHECK_AFTER:
                return conn
            try:
                conn.execute("SELECT 1")
                conn.rollback()
                return conn
            except self._psycopg.Error:
                conn.close()
                self._drop_idle()
        return self._open()

    def _drop_idle(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn, _ in idle:
            conn.close()

    @contextlib.contextmanager
    def connection(self, *, single: bool = False, seconds: float | None = -1.0) -> Iterator[Any]:
        """A connection for one transaction, committed when the block ends without error.

        ``single``: the block runs one statement, which is its own transaction (autocommit:
        one round trip to the server instead of three). ``StoreUnavailableError`` if no
        connection is to be had within the timeout, or the database fails under it or does
        not answer within ``seconds`` (by default ``statement_seconds``; None: no bound).
        """
        psycopg = self._psycopg
        if self.closed:
            raise StoreUnavailableError("the store is closed")
        if not self._slots.acquire(timeout=self._timeout):
            raise StoreUnavailableError(f"no connection to PostgreSQL within {self._timeout} s")
        conn = None
        try:
            conn = self._take()
            bound = self._statement_seconds if seconds is not None and seconds < 0 else seconds
            with self._watchdog.watching(conn, bound):
                if conn.autocommit != single:
                    conn.autocommit = single
                yield conn
                conn.commit()
        except psycopg.OperationalError as exc:
            if conn is not None:
                conn.close()
            self._drop_idle()
            raise StoreUnavailableError(f"PostgreSQL: {exc}") from exc
        except BaseException:
            if conn is not None and not conn.closed:
                try:
                    conn.rollback()
                except psycopg.Error:
                    conn.close()
            raise
        finally:
            if conn is not None and not conn.closed and not conn.broken and not self.closed:
                with self._lock:
                    self._idle.append((conn, time.monotonic()))
            self._slots.release()

    def close(self) -> None:
        self.closed = True
        self._drop_idle()


class PostgresTableStore:
    """Tables in a PostgreSQL database that several server processes share.

    ``url`` is a libpq connection URL (``postgresql://user@host:port/database``); ``pool_size``
    bounds the connections this process opens for saves and loads (one more listens);
    ``timeout`` bounds the wait for one, in seconds, and ``statement_seconds`` the wait for
    the database's answer (a sweep of expired games has ``SWEEP_SECONDS``, a migration no
    bound). ``StoreUnavailableError`` if the database cannot be reached.
    """

    SWEEP_SECONDS = 60.0
    """The bound on a sweep of expired games, which may delete many."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 8,
        timeout: float = 1.5,
        statement_seconds: float = 3.0,
    ) -> None:
        psycopg = _import_psycopg()
        self._psycopg = psycopg
        self.url = url
        self._pool = _Connections(psycopg, url, pool_size, timeout, statement_seconds)
        with self._pool.connection(seconds=None) as conn:
            # One process at a time creates or migrates the schema.
            conn.execute("SELECT pg_advisory_xact_lock(7274251)")
            self._migrate(conn)

    def _migrate(self, conn: Any) -> None:
        """Bring the database to ``SCHEMA_VERSION`` (in the caller's transaction)."""
        old = conn.execute("SELECT to_regclass('tricky_treats_tables')").fetchone()[0]
        conn.execute(_SCHEMA)
        row = conn.execute("SELECT max(version) FROM tricky_treats_schema").fetchone()
        found = row[0] if row[0] is not None else (1 if old is not None else 0)
        if found > SCHEMA_VERSION:
            raise tt.ConfigurationError(
                f"the table store has schema {found}, written by a newer tricky-treats-web "
                f"(this one reads up to {SCHEMA_VERSION}): upgrade it"
            )
        if found == SCHEMA_VERSION:
            return
        # Schema 2 to 3 is done by _SCHEMA's ALTER TABLE lines, which the new columns need.
        moved = 0
        if found == 1:
            # Schema 1 as its last release left it (the versions and "play again" kept).
            conn.execute("ALTER TABLE tricky_treats_tables ADD COLUMN IF NOT EXISTS next_game TEXT")
            moved = conn.execute("SELECT count(*) FROM tricky_treats_tables").fetchone()[0]
            conn.execute(_FROM_WHOLE_TABLES)
        conn.execute("DELETE FROM tricky_treats_schema")
        conn.execute("INSERT INTO tricky_treats_schema VALUES (%s)", (SCHEMA_VERSION,))
        if found == 1:
            log.warning(
                "the table store is migrated to schema %d (a log of moves per game): %d games; "
                "the old table is kept as tricky_treats_tables_v1 (drop it once the games play)",
                SCHEMA_VERSION,
                moved,
            )
        elif found:
            log.warning(
                "the table store is migrated from schema %d to %d (clocks and presence)",
                found,
                SCHEMA_VERSION,
            )

    def close(self) -> None:
        """Close this process's connections."""
        self._pool.close()

    def save(
        self,
        game_id: str,
        table: Table,
        *,
        version: int = 0,
        since: int | None = None,
        policy: str | None = None,
        clock: str | None = None,
        mover: int | None = None,
    ) -> None:
        """Store a new game (version 0) or a move (see ``TableStore.save``), and announce it."""
        if version == 0:
            data = table.save(hash_credentials=True)
            with self._pool.connection() as conn:
                cursor = conn.execute(
                    "INSERT INTO tricky_treats_games "
                    "(game_id, snapshot, snapshot_version, over, moved, policy) "
                    "VALUES (%s, %s, 0, %s, false, %s) ON CONFLICT (game_id) DO NOTHING",
                    (game_id, data, table.game.is_over, policy),
                )
                if cursor.rowcount != 1:
                    raise VersionConflictError(f"game {game_id} is stored already")
            return
        actions = new_actions(table, version, since)
        assert since is not None  # new_actions checked it
        by = played_by_text(table, since)
        note = f"{version} {game_id} {actions}"
        if clock is not None or by is not None:
            note += f' {{"clock": {clock or "null"}, "played_by": {by or "null"}}}'
        if len(note.encode()) > NOTIFY_BYTES:
            note = f"{version} {game_id}"
        arguments = {
            "game": game_id,
            "version": version,
            "actions": actions,
            "clock": clock,
            "played_by": by,
            "over": table.game.is_over,
            "mover": mover_bit(mover),
            "channel": CHANNEL,
            "note": note,
        }
        try:
            with self._pool.connection(single=True) as conn:
                if not conn.execute(_APPEND, arguments).fetchall():
                    raise VersionConflictError(
                        f"game {game_id}: version {version - 1} is not the last"
                    )
        except self._psycopg.errors.ForeignKeyViolation:  # the game was deleted meanwhile
            raise VersionConflictError(f"game {game_id} is not stored") from None
        # Leaving the block committed: the move is durable and the notification goes out.

    def open_next(self, game_id: str, next_id: str, table: Table, policy: str | None = None) -> str:
        """Store ``table`` as the next game of ``game_id`` unless it has one; the next game."""
        data = table.save(hash_credentials=True)
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT next_game FROM tricky_treats_games WHERE game_id = %s FOR UPDATE",
                (game_id,),
            ).fetchone()
            if row is None:
                raise VersionConflictError(f"game {game_id} is not stored")
            if row[0] is not None:
                return str(row[0])
            conn.execute(
                "INSERT INTO tricky_treats_games (game_id, snapshot, snapshot_version, over, "
                "moved, policy) VALUES (%s, %s, 0, %s, false, %s)",
                (next_id, data, table.game.is_over, policy),
            )
            conn.execute(
                "UPDATE tricky_treats_games SET next_game = %s WHERE game_id = %s",
                (next_id, game_id),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"next {game_id} {next_id}"))
        return next_id

    CREATE_LOCK = 7274252
    """The advisory lock that makes the processes' new games one at a time (their caps)."""

    def create(
        self,
        game_id: str,
        table: Table,
        *,
        policy: str | None,
        maker: str,
        per_maker: int,
        most: int,
    ) -> list[str]:
        """Store a new game of ``maker`` if the caps allow it (see ``TableStore.create``)."""
        data = table.save(hash_credentials=True)
        with self._pool.connection() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.CREATE_LOCK,))
            (held,) = conn.execute(f"{_UNPLAYED} AND maker = %s", (maker,)).fetchone()
            (total,) = conn.execute(_UNPLAYED).fetchone()
            heaviest = maker_to_make_way(
                held, total, per_maker, most, lambda: conn.execute(_HEAVIEST).fetchone()
            )
            gone: list[str] = []
            if heaviest is not None:
                gone = [conn.execute(_OLDEST, (heaviest,)).fetchone()[0]]
                conn.execute("DELETE FROM tricky_treats_games WHERE game_id = %s", (gone[0],))
            conn.execute(
                "INSERT INTO tricky_treats_games "
                "(game_id, snapshot, snapshot_version, over, moved, policy, maker) "
                "VALUES (%s, %s, 0, %s, false, %s, %s)",
                (game_id, data, table.game.is_over, policy, maker),
            )
        return gone

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT snapshot, snapshot_version, next_game, policy FROM tricky_treats_games "
                "WHERE game_id = %s",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            moves = conn.execute(
                "SELECT version, actions, clock, played_by FROM tricky_treats_moves "
                "WHERE game_id = %s AND version > %s ORDER BY version",
                (game_id, row[1]),
            ).fetchall()
        return resume_logged(game_id, row[0], row[1], moves, row[2], self._quarantine, row[3])

    def moves_since(self, game_id: str, version: int) -> StoredMoves | None:
        """The moves of ``game_id`` stored after ``version`` (None: it is not stored)."""
        with self._pool.connection(single=True) as conn:
            rows = conn.execute(_LOG, (version, game_id)).fetchall()
        if not rows:
            return None
        moves = [(row[2], row[3], row[4], row[5]) for row in rows if row[2] is not None]
        return stored_moves(rows[0][0], rows[0][1], moves)

    def version(self, game_id: str) -> int | None:
        """The stored version of ``game_id``, or None if it is not stored."""
        with self._pool.connection(single=True) as conn:
            row = conn.execute(
                "SELECT greatest(snapshot_version, (SELECT max(version) FROM tricky_treats_moves "
                "AS move WHERE move.game_id = game.game_id)) FROM tricky_treats_games AS game "
                "WHERE game_id = %s",
                (game_id,),
            ).fetchone()
        return None if row is None else int(row[0])

    def load_unfinished(self) -> dict[str, StoredTable]:
        """Every game that is not over, by id; the ones that fail to load are quarantined."""
        with self._pool.connection() as conn:
            ids = [
                game_id
                for (game_id,) in conn.execute(
                    "SELECT game_id FROM tricky_treats_games WHERE NOT over"
                ).fetchall()
            ]
        tables = {}
        for game_id in ids:
            stored = self.load(game_id)
            if stored is not None:
                tables[game_id] = stored
        return tables

    def count_unplayed(self) -> int:
        """How many stored games are unplayed (fewer than two seats moved, not over)."""
        with self._pool.connection(single=True) as conn:
            row = conn.execute(_UNPLAYED).fetchone()
        return int(row[0])

    def expire(
        self,
        idle_before: datetime.datetime,
        finished_before: datetime.datetime | None,
        unplayed_before: datetime.datetime | None = None,
    ) -> list[str]:
        """Delete the games left idle too long (see ``TableStore.expire``); answer their ids."""
        # An unfinished game's row is written when it starts and at its first move; the time
        # of its last move is its log's. The log's rows go with their game (the foreign key).
        with self._pool.connection(seconds=self.SWEEP_SECONDS) as conn:
            rows = conn.execute(
                "DELETE FROM tricky_treats_games AS game WHERE (NOT over AND updated < %s "
                "AND coalesce((SELECT at FROM tricky_treats_moves AS move "
                "WHERE move.game_id = game.game_id ORDER BY version DESC LIMIT 1), '-infinity') "
                "< %s) "
                "OR (over AND %s::timestamptz IS NOT NULL AND updated < %s) "
                "OR (NOT over AND NOT moved AND %s::timestamptz IS NOT NULL AND updated < %s) "
                "RETURNING game_id",
                (
                    idle_before,
                    idle_before,
                    finished_before,
                    finished_before,
                    unplayed_before,
                    unplayed_before,
                ),
            ).fetchall()
        return sorted(game_id for (game_id,) in rows)

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored games that failed to load, oldest first."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id, data, reason, moves FROM tricky_treats_quarantine ORDER BY id"
            ).fetchall()
        return [QuarantinedTable(*row) for row in rows]

    def set_presence(self, game_id: str, process: str, seat: int | None, sockets: int) -> None:
        """Say how many sockets of ``seat`` (None: spectators) ``process`` holds; told to all."""
        arguments = {
            "game": game_id,
            "process": process,
            "seat": -1 if seat is None else seat,
            "sockets": sockets,
            "channel": CHANNEL,
        }
        try:
            with self._pool.connection(single=True) as conn:
                conn.execute(_PRESENCE, arguments)
        except self._psycopg.errors.ForeignKeyViolation:  # the game was deleted meanwhile
            pass

    def presence(self, game_id: str, process: str) -> list[PresenceRow]:
        """The presence rows of ``game_id`` of every process but ``process`` (see ``_OTHERS``)."""
        with self._pool.connection(single=True) as conn:
            rows = conn.execute(
                _OTHERS, {"game": game_id, "process": process, "ttl": PRESENCE_TTL}
            ).fetchall()
        return [
            PresenceRow(
                other,
                None if seat < 0 else seat,
                sockets,
                None if away is None else max(0.0, float(away)),
            )
            for other, seat, sockets, away in rows
        ]

    def heartbeat(self, process: str) -> None:
        """Say that ``process`` is alive: its rows with open sockets are seen now."""
        with self._pool.connection(single=True) as conn:
            conn.execute(
                "UPDATE tricky_treats_presence SET seen = now() WHERE process = %s AND sockets > 0",
                (process,),
            )

    RETRY_SECONDS = 0.5
    """How soon a broken listening connection is opened again."""

    async def watch(
        self,
        changed: Changed,
        resync: Resync,
        next_game: NextGame,
        presence: PresenceChanged | None = None,
    ) -> None:
        """LISTEN for moves and call ``changed(game_id, version, move)`` for each.

        And ``next_game(game_id, next_id)`` for each next game stored, and
        ``presence(game_id)`` for each change of another process's sockets, until cancelled.
        A lost connection is opened again after ``RETRY_SECONDS``, and ``resync`` is called
        then: moves announced while nobody listened are found in the log.
        """
        psycopg = self._psycopg
        running: set[asyncio.Future[None]] = set()

        def start(work: Any) -> None:
            # Each game catches up on its own (its room's lock keeps the order): one slow
            # load must not hold up the notifications of other games.
            task = asyncio.ensure_future(work)
            running.add(task)
            task.add_done_callback(running.discard)

        quiet = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url,
                    autocommit=True,
                    connect_timeout=2,
                    application_name="tricky-treats-web listen",
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if quiet:
                        log.warning("listening for other processes' moves again")
                    quiet = False
                    await resync()
                    async for note in conn.notifies():
                        first, _, rest = note.payload.partition(" ")
                        if first == "next":
                            game_id, _, next_id = rest.partition(" ")
                            start(next_game(game_id, next_id))
                        elif first == "presence":
                            told = presence(rest) if presence is not None else None
                            if told is not None:
                                start(told)
                        elif first.isdigit():
                            game_id, _, text = rest.partition(" ")
                            work = changed(game_id, int(first), _heard_move(int(first), text))
                            if work is not None:  # a game this process holds
                                start(work)
            except (psycopg.Error, OSError) as exc:
                if not quiet:  # said once per outage, not twice a second
                    log.warning(
                        "listening for other processes' moves failed (%s); trying again every %s s",
                        exc,
                        self.RETRY_SECONDS,
                    )
                quiet = True
                await asyncio.sleep(self.RETRY_SECONDS)

    def _quarantine(self, game_id: str, data: str, reason: str, moves: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO tricky_treats_quarantine (game_id, data, reason, moves) "
                "VALUES (%s, %s, %s, %s)",
                (game_id, data, reason, moves),
            )
            conn.execute("DELETE FROM tricky_treats_games WHERE game_id = %s", (game_id,))


def _heard_move(version: int, text: str) -> StoredMove | None:
    """The move a notification carries, or None (none told, or damaged: read the log).

    Its actions, then its clock and ``played_by`` as one JSON object; a move too long for a
    notification is told without them.
    """
    actions, brace, extra = text.partition("{")
    words = tuple(actions.split())
    if not words:
        return None
    if not brace:
        return StoredMove(version, words)
    try:
        meta = json.loads(brace + extra)
        clock = meta["clock"]
        return StoredMove(
            version,
            words,
            None if clock is None else json.dumps(clock),
            read_played_by(None if meta["played_by"] is None else json.dumps(meta["played_by"])),
        )
    except (ValueError, KeyError, TypeError, tt.TrickyTreatsError):
        return None  # the log has it: read from there

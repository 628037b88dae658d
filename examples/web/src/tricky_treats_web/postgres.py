"""A table store on PostgreSQL, for several server processes that share their games.

Needs ``pip install 'tricky-treats-web[postgresql]'`` (psycopg 3). A move is one transaction
of one statement: it adds the move's row to the game's log, ``(game, version, actions)``, only
if the row of version ``v - 1`` is there; the log's key takes each version once, so of two
processes storing version ``v`` of one game, the one that comes second finds it taken and gets
``VersionConflictError``. The same statement sends
``NOTIFY tricky_treats, '<version> <game id> <actions>'``, which PostgreSQL delivers on commit
to every process that listens: a process that holds the game at the version before plays the
actions (checked by the rules) and tells its sockets; one further behind reads the log.
"Play again" is announced the same way (``'next <game id> <next game id>'``).

While the database is down, every call fails within ``timeout`` seconds with
``StoreUnavailableError`` (never waits for a pool to give up), and the first call after it is
back opens a fresh connection: service resumes as soon as PostgreSQL answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import tricky_treats as tt
from tricky_treats.host import Table
from tricky_treats_web.store import (
    SCHEMA_VERSION,
    Changed,
    NextGame,
    QuarantinedTable,
    Resync,
    StoredMoves,
    StoredTable,
    StoreUnavailableError,
    VersionConflictError,
    new_actions,
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
    next_game TEXT
);
CREATE INDEX IF NOT EXISTS tricky_treats_games_unplayed
    ON tricky_treats_games (updated) WHERE NOT moved AND NOT over;
CREATE INDEX IF NOT EXISTS tricky_treats_games_idle ON tricky_treats_games (over, updated);
CREATE TABLE IF NOT EXISTS tricky_treats_moves (
    game_id TEXT NOT NULL REFERENCES tricky_treats_games ON DELETE CASCADE,
    version BIGINT NOT NULL,
    actions TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, version)
);
CREATE TABLE IF NOT EXISTS tricky_treats_quarantine (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL,
    data TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    moves TEXT NOT NULL DEFAULT ''
);
"""
"""Schema 2 (``SCHEMA_VERSION``): a row per game with its snapshot, a row per move. The log's
rows go with their game (``ON DELETE CASCADE``), and a move cannot be stored for a game that
is being deleted (the foreign key)."""

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
    INSERT INTO tricky_treats_moves (game_id, version, actions)
    SELECT game_id, %(version)s, %(actions)s FROM tricky_treats_games AS game
    WHERE game_id = %(game)s AND (snapshot_version = %(version)s - 1 OR EXISTS (
        SELECT 1 FROM tricky_treats_moves AS move
        WHERE move.game_id = game.game_id AND move.version = %(version)s - 1))
    ON CONFLICT DO NOTHING
    RETURNING game_id
), marked AS (
    UPDATE tricky_treats_games AS game SET moved = true, over = %(over)s, updated = now()
    FROM logged WHERE game.game_id = logged.game_id AND (NOT game.moved OR %(over)s)
)
SELECT pg_notify(%(channel)s, %(note)s) FROM logged
"""
"""A move as version v, stored only if v - 1 is (the key (game, version) takes each once);
the game's row records its first move and its last; the processes are told. One statement,
one round trip."""

_LOG = """
SELECT game.snapshot_version, game.next_game, move.version, move.actions
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


class _Connections:
    """At most ``size`` connections to ``url``, opened when needed, each used by one thread.

    Not psycopg_pool: its reconnection backs off for many seconds after an outage, and its
    waits last the pool's timeout. Here a call waits at most ``timeout`` s for a connection,
    a connection that fails is dropped with every idle one (they went down with the server),
    and one idle for a while is checked before use.
    """

    CHECK_AFTER = 1.0
    """Seconds idle after which a connection is checked (``SELECT 1``) before it is used."""

    def __init__(self, psycopg: Any, url: str, size: int, timeout: float) -> None:
        self._psycopg = psycopg
        self._url = url
        self._timeout = timeout
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
    def connection(self, *, single: bool = False) -> Iterator[Any]:
        """A connection for one transaction, committed when the block ends without error.

        ``single``: the block runs one statement, which is its own transaction (autocommit:
        one round trip to the server instead of three). ``StoreUnavailableError`` if no
        connection is to be had within the timeout or the database fails under it.
        """
        psycopg = self._psycopg
        if self.closed:
            raise StoreUnavailableError("the store is closed")
        if not self._slots.acquire(timeout=self._timeout):
            raise StoreUnavailableError(f"no connection to PostgreSQL within {self._timeout} s")
        conn = None
        try:
            conn = self._take()
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
    ``timeout`` bounds the wait for one, in seconds.
    """

    def __init__(self, url: str, *, pool_size: int = 8, timeout: float = 1.5) -> None:
        psycopg = _import_psycopg()
        self._psycopg = psycopg
        self.url = url
        self._pool = _Connections(psycopg, url, pool_size, timeout)
        with self._pool.connection() as conn:
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

    def close(self) -> None:
        """Close this process's connections."""
        self._pool.close()

    def save(
        self, game_id: str, table: Table, *, version: int = 0, since: int | None = None
    ) -> None:
        """Store a new game (version 0) or a move (see ``TableStore.save``), and announce it."""
        if version == 0:
            data = table.save(hash_credentials=True)
            with self._pool.connection() as conn:
                cursor = conn.execute(
                    "INSERT INTO tricky_treats_games "
                    "(game_id, snapshot, snapshot_version, over, moved) "
                    "VALUES (%s, %s, 0, %s, false) ON CONFLICT (game_id) DO NOTHING",
                    (game_id, data, table.game.is_over),
                )
                if cursor.rowcount != 1:
                    raise VersionConflictError(f"game {game_id} is stored already")
            return
        actions = new_actions(table, version, since)
        note = f"{version} {game_id} {actions}"
        if len(note.encode()) > NOTIFY_BYTES:
            note = f"{version} {game_id}"
        arguments = {
            "game": game_id,
            "version": version,
            "actions": actions,
            "over": table.game.is_over,
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

    def open_next(self, game_id: str, next_id: str, table: Table) -> str:
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
                "moved) VALUES (%s, %s, 0, %s, false)",
                (next_id, data, table.game.is_over),
            )
            conn.execute(
                "UPDATE tricky_treats_games SET next_game = %s WHERE game_id = %s",
                (next_id, game_id),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"next {game_id} {next_id}"))
        return next_id

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT snapshot, snapshot_version, next_game FROM tricky_treats_games "
                "WHERE game_id = %s",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            moves = conn.execute(
                "SELECT version, actions FROM tricky_treats_moves "
                "WHERE game_id = %s AND version > %s ORDER BY version",
                (game_id, row[1]),
            ).fetchall()
        return resume_logged(game_id, row[0], row[1], moves, row[2], self._quarantine)

    def moves_since(self, game_id: str, version: int) -> StoredMoves | None:
        """The moves of ``game_id`` stored after ``version`` (None: it is not stored)."""
        with self._pool.connection(single=True) as conn:
            rows = conn.execute(_LOG, (version, game_id)).fetchall()
        if not rows:
            return None
        moves = [(row[2], row[3]) for row in rows if row[2] is not None]
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
        """How many stored games nobody has moved in yet (no move stored, not over)."""
        with self._pool.connection(single=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM tricky_treats_games WHERE NOT moved AND NOT over"
            ).fetchone()
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
        with self._pool.connection() as conn:
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

    RETRY_SECONDS = 0.5
    """How soon a broken listening connection is opened again."""

    async def watch(self, changed: Changed, resync: Resync, next_game: NextGame) -> None:
        """LISTEN for moves and call ``changed(game_id, version, actions)`` for each.

        And ``next_game(game_id, next_id)`` for each next game stored, until cancelled. A lost
        connection is opened again after ``RETRY_SECONDS``, and ``resync`` is called then:
        moves announced while nobody listened are found in the log.
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
                        elif first.isdigit():
                            game_id, _, actions = rest.partition(" ")
                            work = changed(game_id, int(first), tuple(actions.split()) or None)
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

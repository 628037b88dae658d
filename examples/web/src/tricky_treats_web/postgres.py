"""A table store on PostgreSQL, for several server processes that share their games.

Needs ``pip install 'tricky-treats-web[postgresql]'`` (psycopg 3). Every save is
one transaction; a move is stored as version ``v`` of its game only if the row holds ``v - 1``
(``UPDATE ... WHERE version = v - 1``: the row lock orders two processes' saves, and the one
that comes second finds another version and gets ``VersionConflictError``). The same
transaction sends ``NOTIFY tricky_treats, '<version> <game id>'``, which PostgreSQL delivers
on commit to every process that listens: that is how a move made through one process reaches
the sockets that another process holds. "Play again" is announced the same way
(``'next <game id> <next game id>'``).

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
from tricky_treats_web.store import (
    Changed,
    NextGame,
    QuarantinedTable,
    Resync,
    StoredTable,
    StoreUnavailableError,
    VersionConflictError,
    resume_stored,
    resume_unfinished,
)

__all__ = ["CHANNEL", "PostgresTableStore"]

log = logging.getLogger("tricky_treats_web.store")

CHANNEL = "tricky_treats"
"""The LISTEN/NOTIFY channel on which every save is announced."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tricky_treats_tables (
    game_id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    over BOOLEAN NOT NULL,
    version BIGINT NOT NULL,
    updated TIMESTAMPTZ NOT NULL DEFAULT now()
);
ALTER TABLE tricky_treats_tables ADD COLUMN IF NOT EXISTS next_game TEXT;
CREATE INDEX IF NOT EXISTS tricky_treats_tables_unplayed
    ON tricky_treats_tables (updated) WHERE version = 0 AND NOT over;
CREATE INDEX IF NOT EXISTS tricky_treats_tables_idle
    ON tricky_treats_tables (over, updated);
CREATE TABLE IF NOT EXISTS tricky_treats_quarantine (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL,
    data TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);
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
    def connection(self) -> Iterator[Any]:
        """A connection for one transaction, committed when the block ends without error.

        ``StoreUnavailableError`` if none is to be had within the timeout or the database
        fails under it.
        """
        psycopg = self._psycopg
        if self.closed:
            raise StoreUnavailableError("the store is closed")
        if not self._slots.acquire(timeout=self._timeout):
            raise StoreUnavailableError(f"no connection to PostgreSQL within {self._timeout} s")
        conn = None
        try:
            conn = self._take()
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
            # One process at a time creates the schema (CREATE ... IF NOT EXISTS can race).
            conn.execute("SELECT pg_advisory_xact_lock(7274251)")
            conn.execute(_SCHEMA)

    def close(self) -> None:
        """Close this process's connections."""
        self._pool.close()

    def save(self, game_id: str, table: tt.Table, *, version: int | None = None) -> None:
        """Store ``table`` (as ``version``, if given) in one transaction, and announce it."""
        data = table.save(hash_credentials=True)
        over = table.game.is_over
        with self._pool.connection() as conn:
            if version is None:
                row = conn.execute(
                    "INSERT INTO tricky_treats_tables (game_id, data, over, version) "
                    "VALUES (%s, %s, %s, 0) ON CONFLICT (game_id) DO UPDATE SET "
                    "data = excluded.data, over = excluded.over, updated = now(), "
                    "version = tricky_treats_tables.version + 1 RETURNING version",
                    (game_id, data, over),
                ).fetchone()
                stored = row[0]
            elif version == 0:
                cursor = conn.execute(
                    "INSERT INTO tricky_treats_tables (game_id, data, over, version) "
                    "VALUES (%s, %s, %s, 0) ON CONFLICT (game_id) DO NOTHING",
                    (game_id, data, over),
                )
                stored = 0 if cursor.rowcount == 1 else None
            else:
                cursor = conn.execute(
                    "UPDATE tricky_treats_tables SET data = %s, over = %s, version = %s, "
                    "updated = now() WHERE game_id = %s AND version = %s",
                    (data, over, version, game_id, version - 1),
                )
                stored = version if cursor.rowcount == 1 else None
            if stored is None:
                conn.rollback()
                raise VersionConflictError(f"game {game_id}: version {version} follows another")
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{stored} {game_id}"))
        # Leaving the block commits: the move is durable and the notification goes out.

    def open_next(self, game_id: str, next_id: str, table: tt.Table) -> str:
        """Store ``table`` as the next game of ``game_id`` unless it has one; the next game."""
        data = table.save(hash_credentials=True)
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT next_game FROM tricky_treats_tables WHERE game_id = %s FOR UPDATE",
                (game_id,),
            ).fetchone()
            if row is None:
                raise VersionConflictError(f"game {game_id} is not stored")
            if row[0] is not None:
                return str(row[0])
            conn.execute(
                "INSERT INTO tricky_treats_tables (game_id, data, over, version) "
                "VALUES (%s, %s, %s, 0)",
                (next_id, data, table.game.is_over),
            )
            conn.execute(
                "UPDATE tricky_treats_tables SET next_game = %s WHERE game_id = %s",
                (next_id, game_id),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"next {game_id} {next_id}"))
        return next_id

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT data, version, next_game FROM tricky_treats_tables WHERE game_id = %s",
                (game_id,),
            ).fetchone()
        return resume_stored(game_id, row, self._quarantine)

    def version(self, game_id: str) -> int | None:
        """The stored version of ``game_id``, or None if it is not stored."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT version FROM tricky_treats_tables WHERE game_id = %s", (game_id,)
            ).fetchone()
        return None if row is None else int(row[0])

    def load_unfinished(self) -> dict[str, StoredTable]:
        """Every game that is not over, by id; the ones that fail to load are quarantined."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id, data, version FROM tricky_treats_tables WHERE NOT over"
            ).fetchall()
        return resume_unfinished(rows, self._quarantine)

    def count_unplayed(self) -> int:
        """How many stored games nobody has moved in yet (version 0, not over)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT count(*) FROM tricky_treats_tables WHERE version = 0 AND NOT over"
            ).fetchone()
        return int(row[0])

    def expire(
        self,
        idle_before: datetime.datetime,
        finished_before: datetime.datetime | None,
        unplayed_before: datetime.datetime | None = None,
    ) -> list[str]:
        """Delete the games left idle too long (see ``TableStore.expire``); answer their ids."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "DELETE FROM tricky_treats_tables WHERE (NOT over AND updated < %s) "
                "OR (over AND %s::timestamptz IS NOT NULL AND updated < %s) "
                "OR (NOT over AND version = 0 AND %s::timestamptz IS NOT NULL AND updated < %s) "
                "RETURNING game_id",
                (idle_before, finished_before, finished_before, unplayed_before, unplayed_before),
            ).fetchall()
        return sorted(game_id for (game_id,) in rows)

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, oldest first."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id, data, reason FROM tricky_treats_quarantine ORDER BY id"
            ).fetchall()
        return [QuarantinedTable(*row) for row in rows]

    RETRY_SECONDS = 0.5
    """How soon a broken listening connection is opened again."""

    async def watch(self, changed: Changed, resync: Resync, next_game: NextGame) -> None:
        """LISTEN for saves and call ``changed(game_id, version)`` for each, until cancelled.

        And ``next_game(game_id, next_id)`` for each next game stored. A lost connection is
        opened again after ``RETRY_SECONDS``, and ``resync`` is called then: saves announced
        while nobody listened are found by their versions.
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
                    self.url, autocommit=True, connect_timeout=2
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
                            start(changed(rest, int(first)))
            except (psycopg.Error, OSError) as exc:
                if not quiet:  # said once per outage, not twice a second
                    log.warning(
                        "listening for other processes' moves failed (%s); trying again every %s s",
                        exc,
                        self.RETRY_SECONDS,
                    )
                quiet = True
                await asyncio.sleep(self.RETRY_SECONDS)

    def _quarantine(self, game_id: str, data: str, reason: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO tricky_treats_quarantine (game_id, data, reason) VALUES (%s, %s, %s)",
                (game_id, data, reason),
            )
            conn.execute("DELETE FROM tricky_treats_tables WHERE game_id = %s", (game_id,))

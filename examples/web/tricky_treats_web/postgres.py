"""A table store on PostgreSQL, for several server processes that share their games.

Needs ``pip install 'tricky-treats[postgresql]'`` (psycopg 3 and its pool). Every save is
one transaction; a move is stored as version ``v`` of its game only if the row holds ``v - 1``
(``UPDATE ... WHERE version = v - 1``: the row lock orders two processes' saves, and the one
that comes second finds another version and gets ``VersionConflictError``). The same
transaction sends ``NOTIFY tricky_treats, '<version> <game id>'``, which PostgreSQL delivers
on commit to every process that listens: that is how a move made through one process reaches
the sockets that another process holds.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Any

import tricky_treats as tt
from tricky_treats_web.store import (
    Changed,
    QuarantinedTable,
    Resync,
    StoredTable,
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


def _import_psycopg() -> tuple[Any, Any]:
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        raise tt.ConfigurationError(
            "a postgresql:// store needs psycopg 3 and its pool: "
            "pip install 'tricky-treats[postgresql]'"
        ) from None
    return psycopg, psycopg_pool


class PostgresTableStore:
    """Tables in a PostgreSQL database that several server processes share.

    ``url`` is a libpq connection URL (``postgresql://user@host:port/database``); ``pool_size``
    bounds the connections this process opens for saves and loads (one more listens).
    """

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        psycopg, psycopg_pool = _import_psycopg()
        self._psycopg = psycopg
        self.url = url
        self._pool = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=pool_size, open=True, name="tricky-treats"
        )
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

    def load(self, game_id: str) -> StoredTable | None:
        """The table stored under ``game_id``, or None (also when it failed to load)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT data, version FROM tricky_treats_tables WHERE game_id = %s", (game_id,)
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

    def expire(
        self, idle_before: datetime.datetime, finished_before: datetime.datetime | None
    ) -> list[str]:
        """Delete the games left idle too long (see ``TableStore.expire``); answer their ids."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "DELETE FROM tricky_treats_tables WHERE (NOT over AND updated < %s) "
                "OR (over AND %s::timestamptz IS NOT NULL AND updated < %s) RETURNING game_id",
                (idle_before, finished_before, finished_before),
            ).fetchall()
        return sorted(game_id for (game_id,) in rows)

    def quarantined(self) -> list[QuarantinedTable]:
        """The stored tables that failed to load, oldest first."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT game_id, data, reason FROM tricky_treats_quarantine ORDER BY id"
            ).fetchall()
        return [QuarantinedTable(*row) for row in rows]

    async def watch(self, changed: Changed, resync: Resync) -> None:
        """LISTEN for saves and call ``changed(game_id, version)`` for each, until cancelled.

        A lost connection is opened again after a second, and ``resync`` is called then: saves
        announced while nobody listened are found by their versions.
        """
        psycopg = self._psycopg
        running: set[asyncio.Future[None]] = set()
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await resync()
                    async for note in conn.notifies():
                        version, _, game_id = note.payload.partition(" ")
                        # Each game catches up on its own (its room's lock keeps the order):
                        # one slow load must not hold up the notifications of other games.
                        task = asyncio.ensure_future(changed(game_id, int(version)))
                        running.add(task)
                        task.add_done_callback(running.discard)
            except (psycopg.Error, OSError) as exc:
                log.warning("listening for other processes' moves failed (%s); again in 1 s", exc)
                await asyncio.sleep(1)

    def _quarantine(self, game_id: str, data: str, reason: str) -> None:
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO tricky_treats_quarantine (game_id, data, reason) VALUES (%s, %s, %s)",
                (game_id, data, reason),
            )
            conn.execute("DELETE FROM tricky_treats_tables WHERE game_id = %s", (game_id,))

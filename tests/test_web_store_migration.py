"""The web app's stores migrate a database written by the store before the move log (schema 1:
a whole table per game, rewritten on every move), and one written before clocks and presence
(schema 2: a snapshot and a log of moves per game), when they open it, losing nothing.

The old databases are made here as the old stores made them: their schema's SQL, verbatim,
and each row as the old ``save`` wrote it (``table.save(hash_credentials=True)`` at its
version, in the table format of its time). Needs the web app (``pip install -e 'examples/web[postgresql]'``); the PostgreSQL
case needs Debian's ``postgresql`` (``.ci/run`` installs both).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.requirements import WEB_APP_HINT

pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)

from tricky_treats_web import SqliteTableStore, TableStore
from tricky_treats_web.store import SCHEMA_VERSION

import tricky_treats as tt
from tests.stored_games import stored_tables, stored_versions
from tricky_treats.host import PlayedBy, Table

SEED = 4_611_686_018_427_387_000 + 4949

SQLITE_SCHEMA_1 = """
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
ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN next_game TEXT;
CREATE INDEX IF NOT EXISTS unplayed ON tables (updated) WHERE version = 0 AND over = 0;
"""
"""The SQLite store's schema before the move log, as its ``_open`` left a file."""

POSTGRES_SCHEMA_1 = """
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
"""The PostgreSQL store's schema before the move log."""


def _play(table: Table, messages: int) -> Table:
    for _ in range(messages):
        seat = table.game.current_player
        assert seat is not None
        action = str(table.game.legal_actions()[-1])
        table.handle(json.dumps({"credential": table.credential(seat), "action": action}))
    return table


def _finished(seed: int) -> Table:
    table = Table.new(["Ann", "Bo"], seed)
    while not table.game.is_over:
        _play(table, 1)
    return table


def _old_games() -> dict[str, tuple[Table, int, str | None]]:
    """Games as the old store held them: table, version, next game."""
    return {
        "playing": (_play(Table.new(["Ann", "Bo", "Cy"], SEED, bots={2: "greedy"}), 5), 5, None),
        "unplayed": (Table.new(["Ann", "Bo"], SEED + 1), 0, None),
        "finished": (_finished(SEED + 2), 44, "playing"),
        "bots": (Table.new(["A", "B"], SEED + 3, bots={0: "random", 1: "random"}), 0, None),
    }


def _check_migrated(store: TableStore, old: dict[str, tuple[Table, int, str | None]]) -> None:
    """Every old game is there, the same, at its version, with its link; and plays on."""
    for game_id, (table, version, following) in old.items():
        stored = store.load(game_id)
        assert stored is not None, game_id
        assert stored.table.game == table.game
        assert stored.table.save(hash_credentials=True) == table.save(hash_credentials=True)
        assert (stored.version, stored.next_game) == (version, following)
        assert store.version(game_id) == version
    assert store.count_unplayed() == 1  # "unplayed"; the bots' game is over
    assert set(store.load_unfinished()) == {"playing", "unplayed"}
    (kept,) = store.quarantined()
    assert (kept.game_id, kept.data, kept.reason, kept.moves) == ("lost", "{}", "old", "")
    # A migrated game takes its next move on the log, and the log's moves play on load.
    table, version, _ = old["playing"]
    since = len(table.game.history)
    _play(table, 1)
    store.save("playing", table, version=version + 1, since=since)
    stored = store.load("playing")
    assert stored is not None
    assert (stored.version, stored.table.game) == (version + 1, table.game)


def _old_sqlite_file(path: Path, old: dict[str, tuple[Table, int, str | None]]) -> None:
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SQLITE_SCHEMA_1)
        for game_id, (table, version, following) in old.items():
            db.execute(
                "INSERT INTO tables (game_id, data, over, updated, version, next_game) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    table.save(hash_credentials=True),
                    table.game.is_over,
                    stamp,
                    version,
                    following,
                ),
            )
        db.execute(
            "INSERT INTO quarantine (game_id, data, reason, at) VALUES ('lost', '{}', 'old', ?)",
            (stamp,),
        )


def test_a_sqlite_store_written_before_the_move_log_migrates_on_start_losing_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "tables.sqlite3"
    old = _old_games()
    _old_sqlite_file(path, old)
    with contextlib.closing(sqlite3.connect(path)) as db:
        before = db.execute("SELECT * FROM tables ORDER BY game_id").fetchall()

    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        store = SqliteTableStore(path)
    assert f"migrated to schema {SCHEMA_VERSION}" in caplog.text
    assert "4 games" in caplog.text
    assert store.wal_damage is None  # the save journal starts from the migrated versions
    _check_migrated(store, old)
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        # The old table is kept, untouched, until the operator drops it.
        assert db.execute("SELECT * FROM tables_v1 ORDER BY game_id").fetchall() == before
    # The file as the tests read it: every game's snapshot and log.
    assert stored_versions(path) == {"playing": 6, "unplayed": 0, "finished": 44, "bots": 0}
    assert stored_tables(path)["finished"].game == old["finished"][0].game

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        again = SqliteTableStore(path)  # migrated once: a second start finds the schema
    assert caplog.text == ""
    assert again.version("playing") == 6
    assert again.wal_damage is None


def test_a_sqlite_store_of_a_newer_schema_is_refused_not_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    SqliteTableStore(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(tt.ConfigurationError, match="newer tricky-treats-web"):
        SqliteTableStore(path)
    assert path.exists()
    assert not list(tmp_path.glob("*.corrupt-*"))


@contextlib.contextmanager
def _connection(url: str) -> Iterator[Any]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        yield conn


def test_a_postgresql_store_written_before_the_move_log_migrates_on_start_losing_nothing(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from tricky_treats_web.postgres import PostgresTableStore

    old = _old_games()
    with _connection(postgres_url) as conn:
        conn.execute(POSTGRES_SCHEMA_1)
        for game_id, (table, version, following) in old.items():
            conn.execute(
                "INSERT INTO tricky_treats_tables (game_id, data, over, version, next_game) "
                "VALUES (%s, %s, %s, %s, %s)",
                (
                    game_id,
                    table.save(hash_credentials=True),
                    table.game.is_over,
                    version,
                    following,
                ),
            )
        conn.execute(
            "INSERT INTO tricky_treats_quarantine (game_id, data, reason) "
            "VALUES ('lost', '{}', 'old')"
        )
        before = conn.execute("SELECT * FROM tricky_treats_tables ORDER BY game_id").fetchall()

    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        store = PostgresTableStore(postgres_url)
    try:
        assert f"migrated to schema {SCHEMA_VERSION}" in caplog.text
        assert "4 games" in caplog.text
        _check_migrated(store, old)
    finally:
        store.close()
    with _connection(postgres_url) as conn:
        kept = conn.execute("SELECT * FROM tricky_treats_tables_v1 ORDER BY game_id").fetchall()
        assert kept == before
        versions = conn.execute("SELECT version FROM tricky_treats_schema").fetchall()
        assert versions == [(SCHEMA_VERSION,)]
    assert stored_versions(postgres_url) == {"playing": 6, "unplayed": 0, "finished": 44, "bots": 0}

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        again = PostgresTableStore(postgres_url)  # two processes starting: migrated once
    try:
        assert caplog.text == ""
        assert again.version("playing") == 6
    finally:
        again.close()


# -- schema 2 (a snapshot and a log of moves, before clocks and presence) to 3 ----------------

SQLITE_SCHEMA_2 = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    snapshot TEXT NOT NULL,
    snapshot_version INTEGER NOT NULL,
    over INTEGER NOT NULL,
    moved INTEGER NOT NULL,
    updated TEXT NOT NULL,
    next_game TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    actions TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL,
    data TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_unplayed ON games (updated) WHERE moved = 0 AND over = 0;
CREATE INDEX IF NOT EXISTS games_idle ON games (over, updated);
PRAGMA user_version = 2;
"""
"""The SQLite store's schema 2, as its ``_migrate`` left a file."""

POSTGRES_SCHEMA_2 = """
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
INSERT INTO tricky_treats_schema VALUES (2);
"""
"""The PostgreSQL store's schema 2."""


def _format_1(save: str) -> str:
    """A table's save as format 1 wrote it (no hosted seats, no played_by)."""
    document = json.loads(save)
    seats = [{k: v for k, v in seat.items() if k != "hosted"} for seat in document["seats"]]
    del document["played_by"]
    return json.dumps({**document, "format_version": 1, "seats": seats})


def _schema_2_games() -> dict[str, tuple[str, list[tuple[int, str]], Table]]:
    """Games as the schema-2 store held them: snapshot, log, and the table they make."""
    games: dict[str, tuple[str, list[tuple[int, str]], Table]] = {}
    for game_id, players, bots, moves in (
        ("playing", ["Ann", "Bo", "Cy"], {2: "greedy"}, 4),
        ("fresh", ["Ann", "Bo"], {}, 0),
    ):
        table = Table.new(players, SEED + len(games), bots=bots)
        snapshot = _format_1(table.save(hash_credentials=True))
        log = []
        for version in range(1, moves + 1):
            since = len(table.game.history)
            _play(table, 1)
            log.append((version, " ".join(map(str, table.game.history[since:]))))
        games[game_id] = (snapshot, log, table)
    return games


def _check_schema_3(store: TableStore, games: dict[str, tuple[str, list[Any], Table]]) -> None:
    """Each game is there, at its version, without a policy or clocks; it takes new moves
    with a clock and who played them, and the presence rows work."""
    for game_id, (_, log, table) in games.items():
        stored = store.load(game_id)
        assert stored is not None, game_id
        assert stored.table.game == table.game
        assert (stored.version, stored.policy, stored.clock) == (len(log), None, None)
    table = games["playing"][2]
    since = len(table.game.history)
    seat = table.game.current_player
    assert seat is not None
    table.play_for(seat, table.game.legal_actions()[0], played_by=PlayedBy("greedy", "away"))
    clock = json.dumps({"at": 1.5, "left": [1.0, 2.0, 3.0]})
    store.save("playing", table, version=5, since=since, clock=clock)
    stored = store.load("playing")
    assert stored is not None
    assert (stored.version, stored.clock) == (5, clock)
    assert stored.table.played_by == {since: PlayedBy("greedy", "away")}
    news = store.moves_since("playing", 4)
    assert news is not None
    assert (news.moves[0].clock, news.moves[0].played_by) == (clock, PlayedBy("greedy", "away"))
    store.set_presence("playing", "one", 0, 2)
    (row,) = store.presence("playing", "two")
    assert (row.process, row.seat, row.sockets, row.away_seconds) == ("one", 0, 2, None)


def test_a_sqlite_store_of_schema_2_migrates_to_3_on_start_losing_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "tables.sqlite3"
    games = _schema_2_games()
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SQLITE_SCHEMA_2)
        for game_id, (snapshot, log, table) in games.items():
            db.execute(
                "INSERT INTO games VALUES (?, ?, 0, ?, ?, ?, NULL)",
                (game_id, snapshot, table.game.is_over, bool(log), stamp),
            )
            for version, actions in log:
                db.execute(
                    "INSERT INTO moves VALUES (?, ?, ?, ?)", (game_id, version, actions, stamp)
                )
    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        store = SqliteTableStore(path)
    assert f"migrated from schema 2 to {SCHEMA_VERSION}" in caplog.text
    assert store.wal_damage is None
    _check_schema_3(store, games)
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        SqliteTableStore(path).close()  # migrated once
    assert caplog.text == ""


def test_a_postgresql_store_of_schema_2_migrates_to_3_on_start_losing_nothing(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from tricky_treats_web.postgres import PostgresTableStore

    games = _schema_2_games()
    with _connection(postgres_url) as conn:
        conn.execute(POSTGRES_SCHEMA_2)
        for game_id, (snapshot, log, table) in games.items():
            conn.execute(
                "INSERT INTO tricky_treats_games (game_id, snapshot, snapshot_version, over, "
                "moved) VALUES (%s, %s, 0, %s, %s)",
                (game_id, snapshot, table.game.is_over, bool(log)),
            )
            for version, actions in log:
                conn.execute(
                    "INSERT INTO tricky_treats_moves (game_id, version, actions) "
                    "VALUES (%s, %s, %s)",
                    (game_id, version, actions),
                )
    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        store = PostgresTableStore(postgres_url)
    try:
        assert f"migrated from schema 2 to {SCHEMA_VERSION}" in caplog.text
        _check_schema_3(store, games)
    finally:
        store.close()
    with _connection(postgres_url) as conn:
        versions = conn.execute("SELECT version FROM tricky_treats_schema").fetchall()
        assert versions == [(SCHEMA_VERSION,)]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        PostgresTableStore(postgres_url).close()  # migrated once
    assert caplog.text == ""

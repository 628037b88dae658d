"""The games a web app's store holds, read straight from its database, as the tests check them.

A store keeps each game as a snapshot (the table when it was created) and a log of moves
(``tricky_treats_web.store``); ``stored_tables`` plays each game's log on its snapshot, each
action checked by the rules, without going through the store's own code.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from tricky_treats.host import Table

__all__ = ["stored_rows", "stored_tables", "stored_versions"]


def stored_rows(store: Path | str) -> dict[str, tuple[str, int, list[tuple[int, str]]]]:
    """Each stored game's snapshot, the snapshot's version and its log ``(version, actions)``."""
    if isinstance(store, str):  # a postgresql:// URL
        import psycopg

        with psycopg.connect(store) as conn:
            games = conn.execute(
                "SELECT game_id, snapshot, snapshot_version FROM tricky_treats_games"
            ).fetchall()
            moves = conn.execute(
                "SELECT game_id, version, actions FROM tricky_treats_moves ORDER BY version"
            ).fetchall()
    else:
        with contextlib.closing(sqlite3.connect(store)) as db:
            games = db.execute("SELECT game_id, snapshot, snapshot_version FROM games").fetchall()
            moves = db.execute(
                "SELECT game_id, version, actions FROM moves ORDER BY version"
            ).fetchall()
    rows: dict[str, tuple[str, int, list[tuple[int, str]]]] = {
        game_id: (snapshot, version, []) for game_id, snapshot, version in games
    }
    for game_id, version, actions in moves:
        rows[game_id][2].append((version, actions))
    return rows


def stored_tables(store: Path | str) -> dict[str, Table]:
    """Each stored game's table: its snapshot with its log played (an error if it does not)."""
    tables = {}
    for game_id, (snapshot, version, log) in stored_rows(store).items():
        table = Table.resume(snapshot)
        for logged, actions in log:
            version += 1
            assert logged == version, f"game {game_id}: the log skips to {logged} from {version}"
            table.follow(actions.split())
        tables[game_id] = table
    return tables


def stored_versions(store: Path | str) -> dict[str, int]:
    """Each stored game's version: its last logged move's, or its snapshot's."""
    return {
        game_id: log[-1][0] if log else version
        for game_id, (_, version, log) in stored_rows(store).items()
    }

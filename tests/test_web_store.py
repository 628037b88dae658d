"""The web example's table store: every accepted move stored before it is answered, games
back after a restart, bad stored tables and bad store files kept aside and reported, and a
store that cannot write (a full disk) refusing the move and changing nothing.

Needs the ``webtest`` extra (``pip install 'tricky-treats[webtest]'``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.requirements import WEB_APP_HINT, install_hint
from tests.stored_games import stored_rows, stored_tables

pytest.importorskip("httpx2", reason=install_hint("webtest"))

from starlette.testclient import TestClient

import tricky_treats as tt
from tricky_treats.host import Table

pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)

from tricky_treats_web import Lobby, SqliteTableStore, TableStore, create_app

SEED = 4_611_686_018_427_387_000 + 1717


def _client(lobby: Lobby, tmp_path: Path) -> TestClient:
    return TestClient(create_app(lobby, wheel_dir=tmp_path / "wheels"))


def _create(client: TestClient, **body: Any) -> tuple[str, list[str | None]]:
    request = {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": SEED, **body}
    response = client.post("/api/games", content=json.dumps(request))
    assert response.status_code == 201, response.text
    answer = response.json()
    keys = [s["link"].split("#", 1)[1] if s["link"] else None for s in answer["seats"]]
    return answer["game"], keys


def _play(client: TestClient, game_id: str, keys: list[str | None], moves: int) -> dict[str, Any]:
    """Play ``moves`` moves (the last legal action each time) and answer the last update."""
    update: dict[str, Any] = {}
    for _ in range(moves):
        for key in keys:
            if key is None:
                continue
            with client.websocket_connect(f"/ws/{game_id}") as ws:
                ws.send_text(json.dumps({"type": "hello", "credential": key}))
                hello = ws.receive_json()
                if not hello["your_turn"]:
                    continue
                action = hello["legal_actions"][-1]["action"]
                ws.send_text(json.dumps({"type": "move", "credential": key, "action": action}))
                update = ws.receive_json()
                assert update["type"] == "update", update
                break
    return update


def _stored(path: Path) -> dict[str, Table]:
    """The games in the store file, read straight from it (each snapshot with its log played)."""
    return stored_tables(path)


def test_the_sqlite_store_is_a_table_store(tmp_path: Path) -> None:
    store: TableStore = SqliteTableStore(tmp_path / "t.sqlite3")
    assert store.load_unfinished() == {}


def test_every_accepted_move_is_stored_before_it_is_answered(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    lobby = Lobby(store=SqliteTableStore(path))
    client = _client(lobby, tmp_path)
    game_id, keys = _create(client, players=[{"name": "Ann"}, {"name": "Bo", "bot": "greedy"}])
    assert _stored(path)[game_id].game == lobby.rooms[game_id].table.game
    update = _play(client, game_id, keys, 3)
    stored = _stored(path)[game_id]
    assert stored.game == lobby.rooms[game_id].table.game
    assert len(update["record"]["view"]["history"]) == len(stored.game.history) == 6
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    # The credential is kept only as its hash; the stored table checks it.
    assert keys[0] is not None
    assert keys[0] not in path.read_bytes().decode("latin-1")
    assert stored.seat_of(keys[0]) == 0


def test_a_restarted_server_has_the_unfinished_games_and_finds_finished_ones(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite3"
    first = Lobby(store=SqliteTableStore(path))
    client = _client(first, tmp_path)
    playing, keys = _create(client)
    update = _play(client, playing, keys, 4)
    bots = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "greedy"}]
    finished, _ = _create(client, players=bots)
    assert first.rooms[finished].table.game.is_over

    again = Lobby(store=SqliteTableStore(path))  # as the server does on start
    assert again.rooms == {}  # each game is loaded when a client asks for it
    client = _client(again, tmp_path)
    with client.websocket_connect(f"/ws/{playing}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": keys[0]}))
        hello = ws.receive_json()
        assert set(again.rooms) == {playing}
    assert len(update["record"]["view"]["history"]) == 4
    assert hello["record"] == json.loads(tt.dumps(first.rooms[playing].table.game, player=0))
    with client.websocket_connect(f"/ws/{finished}") as ws:
        ws.send_text(json.dumps({"type": "hello", "credential": None}))
        watched = ws.receive_json()
    assert watched["over"] is True
    assert finished in again.rooms
    with client.websocket_connect("/ws/no-such-game") as ws:
        assert ws.receive_json()["code"] == "no-game"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"format": "tricky-treats-table", "format_version": 99}), "format_version"),
        (b"\x00\xff binary", "expected text, got bytes"),
        ("tampered", "digest does not match"),
    ],
)
def test_a_stored_table_that_fails_to_load_is_reported_and_kept_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, data: str | bytes, reason: str
) -> None:
    path = tmp_path / "tables.sqlite3"
    store = SqliteTableStore(path)
    good = Table.new(2, seed=SEED)
    store.save("good", good)
    store.save("bad", Table.new(2, seed=SEED + 1))
    if data == "tampered":  # valid JSON, but a record the engine refuses
        document = json.loads(stored_rows(path)["bad"][0])
        document["record"]["seed"] = "seven"
        data = json.dumps(document)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET snapshot = ? WHERE game_id = 'bad'", (data,))
    store.close()

    lobby = Lobby(store=SqliteTableStore(path))
    with caplog.at_level(logging.ERROR, logger="tricky_treats_web.store"):
        assert asyncio.run(lobby.room("bad")) is None  # as a socket for it would
        room = asyncio.run(lobby.room("good"))
    assert set(lobby.rooms) == {"good"}
    assert room is not None
    assert room.table.game == good.game
    assert "stored game bad does not load" in caplog.text
    assert reason in caplog.text
    assert lobby.store is not None
    (kept,) = lobby.store.quarantined()
    assert kept.game_id == "bad"
    assert reason in kept.reason
    assert kept.data == (data if isinstance(data, str) else repr(data))
    assert "bad" not in stored_rows(path)
    # Reported once: afterwards it is in quarantine, not in the tables.
    assert asyncio.run(Lobby(store=SqliteTableStore(path)).room("bad")) is None
    assert len(lobby.store.quarantined()) == 1


@pytest.mark.parametrize("damage", ["garbage", "header"])
def test_a_corrupted_store_file_is_moved_aside_and_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    path = tmp_path / "tables.sqlite3"
    if damage == "garbage":
        path.write_bytes(b"this is not a database, " * 200)
    else:
        store = SqliteTableStore(path)
        store.save("game", Table.new(2, seed=SEED))
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.close()
        raw = bytearray(path.read_bytes())
        raw[0:16] = b"scrambled header"
        path.write_bytes(bytes(raw))
    damaged = path.read_bytes()

    with caplog.at_level(logging.ERROR, logger="tricky_treats_web.store"):
        store = SqliteTableStore(path)
    assert store.set_aside is not None
    assert store.set_aside.read_bytes() == damaged
    assert "is not a readable SQLite database" in caplog.text
    assert str(store.set_aside) in caplog.text
    assert store.load_unfinished() == {}
    store.save("new", Table.new(2, seed=SEED))
    assert set(SqliteTableStore(path).load_unfinished()) == {"new"}


class FullDiskStore(SqliteTableStore):
    """A store whose disk fills up when ``full`` is set: every save raises."""

    full = False

    def save(self, game_id: str, table: Table, **details: Any) -> None:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        super().save(game_id, table, **details)

    def create(self, game_id: str, table: Table, **details: Any) -> list[str]:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        return super().create(game_id, table, **details)


def test_a_move_the_store_cannot_write_is_refused_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "tables.sqlite3"
    store = FullDiskStore(path)
    lobby = Lobby(store=store)
    client = _client(lobby, tmp_path)
    game_id, keys = _create(client)
    table = lobby.rooms[game_id].table
    before, stored_before = table.game, stored_rows(path)[game_id]
    store.full = True
    with client.websocket_connect(f"/ws/{game_id}") as ws, caplog.at_level(logging.ERROR):
        ws.send_text(json.dumps({"type": "hello", "credential": keys[0]}))
        action = ws.receive_json()["legal_actions"][0]["action"]
        ws.send_text(json.dumps({"type": "move", "credential": keys[0], "action": action}))
        refusal = ws.receive_json()
        assert refusal == {
            "type": "error",
            "code": "not-saved",
            "error": "the server could not store this move; try again",
        }
        assert table.game is before
        assert stored_rows(path)[game_id] == stored_before
        assert f"could not store game {game_id}" in caplog.text
        assert "database or disk is full" in caplog.text

        store.full = False  # space again: the same move goes through
        ws.send_text(json.dumps({"type": "move", "credential": keys[0], "action": action}))
        update = ws.receive_json()
    assert update["type"] == "update"
    assert update["moves"][0]["action"] == action
    assert _stored(path)[game_id].game == table.game


def test_a_game_the_store_cannot_write_is_not_created(tmp_path: Path) -> None:
    store = FullDiskStore(tmp_path / "tables.sqlite3")
    store.full = True
    lobby = Lobby(store=store)
    client = _client(lobby, tmp_path)
    body = {"players": [{"name": "Ann"}, {"name": "Bo"}]}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(logging.getLogger("tricky_treats_web"), "disabled", True)
        response = client.post("/api/games", content=json.dumps(body))
    assert response.status_code == 503
    assert "could not store the new game" in response.json()["error"]
    assert lobby.rooms == {}


def _crashed_copy(store_path: Path, into: Path) -> Path:
    """The store file and its write-ahead log as a kill -9 leaves them (not checkpointed)."""
    into.mkdir()
    for suffix in ("", "-wal", "-saves"):
        Path(f"{into / store_path.name}{suffix}").write_bytes(
            Path(f"{store_path}{suffix}").read_bytes()
        )
    return into / store_path.name


def _store_with_moves(path: Path) -> tuple[SqliteTableStore, Table]:
    store = SqliteTableStore(path)
    store.save("other", Table.new(2, seed=SEED + 5), version=0)
    table = Table.new(2, seed=SEED)
    store.save("game", table, version=0)
    for version in range(1, 9):
        _move(store, "game", table, version)
    return store, table


def test_an_intact_write_ahead_log_after_a_crash_loses_nothing(tmp_path: Path) -> None:
    store, table = _store_with_moves(tmp_path / "tables.sqlite3")
    copy = _crashed_copy(store.path, tmp_path / "crashed")
    store.close()
    again = SqliteTableStore(copy)
    assert again.wal_damage is None
    stored = again.load("game")
    assert stored is not None
    assert (stored.version, stored.table.game) == (8, table.game)


def _move(store: SqliteTableStore, game_id: str, table: Table, version: int) -> None:
    """Play the first legal action at ``table`` and store it as ``version``."""
    since = len(table.game.history)
    seat = table.game.current_player
    action = str(table.game.legal_actions()[0])
    table.handle(json.dumps({"credential": table.credential(seat or 0), "action": action}))
    store.save(game_id, table, version=version, since=since)


def _twelve_games(path: Path) -> tuple[SqliteTableStore, dict[str, int]]:
    """12 games, 3 moves each made round by round (as players do): their saved versions."""
    store = SqliteTableStore(path)
    tables = {f"g{i:02}": Table.new(2, seed=SEED + i) for i in range(12)}
    versions = {}
    for game_id, table in tables.items():
        store.save(game_id, table, version=0)
        versions[game_id] = 0
    for _ in range(3):
        for game_id, table in tables.items():
            versions[game_id] += 1
            _move(store, game_id, table, versions[game_id])
    return store, versions


def _damage(wal: Path, kind: str) -> None:
    raw = bytearray(wal.read_bytes())
    size = 24 + int.from_bytes(raw[8:12], "big")
    frames = (len(raw) - 32) // size
    middle = 32 + (frames // 2) * size
    if kind == "zeroed-header":
        raw[:32] = bytes(32)
    elif kind == "header-checksum":
        raw[24] ^= 0x01
    elif kind == "salt-of-frame-1":
        raw[32 + 8] ^= 0x01
    elif kind == "truncated-mid-frame":
        del raw[middle + size // 2 :]
    elif kind == "middle-frame":
        raw[middle + 24 + 100] ^= 0xFF
    if kind == "removed":
        wal.unlink()
    else:
        wal.write_bytes(bytes(raw))


@pytest.mark.parametrize(
    ("kind", "found"),
    [
        ("zeroed-header", "header"),
        ("header-checksum", "header"),
        ("salt-of-frame-1", "salt"),
        ("truncated-mid-frame", "truncated"),
        ("middle-frame", "frame"),
        ("removed", "missing"),
    ],
)
def test_a_damaged_write_ahead_log_names_every_game_that_lost_moves_and_is_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str, found: str
) -> None:
    store, saved = _twelve_games(tmp_path / "tables.sqlite3")
    copy = _crashed_copy(store.path, tmp_path / "crashed")
    store.close()
    wal = Path(f"{copy}-wal")
    _damage(wal, kind)
    damaged = wal.read_bytes() if wal.exists() else None

    with caplog.at_level(logging.ERROR, logger="tricky_treats_web.store"):
        again = SqliteTableStore(copy)
    # What SQLite kept, game by game, against what the store had acknowledged.
    lost = {g for g, v in saved.items() if (again.version(g) or -1) < v}
    assert lost, "the damage lost nothing: the case tests nothing"
    damage = again.wal_damage
    assert damage is not None
    assert damage.kind == found
    assert set(damage.games) == lost
    assert {(g, v) for g, v, _ in damage.losses} == {(g, saved[g]) for g in lost}
    for game_id, _, left in damage.losses:
        assert left == again.version(game_id)
    if damaged is None:
        assert damage.kept_as is None
    else:
        assert damage.kept_as is not None
        assert damage.kept_as.read_bytes() == damaged
        assert str(damage.kept_as) in caplog.text
    assert f"{len(lost)} games lost moves" in caplog.text
    for game_id in lost:
        assert game_id in caplog.text
    for game_id in set(saved) - lost:
        assert f"{game_id} (" not in caplog.text  # the intact ones are not named
    # Said once: the next start finds the store as it now is, with nothing more lost.
    again.close()
    assert SqliteTableStore(copy).wal_damage is None


def test_a_log_cut_after_its_last_commit_is_no_loss(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A crash in the middle of writing a save leaves frames after the last commit."""
    store, saved = _twelve_games(tmp_path / "tables.sqlite3")
    copy = _crashed_copy(store.path, tmp_path / "crashed")
    store.close()
    wal = Path(f"{copy}-wal")
    wal.write_bytes(wal.read_bytes() + bytes(100))  # part of a frame that was never committed
    with caplog.at_level(logging.WARNING, logger="tricky_treats_web.store"):
        again = SqliteTableStore(copy)
    assert {g: again.version(g) for g in saved} == saved
    assert again.wal_damage is not None
    assert again.wal_damage.games == ()
    assert "no saved move is lost" in caplog.text
    assert "ERROR" not in [r.levelname for r in caplog.records]

"""Server processes follow each other's moves: a process that hears of a move plays the
actions stored after its own version (each checked by the rules) instead of loading the whole
game again, catches up from the log when notifications went unheard, and loads the game again
only when the log does not play (a damaged store), which then keeps the game aside.

Two lobbies on one store stand for two server processes (their notifications are handed over
by the test, as ``watch`` would: or not, as a lost one is not); on SQLite and on PostgreSQL.
Needs the web app (``pip install -e 'examples/web[postgresql]'``) and the ``[webtest]`` extra;
the PostgreSQL case needs Debian's ``postgresql`` (``.ci/run`` installs all of them).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.requirements import WEB_APP_HINT, install_hint

pytest.importorskip("httpx2", reason=install_hint("webtest"))

from starlette.testclient import TestClient, WebSocketTestSession

pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)

from tricky_treats_web import Lobby, SqliteTableStore, StoredMove, TableStore, create_app

SEED = 4_611_686_018_427_387_000 + 4901
TWO = {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": SEED}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    """One store that two lobbies share, as the processes of a server do."""
    if request.param == "sqlite":
        shared: Any = SqliteTableStore(tmp_path / "tables.sqlite3")
    else:
        from tricky_treats_web.postgres import PostgresTableStore

        shared = PostgresTableStore(request.getfixturevalue("postgres_url"))
    yield shared
    shared.close()


def _count_calls(monkeypatch: pytest.MonkeyPatch, store: TableStore) -> Counter[str]:
    """Count the store's loads and log reads (every lobby's)."""
    calls: Counter[str] = Counter()
    for name in ("load", "moves_since"):
        method: Callable[..., Any] = getattr(store, name)

        def counted(*args: Any, _method: Callable[..., Any] = method, _name: str = name) -> Any:
            calls[_name] += 1
            return _method(*args)

        monkeypatch.setattr(store, name, counted)
    return calls


class Seats:
    """Ann and Bo, playing through the first process; a spectator on the second."""

    def __init__(self, first: TestClient, second: TestClient) -> None:
        answer = first.post("/api/games", content=json.dumps(TWO)).json()
        self.game_id: str = answer["game"]
        self.keys = [seat["link"].split("#", 1)[1] for seat in answer["seats"]]
        self.first = first
        self.watcher: WebSocketTestSession = second.websocket_connect(
            f"/ws/{self.game_id}"
        ).__enter__()
        self.watcher.send_text(json.dumps({"type": "hello", "credential": None}))
        assert self.watcher.receive_json()["moves_played"] == 0

    def move(self) -> dict[str, Any]:
        """The seat to move makes its first legal move through the first process."""
        for key in self.keys:
            with self.first.websocket_connect(f"/ws/{self.game_id}") as ws:
                ws.send_text(json.dumps({"type": "hello", "credential": key}))
                hello = ws.receive_json()
                if hello["your_turn"]:
                    action = hello["legal_actions"][0]["action"]
                    ws.send_text(json.dumps({"credential": key, "action": action}))
                    update: dict[str, Any] = ws.receive_json()
                    assert update["type"] == "update", update
                    return update
        raise AssertionError("nobody's turn")

    def __enter__(self) -> Seats:
        return self

    def __exit__(self, *exc: object) -> None:
        self.watcher.__exit__(None, None, None)  # else the test client waits for it forever


def _clients(store: TableStore, tmp_path: Path) -> tuple[Lobby, Lobby, TestClient, TestClient]:
    first, second = Lobby(store=store), Lobby(store=store)
    apps = [
        create_app(lobby, wheel_dir=tmp_path / "wheels", background=False)
        for lobby in (first, second)
    ]
    return first, second, TestClient(apps[0]), TestClient(apps[1])


def _tell(client: TestClient, lobby: Lobby, game_id: str, version: int, actions: Any) -> None:
    """Hand ``lobby`` the notification of a move, on its event loop, as ``watch`` does."""

    async def deliver() -> None:
        move = None if actions is None else StoredMove(version, tuple(actions))
        work = lobby.changed(game_id, version, move)
        assert work is not None, "the process holds the game at an older version"
        await work

    assert client.portal is not None
    client.portal.call(deliver)


def test_a_process_that_missed_notifications_follows_the_log_without_loading_the_game(
    store: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, one, two = _clients(store, tmp_path)
    with one, two, Seats(one, two) as seats:
        updates = [seats.move() for _ in range(3)]
        calls = _count_calls(monkeypatch, store)
        # The notifications of moves 1 and 2 were lost; the third arrives, without its actions.
        _tell(two, second, seats.game_id, 3, None)
        heard = seats.watcher.receive_json()
        assert heard["moves_played"] == 3
        assert [m["action"] for m in heard["moves"]] == [u["moves"][0]["action"] for u in updates]
        assert second.rooms[seats.game_id].version == 3
        assert second.rooms[seats.game_id].table.game == first.rooms[seats.game_id].table.game
        assert calls == {"moves_since": 1}, "the second process loaded the whole game"


def test_a_notification_with_the_move_is_played_without_reading_the_store(
    store: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, second, one, two = _clients(store, tmp_path)
    with one, two, Seats(one, two) as seats:
        update = seats.move()
        calls = _count_calls(monkeypatch, store)
        _tell(two, second, seats.game_id, 1, (update["moves"][0]["action"],))
        assert seats.watcher.receive_json()["moves"] == update["moves"]
        assert calls == {}
        # A second notification of a move the process has is no work at all.
        assert second.changed(seats.game_id, 1, None) is None


def test_a_log_that_does_not_play_is_damage_the_game_is_loaded_once_and_kept_aside(
    store: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, second, one, two = _clients(store, tmp_path)
    with one, two, Seats(one, two) as seats:
        for _ in range(2):
            seats.move()
        _damage_move(store, seats.game_id, 2)
        calls = _count_calls(monkeypatch, store)
        _tell(two, second, seats.game_id, 2, None)
        closed = seats.watcher.receive_json()
        assert closed["code"] == "expired"
        assert seats.game_id not in second.rooms
        assert calls == {"moves_since": 1, "load": 1}
        (kept,) = store.quarantined()
        assert kept.game_id == seats.game_id
        assert "move 2 (v8)" in kept.reason
        assert kept.moves.splitlines()[1] == "2 v8"


def _damage_move(store: TableStore, game_id: str, version: int) -> None:
    """Write an action the rules refuse there (a visit nobody can make yet) into the log."""
    if isinstance(store, SqliteTableStore):
        with sqlite3.connect(store.path) as db:
            db.execute(
                "UPDATE moves SET actions = 'v8' WHERE game_id = ? AND version = ?",
                (game_id, version),
            )
        return
    import psycopg

    with psycopg.connect(store.url, autocommit=True) as conn:  # type: ignore[attr-defined]
        conn.execute(
            "UPDATE tricky_treats_moves SET actions = 'v8' WHERE game_id = %s AND version = %s",
            (game_id, version),
        )

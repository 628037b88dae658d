"""Games survive a crash: the real server (uvicorn, a subprocess on 127.0.0.1) is killed with
SIGKILL at seeded random points while scripted clients play over WebSockets, restarted on the
same store file, and every game is finished with nothing lost and nothing applied twice.
The same test runs against PostgreSQL with two server processes sharing it: each game's
seats are spread over both, and either process is killed. Also: two clients racing for one
turn get one accepted move and one refusal, and the server starts on a corrupted store file,
keeping it aside.

Needs the web app (``pip install -e examples/web``); ``.ci/run`` installs it. Bounded: a fixed
number of games and kills, and a deadline on the whole run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.local import SERVE_COMMAND, free_port, post_json, skip_presence
from tests.requirements import WEB_APP_HINT, install_hint
from tests.stored_games import stored_tables

pytest.importorskip("websockets", reason=install_hint("webtest"))
pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

import tricky_treats as tt
from tricky_treats.host import Table

if sys.platform == "win32":  # pragma: no cover - SIGKILL is a POSIX signal
    pytest.skip("SIGKILL needs a POSIX system", allow_module_level=True)

SEED = 4_611_686_018_427_387_000 + 17
MAX_KILLS = 20
DEADLINE_SECONDS = 150.0  # a bound on a loaded machine, not a timing check
START_SECONDS = 30.0


class Server:
    """The web example's server as a subprocess on one store; killed and started again."""

    def __init__(self, store: Path | str, log: Path, options: Sequence[str] = ()) -> None:
        self.store = store
        self.log = log
        self.options = tuple(options)
        """More options of ``tricky-treats-web serve``."""
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.up = asyncio.Event()
        self.kills = 0
        self.starts = 0

    @property
    def url(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> None:
        for attempt in range(3):
            if await self._start_once():
                self.starts += 1
                self.up.set()
                return
            # Another process took the free port before uvicorn bound it: try another.
            if attempt == 2:
                pytest.fail(f"the server exited on start:\n{self.log.read_text()}")

    async def _start_once(self) -> bool:
        self.port = free_port()
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *SERVE_COMMAND,
                    "--port",
                    str(self.port),
                    "--store",
                    str(self.store),
                    *self.options,
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self.process.poll() is not None:
                return False
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not start:\n{self.log.read_text()}")
                await asyncio.sleep(0.05)
            else:
                writer.close()
                await writer.wait_closed()
                return True

    def kill(self) -> None:
        assert self.process is not None
        self.up.clear()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.kills += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.up.clear()


@attrs.define
class Game:
    """A game the test plays: how it was created, its links, and what the clients saw."""

    index: int
    names: list[str]
    bots: dict[int, str]
    variants: list[str]
    seed: int
    game_id: str = ""
    credentials: dict[int, str] = attrs.field(factory=dict)
    acknowledged: dict[int, str] = attrs.field(factory=dict)
    """Position in the history -> action, for every move an update told a client about."""
    acknowledged_as_written: dict[int, str] = attrs.field(factory=dict)
    """The same moves as the player records write them (``_history``)."""
    refused: list[str] = attrs.field(factory=list)
    committed_unacknowledged: int = 0
    """Moves sent just before a kill that the restarted server had stored, unacknowledged."""
    resent: int = 0
    """Moves sent just before a kill that the server had not stored: chosen and sent again."""
    opening: int = -1
    """The bots' moves made when the game was created, before any client's first hello."""

    def body(self) -> dict[str, Any]:
        players = [{"name": n, "bot": self.bots.get(s)} for s, n in enumerate(self.names)]
        return {"players": players, "seed": self.seed, "variants": self.variants}

    def choose(self, position: int, legal: Sequence[str]) -> str:
        """The scripted player's move at a point of the game: the same whenever it is asked."""
        return random.Random(f"crash test {self.index} {position}").choice(list(legal))


def _played(update: dict[str, Any]) -> int:
    return len(update["record"]["view"]["history"])


def _history(update: dict[str, Any]) -> list[str]:
    """The moves played, as the player record writes them (one JSON text each)."""
    return [json.dumps(a, sort_keys=True) for a in update["record"]["view"]["history"]]


class Progress:
    def __init__(self) -> None:
        self.moves = 0


async def _recv(ws: ClientConnection) -> dict[str, Any]:
    """The next message that is not a ``presence`` message (who is at the table)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if not skip_presence(message):
            return message


def _server_of(servers: Sequence[Server], game: Game, seat: int) -> Server:
    """Where a seat plays: the seats of one game are spread over the servers."""
    return servers[(game.index + seat) % len(servers)]


async def _hello(server: Server, game: Game, seat: int) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(f"ws://{server.url}/ws/{game.game_id}", open_timeout=10)
    await ws.send(json.dumps({"type": "hello", "credential": game.credentials[seat]}))
    hello = await _recv(ws)
    assert hello["type"] == "update", hello
    assert hello["seat"] == seat
    # No acknowledged move is lost, and none is changed: the stored game holds every one.
    history = _history(hello)
    for position, action in game.acknowledged_as_written.items():
        assert position < len(history), (
            f"game {game.index}: acknowledged move {position} lost in the hello from "
            f"{server.log.name} (started {server.starts} times, {server.url}): {hello}"[:3000]
        )
        assert history[position] == action, f"game {game.index}: move {position} changed"
    return ws, hello


async def _play(servers: Sequence[Server], game: Game, progress: Progress) -> None:
    sockets: dict[int, ClientConnection] = {}
    latest: dict[int, dict[str, Any]] = {}
    pending: int | None = None  # where a move was sent and not yet acknowledged
    while True:
        try:
            for seat in game.credentials:
                if seat not in sockets:
                    server = _server_of(servers, game, seat)
                    await server.up.wait()
                    sockets[seat], latest[seat] = await _hello(server, game, seat)
            played = max(_played(u) for u in latest.values())
            if game.opening < 0:
                game.opening = played
            if pending is not None:
                if played > pending:  # stored before the kill, never acknowledged
                    game.committed_unacknowledged += 1
                else:
                    game.resent += 1
                pending = None
            top = max(latest.values(), key=_played)
            if top["over"]:
                break
            seat = top["current_player"]
            ws = sockets[seat]
            while _played(latest[seat]) < played:  # catch up with the updates of others' moves
                message = await _recv(ws)
                if message["type"] == "update":
                    latest[seat] = message
            legal = [entry["action"] for entry in latest[seat]["legal_actions"]]
            action = game.choose(played, legal)
            pending = played
            await ws.send(
                json.dumps({"type": "move", "credential": game.credentials[seat], "action": action})
            )
            while True:
                answer = await _recv(ws)
                if answer["type"] == "error":
                    game.refused.append(answer["code"])
                    pytest.fail(f"game {game.index}: move {action} refused: {answer}")
                if _played(answer) > played:
                    break
            pending = None
            moves = answer["moves"]
            assert _played(answer) == played + len(moves)
            assert (moves[0]["player"], moves[0]["action"]) == (seat, action)
            written = _history(answer)
            for offset, move in enumerate(moves):
                position = played + offset
                assert game.acknowledged.setdefault(position, move["action"]) == move["action"]
                game.acknowledged_as_written[position] = written[position]
            latest[seat] = answer
            progress.moves += 1
        except (WebSocketException, OSError, EOFError, TimeoutError):
            # The server died under this client (any way a connection can break): reconnect.
            for ws in sockets.values():
                await ws.close()
            sockets.clear()
            latest.clear()
            await asyncio.sleep(0.02)
    for ws in sockets.values():
        await ws.close()


async def _kill_at_random_points(
    servers: Sequence[Server], progress: Progress, rng: random.Random, playing: asyncio.Future[Any]
) -> None:
    while sum(s.kills for s in servers) < MAX_KILLS and not playing.done():
        target = progress.moves + rng.randint(2, 9)
        while progress.moves < target and not playing.done():
            await asyncio.sleep(0.002)
        if playing.done():
            break
        await asyncio.sleep(rng.uniform(0, 0.008))  # somewhere inside a move's round trip
        server = rng.choice(servers)
        server.kill()
        await server.start()


def _expected_final_record(game: Game) -> str:
    """The game played locally by the same scripted choices: what the server must end with."""
    table = Table.new(game.names, game.seed, bots=game.bots, variants=game.variants)
    while not table.game.is_over:
        seat = table.game.current_player
        assert seat is not None
        played = len(table.game.history)
        action = game.choose(played, [str(a) for a in table.game.legal_actions()])
        reply = table.handle(json.dumps({"credential": table.credential(seat), "action": action}))
        assert reply[0].message["type"] == "update"
    return tt.dumps(table.game)


def _stored_records(store: Path | str) -> dict[str, str]:
    return {game_id: tt.dumps(table.game) for game_id, table in stored_tables(store).items()}


GAMES = [
    Game(0, ["Ann", "Bo"], {}, [], SEED),
    Game(1, ["Ann", "Bo", "Cy"], {2: "greedy"}, [], SEED + 1),
    Game(2, ["Ann", "Bot"], {1: "random"}, ["family"], SEED + 2),
    Game(3, ["Ann", "Bo", "Cy", "Di"], {}, [], SEED + 3),
    Game(4, ["Ann", "Bo", "Cy"], {0: "random"}, [], SEED + 4),
]


def _crash_test(servers: Sequence[Server], store: Path | str, logs: Sequence[Path]) -> None:
    # New games each run: what a run saw (acknowledged moves...) must not carry into the next.
    games = [Game(g.index, g.names, g.bots, g.variants, g.seed) for g in GAMES]

    async def main() -> None:
        for server in servers:
            await server.start()
        for game in games:
            create = f"http://{_server_of(servers, game, 0).url}/api/games"
            answer = await asyncio.to_thread(post_json, create, game.body())
            game.game_id = answer["game"]
            game.credentials = {
                s["seat"]: s["link"].split("#", 1)[1] for s in answer["seats"] if s["link"]
            }
        progress = Progress()
        playing = asyncio.ensure_future(
            asyncio.gather(*(_play(servers, game, progress) for game in games))
        )
        killer = asyncio.ensure_future(
            _kill_at_random_points(servers, progress, random.Random(SEED), playing)
        )
        try:
            await asyncio.wait_for(asyncio.shield(playing), DEADLINE_SECONDS)
        finally:
            playing.cancel()
            await killer

    try:
        asyncio.run(main())
    finally:
        for server in servers:
            server.stop()

    stored = _stored_records(store)
    for game in games:
        final = stored[game.game_id]
        # The final record is what replaying the scripted moves gives: no move lost, none twice.
        assert final == _expected_final_record(game), f"game {game.index} differs"
        history = [str(a) for a in tt.loads(final).history]
        assert all(history[p] == a for p, a in game.acknowledged.items())
        # Only a move stored when the server was killed (and the bots' moves after it) may
        # have gone unacknowledged; its player saw it in the state they reconnected to.
        unacknowledged = len(history) - len(game.acknowledged) - game.opening
        assert unacknowledged == 0 or 0 < game.committed_unacknowledged <= unacknowledged
    acknowledged = sum(len(g.acknowledged) for g in games)
    unacknowledged = sum(g.committed_unacknowledged for g in games)
    resent = sum(g.resent for g in games)
    kills = sum(s.kills for s in servers)
    print(
        f"\ncrash test ({len(servers)} server processes): survived {kills} SIGKILLs with "
        f"nothing lost: {len(games)} games, {acknowledged} moves acknowledged, "
        f"{unacknowledged} stored but unacknowledged when killed, {resent} sent but not "
        "stored (sent again)"
    )
    assert kills == MAX_KILLS
    if len(servers) > 1:
        assert all(s.kills > 0 for s in servers)
    for log in logs:
        text = log.read_text()
        assert "kept in quarantine" not in text
        assert "Traceback" not in text, text[text.index("Traceback") :][:3000]


def test_games_survive_the_server_killed_at_random_points(tmp_path: Path) -> None:
    store = tmp_path / "tables.sqlite3"
    _crash_test([Server(store, tmp_path / "server.log")], store, [tmp_path / "server.log"])


def test_games_survive_either_of_two_servers_on_postgresql_killed_at_random_points(
    tmp_path: Path, postgres_url: str
) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    _crash_test([Server(postgres_url, log) for log in logs], postgres_url, logs)


def test_two_clients_racing_for_one_turn_get_one_move_and_one_refusal(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.sqlite3", tmp_path / "server.log")

    async def race() -> tuple[int, list[str]]:
        await server.start()
        answer = await asyncio.to_thread(
            post_json,
            f"http://{server.url}/api/games",
            {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": SEED},
        )
        game_id = answer["game"]
        keys = [s["link"].split("#", 1)[1] for s in answer["seats"]]
        accepted = 0
        refusals = []
        for _ in range(8):
            sockets = []
            hellos = []
            for seat in range(2):
                for _copy in range(2):  # two tabs of the same seat
                    ws = await connect(f"ws://{server.url}/ws/{game_id}")
                    await ws.send(json.dumps({"type": "hello", "credential": keys[seat]}))
                    sockets.append((seat, ws))
                    hellos.append(await _recv(ws))
            hello = hellos[0] if hellos[0]["your_turn"] else hellos[2]
            seat = hello["seat"]
            takes = [e["action"] for e in hello["legal_actions"] if e["action"].startswith("t")]
            tabs = [ws for s, ws in sockets if s == seat]
            before = _played(hello)
            move = {"type": "move", "credential": keys[seat], "moves_played": before}
            await asyncio.gather(
                *(
                    ws.send(json.dumps({**move, "action": a}))
                    for ws, a in zip(tabs, takes[:2], strict=True)
                )
            )
            for ws in tabs:
                # Each tab gets the one update (both are the seat), and its own answer.
                while True:
                    message = await _recv(ws)
                    if message["type"] == "error":
                        refusals.append(message["code"])
                        break
                    own = takes[0] if ws is tabs[0] else takes[1]
                    if _played(message) == before + 1 and message["moves"][0]["action"] == own:
                        accepted += 1
                        break
            for _, ws in sockets:
                await ws.close()
        return accepted, refusals

    try:
        accepted, refusals = asyncio.run(race())
    finally:
        server.stop()
    assert accepted == 8
    assert refusals == ["stale"] * 8
    (record,) = _stored_records(tmp_path / "tables.sqlite3").values()
    assert len(tt.loads(record).history) == 8


def test_the_real_server_starts_on_a_corrupted_store_file_and_keeps_it_aside(
    tmp_path: Path,
) -> None:
    store = tmp_path / "tables.sqlite3"
    store.write_bytes(b"\x13\x37 torn write " * 512)
    server = Server(store, tmp_path / "server.log")

    async def start_and_create() -> dict[str, Any]:
        await server.start()
        body = {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": SEED}
        return await asyncio.to_thread(post_json, f"http://{server.url}/api/games", body)

    try:
        answer = asyncio.run(start_and_create())
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert "is not a readable SQLite database" in log
    (aside,) = tmp_path.glob("tables.sqlite3.corrupt-*")
    assert aside.read_bytes() == b"\x13\x37 torn write " * 512
    assert str(aside) in log
    assert set(_stored_records(store)) == {answer["game"]}

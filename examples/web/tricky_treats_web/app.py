"""The ASGI app: an HTTP API to create games, a WebSocket per client, static pages.

- ``POST /api/games`` creates a game and answers one link per human seat (the seat's secret
  credential travels in the link's fragment, ``#...``, which browsers never send to a server)
  and a link for spectators;
- ``/ws/{game}``: the client's first message is ``{"type": "hello", "credential": ...}``
  (null for a spectator); then it sends moves, and the server relays the table's answers to
  the clients they are for;
- with a ``TableStore`` (``tricky_treats_web.store``), every table is stored after every
  accepted move, before any client hears of it, and the unfinished games come back when the
  server starts again;
- ``/offline`` is the page that runs the engine in the browser with Pyodide, from the wheels
  under ``/wheels/`` and the Pyodide runtime under ``/pyodide/`` (installed from npm).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import tricky_treats as tt
from tricky_treats_web.store import TableStore
from tricky_treats_web.wheels import build_wheels

__all__ = ["BOTS", "Lobby", "StoreFailedError", "create_app"]

log = logging.getLogger("tricky_treats_web")

HERE = Path(__file__).parent
STATIC = HERE / "static"
PYODIDE = HERE.parent / "node_modules" / "pyodide"

BOTS = ("random", "greedy")
"""The bots a game can seat: both answer at once (the search bot would keep a table waiting)."""

HIDDEN_VARIANTS = frozenset({"card-data"})
"""Variants a browser may not ask for: ``card-data`` reads a file named in its options."""

MAX_GAMES = 1000
MAX_CLIENTS_PER_GAME = 16
MAX_REQUEST_BYTES = 4096


class StoreFailedError(Exception):
    """The store could not keep a new game: nothing was created."""


@attrs.define
class Room:
    """One table and the WebSockets connected to it, each known as a seat or a spectator.

    ``lock`` makes the messages for this table go one at a time: a move is applied, stored
    and answered before the next message for the table is read.
    """

    table: tt.Table
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    clients: dict[WebSocket, int | str] = attrs.field(factory=dict)
    next_game: str | None = None


class Lobby:
    """The games of this server, by id; bounded so that nobody can fill its memory.

    With a ``store``, the lobby starts with the store's unfinished games, stores every new
    game and every accepted move, and finds a game it has forgotten (a finished one) in the
    store when a client asks for it.
    """

    def __init__(self, max_games: int = MAX_GAMES, store: TableStore | None = None) -> None:
        self.rooms: dict[str, Room] = {}
        self.max_games = max_games
        self.store = store
        if store is not None:
            self.rooms = {game_id: Room(t) for game_id, t in store.load_unfinished().items()}
            log.info("restored %d unfinished games from the store", len(self.rooms))

    def _make_room(self) -> None:
        if len(self.rooms) >= self.max_games:
            # Forget finished games that nobody is looking at any more (the store keeps them).
            for game_id, room in list(self.rooms.items()):
                if room.table.game.is_over and not room.clients:
                    del self.rooms[game_id]

    def room(self, game_id: str) -> Room | None:
        """The room of ``game_id``, from memory or else from the store; None if unknown."""
        room = self.rooms.get(game_id)
        if room is None and self.store is not None:
            self._make_room()
            if len(self.rooms) < self.max_games:
                table = self.store.load(game_id)
                if table is not None:
                    room = self.rooms[game_id] = Room(table)
        return room

    def commit(self, game_id: str, table: tt.Table) -> None:
        """Store ``table`` (if there is a store); a failure is logged and raised."""
        if self.store is None:
            return
        try:
            self.store.save(game_id, table)
        except Exception:
            log.exception("could not store game %s; its last move is refused", game_id)
            raise

    def create(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Create a game from a request body; the answer holds the seat links."""
        self._make_room()
        if len(self.rooms) >= self.max_games:
            raise tt.ConfigurationError("this server has as many games as it can hold")
        players = request.get("players")
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise tt.ConfigurationError("players must be a list of {name, bot} objects")
        names = [str(p.get("name") or f"Player {i + 1}")[:24] for i, p in enumerate(players)]
        bots = {i: p["bot"] for i, p in enumerate(players) if p.get("bot")}
        for seat, bot in bots.items():
            if bot not in BOTS:
                raise tt.ConfigurationError(f"seat {seat}: bots are {', '.join(BOTS)}")
        seed = _seed(request.get("seed"))
        variants = request.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise tt.ConfigurationError("variants must be a list of names")
        hidden = sorted(set(variants) & HIDDEN_VARIANTS)
        if hidden:
            raise tt.ConfigurationError(f"variants {hidden} cannot be chosen here")
        table = tt.Table.new(
            names,
            seed,
            bots=bots,
            variants=variants,
            any_mean_house=request.get("any_mean_house") is True,
            refresh_ends_turn=request.get("refresh_ends_turn") is True,
        )
        game_id = self._open(table)
        return {
            "game": game_id,
            "seats": [
                {
                    "seat": seat,
                    "name": name,
                    "bot": bots.get(seat),
                    "link": None if seat in bots else f"/play/{game_id}#{table.credential(seat)}",
                }
                for seat, name in enumerate(names)
            ],
            "watch": f"/play/{game_id}",
        }

    def _open(self, table: tt.Table) -> str:
        """Store a new table and open its room; its game id."""
        game_id = secrets.token_urlsafe(9)
        try:
            self.commit(game_id, table)
        except Exception as exc:
            raise StoreFailedError("the server could not store the new game; try again") from exc
        self.rooms[game_id] = Room(table)
        return game_id

    # -- "play again" (the page's end sheet) ------------------------------------------------------

    def play_again(self, room: Room) -> str:
        """The game after ``room``'s finished one: same seats, bots and rules, a new deal.

        Made once per finished game (every seat asking gets the same one); not kept across a
        restart of the server.
        """
        if room.next_game is None:
            self._make_room()
            if len(self.rooms) >= self.max_games:
                raise tt.ConfigurationError("this server has as many games as it can hold")
            old = room.table.game.config
            table = tt.Table.new(
                list(old.players),
                bots=room.table.bots,
                variants=[v.name for v in old.variants],
                any_mean_house=old.any_mean_house,
                refresh_ends_turn=old.refresh_ends_turn,
            )
            room.next_game = self._open(table)
        return room.next_game

    def next_game_message(self, room: Room, who: int | str) -> str | None:
        """For a client of ``room`` (a seat or spectators): the link to its next game, if any."""
        if room.next_game is None or room.next_game not in self.rooms:
            return None
        table = self.rooms[room.next_game].table
        link = f"/play/{room.next_game}"
        if isinstance(who, int) and who in table.human_seats:
            link += f"#{table.credential(who)}"
        return json.dumps({"type": "next-game", "link": link})


def _seed(seed: object) -> int | None:
    """A seed from a request: a whole number, as JSON or as a string of digits.

    The page sends a string: JavaScript's numbers lose digits past 2^53.
    """
    if isinstance(seed, str) and seed.strip().isascii() and seed.strip().isdigit():
        seed = int(seed.strip()) if len(seed.strip()) <= 20 else -1
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
        raise tt.ConfigurationError("the seed must be a whole number from 0 to 2^63 - 1")
    return seed


async def _send(room: Room, outgoing: tuple[tt.Outgoing, ...], sender: WebSocket) -> None:
    for out in outgoing:
        if out.to == tt.SENDER:
            targets = [sender]
        else:
            targets = [ws for ws, who in room.clients.items() if who == out.to]
        for ws in targets:
            try:
                await ws.send_text(out.text)
            except (RuntimeError, WebSocketDisconnect):  # a client that just left
                room.clients.pop(ws, None)


def _asks_again(text: str) -> bool:
    """Whether a client's message is ``{"type": "again"}``: the page's "play again" button."""
    if len(text) > 64 or '"again"' not in text:
        return False
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(message, dict) and message == {"type": "again"}


async def _play_again(lobby: Lobby, room: Room, who: int | str, sender: WebSocket) -> None:
    """Open the next game, asked for by a seated player once the game is over.

    Every client of the room gets its own link to it (a seat's link holds its new key).
    """
    if not isinstance(who, int) or not room.table.game.is_over:
        why = "only a seated player can ask for the next game, once this one is over"
        await sender.send_text(json.dumps({"type": "error", "code": "not-over", "error": why}))
        return
    async with room.lock:
        try:
            lobby.play_again(room)
        except (tt.TrickyTreatsError, StoreFailedError) as exc:
            answer = {"type": "error", "code": "no-next-game", "error": str(exc)}
            await sender.send_text(json.dumps(answer))
            return
        for ws, client in list(room.clients.items()):
            message = lobby.next_game_message(room, client)
            try:
                if message is not None:
                    await ws.send_text(message)
            except (RuntimeError, WebSocketDisconnect):
                room.clients.pop(ws, None)


def create_app(lobby: Lobby | None = None, wheel_dir: Path | None = None) -> Starlette:
    """The web app; ``wheel_dir`` is where the wheels for the offline page are built."""
    lobby = lobby if lobby is not None else Lobby()
    wheels: dict[str, Path] = {}

    def wheel_files() -> dict[str, Path]:
        if not wheels:
            wheels.update(build_wheels(wheel_dir))
        return wheels

    async def page(request: Request) -> Response:
        name = request.scope["route"].name
        return FileResponse(STATIC / f"{name}.html")

    async def variants(request: Request) -> Response:
        offered = [
            {"name": v.name, "title": v.title, "description": v.description}
            for v in tt.available_variants()
            if v.name not in HIDDEN_VARIANTS
        ]
        offline = (PYODIDE / "pyodide.mjs").is_file()
        return JSONResponse({"variants": offered, "bots": list(BOTS), "offline": offline})

    async def create_game(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_REQUEST_BYTES:
            return JSONResponse({"error": "request too large"}, status_code=413)
        try:
            document = json.loads(body)
            if not isinstance(document, dict):
                raise tt.ConfigurationError("expected a JSON object")
            answer = lobby.create(document)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "expected a JSON object"}, status_code=400)
        except tt.TrickyTreatsError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except StoreFailedError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        return JSONResponse(answer, status_code=201)

    async def wheel_index(request: Request) -> Response:
        names = sorted(wheel_files())
        return JSONResponse({"wheels": [f"/wheels/{name}" for name in names]})

    async def wheel(request: Request) -> Response:
        path = wheel_files().get(request.path_params["name"])
        if path is None:
            return JSONResponse({"error": "no such wheel"}, status_code=404)
        return FileResponse(path, media_type="application/zip")

    async def play(websocket: WebSocket) -> None:
        game_id = websocket.path_params["game"]
        room = lobby.room(game_id)
        await websocket.accept()
        if room is None:
            await websocket.send_text(
                json.dumps({"type": "error", "code": "no-game", "error": "no such game"})
            )
            await websocket.close()
            return
        if len(room.clients) >= MAX_CLIENTS_PER_GAME:
            await websocket.close(code=1013)
            return
        try:
            text = await websocket.receive_text()
            hello = json.loads(text) if len(text) <= MAX_REQUEST_BYTES else None
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                refusal = {"type": "error", "code": "malformed", "error": "say hello first"}
                await websocket.send_text(json.dumps(refusal))
                await websocket.close()
                return
            credential = hello.get("credential")
            if credential is not None and not isinstance(credential, str):
                credential = ""
            async with room.lock:
                welcome = room.table.connect(credential)
                if welcome.to != tt.SENDER:
                    room.clients[websocket] = welcome.to
                await websocket.send_text(welcome.text)
            if welcome.to == tt.SENDER:
                await websocket.close()
                return
            who = room.clients.get(websocket)
            if who is not None and (following := lobby.next_game_message(room, who)):
                await websocket.send_text(following)
            while True:
                text = await websocket.receive_text()
                if who is not None and _asks_again(text):
                    await _play_again(lobby, room, who, websocket)
                    continue
                async with room.lock:
                    # commit stores the move before any answer is sent, or undoes it.
                    outgoing = room.table.handle(
                        text,
                        sender=room.clients.get(websocket),
                        commit=lambda table: lobby.commit(game_id, table),
                    )
                    await _send(room, outgoing, websocket)
        except (WebSocketDisconnect, json.JSONDecodeError):
            pass
        finally:
            room.clients.pop(websocket, None)

    routes = [
        Route("/", page, name="index"),
        Route("/play/{game}", page, name="game"),
        Route("/offline", page, name="offline"),
        Route("/api/variants", variants),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/wheels/", wheel_index),
        Route("/wheels/{name}", wheel),
        WebSocketRoute("/ws/{game}", play),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if PYODIDE.is_dir():
        routes.append(Mount("/pyodide", StaticFiles(directory=PYODIDE), name="pyodide"))
    app = Starlette(routes=routes)
    app.state.lobby = lobby
    return app

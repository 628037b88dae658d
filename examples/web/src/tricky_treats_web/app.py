"""The ASGI app: an HTTP API to create games, a WebSocket per client, static pages.

- ``POST /api/games`` creates a game and answers one link per human seat (the seat's secret
  credential travels in the link's fragment, ``#...``, which browsers never send to a server)
  and a link for spectators;
- ``/ws/{game}``: the client's first message is ``{"type": "hello", "credential": ...}``
  (null for a spectator); then it sends moves, and the server relays the table's answers to
  the clients they are for;
- with a ``TableStore`` (``tricky_treats_web.store``), every accepted move is stored before
  any client hears of it (in a worker thread, so that a slow disk holds up only the game
  being saved), and the unfinished games come back when the server starts again; with a
  store that several processes share (PostgreSQL), a move made through one process reaches
  the sockets held by the others, which follow it move by move;
- every table has a policy (``tricky_treats_web.clocks``): a clock, and a takeover bot that
  plays a seat whose player is away or out of time for the table's grace; every update and
  ``{"type": "presence"}`` message tells who is connected, since when a seat is away, who
  is taken over and each seat's time (``web_protocol_version``); a seat may be played by a
  program the operator allows (``tricky_treats_web.programs``);
- ``/offline`` is the page that runs the engine in the browser with Pyodide, from the wheels
  under ``/wheels/`` and the Pyodide runtime under ``/pyodide/`` (installed from npm).

Every limit is in ``Limits``, with defaults meant for a public server. A refusal is a JSON
``{"type": "error", "code": ..., "error": ...}`` on the socket (then closed) or
``{"code": ..., "error": ...}`` with a 4xx/5xx status over HTTP: ``code`` is stable, ``error``
says why in plain words.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime
import functools
import ipaddress
import json
import logging
import random
import re
import secrets
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import tricky_treats as tt
from tricky_treats.agents import make_agent
from tricky_treats.host import SENDER, SPECTATORS, Outgoing, PlayedBy, Table
from tricky_treats_web.clocks import Clock, SeatPresence, TablePolicy, TimeControl, turn_ended
from tricky_treats_web.programs import Programs
from tricky_treats_web.store import (
    PRESENCE_SECONDS,
    CapReachedError,
    PresenceRow,
    StoredMove,
    StoreUnavailableError,
    TableStore,
    VersionConflictError,
)
from tricky_treats_web.wheels import build_wheels

__all__ = [
    "BOTS",
    "TAKEOVER_BOTS",
    "WEB_PROTOCOL_VERSION",
    "Limits",
    "Lobby",
    "RefusedError",
    "Room",
    "TableDefaults",
    "client_key",
    "create_app",
]

_T = TypeVar("_T")

log = logging.getLogger("tricky_treats_web")

HERE = Path(__file__).parent
STATIC = HERE / "static"
PYODIDE = HERE.parents[1] / "node_modules" / "pyodide"
"""Where a clone's ``npm ci`` in examples/web puts the Pyodide runtime (``create_app(pyodide=)``
and ``tricky-treats-web serve --pyodide`` name another folder)."""

BOTS = ("random", "greedy")
"""The bots a game can seat: both answer at once (the search bot would keep a table waiting)."""

TAKEOVER_BOTS = ("greedy", "search", "random")
"""The built-in bots a table may name to play a seat away or out of time."""

WEB_PROTOCOL_VERSION = 1
"""The version of what the app adds to the table's messages (``clock``, ``presence``,
``takeover``) and of its ``presence`` messages: ``web_protocol_version`` in each."""

BACKSTOP_SECONDS = 2.0
"""How much later than the process that stored a game's last move another process holding the
game plays a move the table's time calls for (that one may be gone): two processes seldom
both try, and the store's version order takes only one move if they do."""

RETRY_SECONDS = 1.0
"""How soon a move the table's time calls for is tried again after the store failed."""

HIDDEN_VARIANTS = frozenset({"card-data"})
"""Variants a browser may not ask for: ``card-data`` reads a file named in its options."""


@attrs.frozen
class Limits:
    """Every limit of a server process, with defaults that hold on a public server.

    A client is a remote address: the peer's, or the one a trusted proxy names
    (``serve.py --forwarded-allow-ips``); nothing else is trusted.
    """

    max_games: int = 1000
    """Games this process holds in memory at once; games nobody uses are unloaded first, then
    games only spectators watch, then (with a store) a game of the client whose seats hold the
    most rooms, if it holds two more than the newcomer; else 503 ``server-full``."""
    games_per_client: int = 20
    """Games one client (an IPv4 address, an IPv6 /64) may create in ``create_window`` s on
    this process; with a store, also the unplayed games it may hold at once, over every
    process."""
    create_window: float = 3600.0
    sockets_per_client: int = 32
    """Open sockets of one client, counted from the moment they connect (before hello)."""
    max_sockets: int = 4096
    """Open sockets of this process; past it a newcomer's socket takes the place of the oldest
    socket of the client that holds the most, if that client holds two more than the
    newcomer; else ``server-full``."""
    spectators_per_game: int = 32
    """Spectators of one game; a seat never counts against it."""
    tabs_per_seat: int = 4
    """Sockets of one seat; a new one closes the oldest, so the player always gets in."""
    hello_seconds: float = 10.0
    """A socket that has not said hello by then is closed."""
    send_queue: int = 64
    """Messages waiting for one socket; a client that lets more pile up is dropped."""
    idle_expiry: float = 7 * 24 * 3600.0
    """An unfinished game nobody moved in for this long is deleted, from memory and store."""
    unplayed_expiry: float = 30 * 60.0
    """A game nobody has made a move in (bots aside) is deleted this long after it was made."""
    max_unplayed: int = 500
    """Unplayed games (fewer than two seats moved in them), over every process of the store;
    past it a new game takes the place of the oldest unplayed game of the client that holds
    the most, if that client holds two more than the newcomer; else 503 busy."""
    finished_expiry: float | None = None
    """A finished game is deleted this long after its last move; None keeps it in the store."""
    sweep_seconds: float = 60.0
    """How often expired games are looked for."""
    max_request_bytes: int = 4096
    """The largest body of ``POST /api/games`` and the largest hello."""
    max_message_bytes: int = 1024
    """The largest move message (``tricky_treats.host.Table(max_message_bytes=)``)."""
    exec_bots: int = 16
    """Bot programs (``--allow-exec-bot``) running at once on this process; past it the
    fallback bot plays their moves."""

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(Limits):
            value = getattr(self, field.name)
            if value is not None and not value > 0:
                raise tt.ConfigurationError(f"limit {field.name} must be above 0, got {value}")


@attrs.frozen
class TableDefaults:
    """What a table gets when its creator does not choose (``tricky-treats-web serve``)."""

    time_control: TimeControl | None = None
    """No clock by default."""
    grace: float = 60.0
    """Seconds a seat may be away, or out of time, before the takeover bot plays it."""
    takeover: str = "greedy"
    """The takeover bot (``TAKEOVER_BOTS``, ``search:N`` or an allowed program's name)."""

    def __attrs_post_init__(self) -> None:
        TablePolicy(self.time_control, self.grace, self.takeover, 0.0)  # checks them
        if ":" in self.takeover or self.takeover in TAKEOVER_BOTS:
            make_agent(self.takeover)

    def policy(self, now: float | None = None) -> TablePolicy:
        """A table's policy by these defaults, starting ``now``."""
        return TablePolicy(
            self.time_control, self.grace, self.takeover, time.time() if now is None else now
        )


class RefusedError(Exception):
    """A request the server refuses: a stable ``code``, a plain message and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def _refusal(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "error": message})


class Connection:
    """One client's socket: who it is at the table, and its own bounded queue of messages.

    A table never waits for a socket: messages go into the queue, and a writer task sends
    them. A client that lets ``send_queue`` messages pile up is dropped.
    """

    def __init__(
        self,
        websocket: WebSocket,
        who: int | str,
        queue_size: int,
        credential: str | None = None,
        *,
        client: str = "",
    ) -> None:
        self.websocket = websocket
        self.who = who
        self.client = client
        """The client (``client_key``) whose socket this is."""
        self.credential = credential
        """The key this seat said hello with: its link to the next game holds the same."""
        self.dropped: str | None = None
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(queue_size)
        self._loop = asyncio.get_running_loop()
        self.writer = asyncio.ensure_future(self._write())
        # A socket that breaks under a send after its reader ended (a presence message to a
        # client leaving too) ends its writer with the error: seen here, not left unread.
        self.writer.add_done_callback(_seen)

    def _from_elsewhere(self, method: Any, *args: Any) -> bool:
        # A test client may run each socket on an event loop of its own (uvicorn runs one).
        if asyncio.get_running_loop() is self._loop:
            return False
        try:
            self._loop.call_soon_threadsafe(method, *args)
        except RuntimeError:  # its loop is closed: the client is gone
            self.dropped = self.dropped or "gone"
        return True

    def offer(self, text: str) -> None:
        """Queue ``text`` for this socket, or drop the client if its queue is full."""
        if self.dropped is not None or self._from_elsewhere(self.offer, text):
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop("too-slow")

    def drop(self, reason: str) -> None:
        """Stop sending to this socket at once (``reason`` says why)."""
        if self.dropped is None and not self._from_elsewhere(self.drop, reason):
            self.dropped = reason
            self.writer.cancel()

    def refuse(self, code: str, message: str) -> None:
        """Send a last refusal (after what is queued), then close the socket."""
        if self.dropped is not None or self._from_elsewhere(self.refuse, code, message):
            return
        self.offer(_refusal(code, message))
        if self.dropped is None:
            self.dropped = code
            try:
                self._queue.put_nowait(None)  # the writer stops there
            except asyncio.QueueFull:
                self.writer.cancel()

    async def _write(self) -> None:
        while (text := await self._queue.get()) is not None:
            await self.websocket.send_text(text)


async def _refuse_socket(websocket: WebSocket, code: str, message: str) -> None:
    """Send a refusal on a socket nothing else writes to, and close it (in bounded time)."""
    with contextlib.suppress(Exception):  # the client may be gone already
        await asyncio.wait_for(websocket.send_text(_refusal(code, message)), 1)
        await asyncio.wait_for(websocket.close(code=1008), 1)


class _Socket:
    """One open socket of a client on this process, counted from the moment it connects."""

    def __init__(self, client: str, websocket: WebSocket, order: int) -> None:
        self.client = client
        self.websocket = websocket
        self.order = order
        """When it connected, as a count: the lowest is the oldest."""
        self.connection: Connection | None = None
        """Set once its hello seated it; until then nothing else writes to the socket."""
        self.closed: tuple[str, str] | None = None
        self._loop = asyncio.get_running_loop()
        self._closing: asyncio.Future[None] | None = None

    def gave_way(self) -> bool:
        """Whether this socket was closed to make room for another client's."""
        return self.closed is not None

    def close(self, code: str, message: str) -> None:
        """Refuse this socket from now on (``code``, ``message``), from any task or loop."""
        if self.closed is None:
            self.closed = (code, message)
            with contextlib.suppress(RuntimeError):  # no loop runs here
                if asyncio.get_running_loop() is self._loop:
                    # At once: a seat that made way holds no room from now on (issue 46).
                    self._close_here()
                    return
            # A test client may run each socket on an event loop of its own.
            with contextlib.suppress(RuntimeError):  # its loop is closed: the client is gone
                self._loop.call_soon_threadsafe(self._close_here)

    def _close_here(self) -> None:
        assert self.closed is not None
        if self.connection is not None:
            self.connection.refuse(*self.closed)  # after what is queued; its task then ends
        else:  # waiting for its hello: the refusal ends the wait
            self._closing = asyncio.ensure_future(_refuse_socket(self.websocket, *self.closed))
            self._closing.add_done_callback(_seen)


def _default_policy() -> TablePolicy:
    return TableDefaults().policy()


def _seen(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()


@attrs.define(eq=False)
class Room:
    """One table, its stored version and the sockets connected to it.

    ``lock`` makes the messages for this table go one at a time: a move is applied, stored
    and queued for its clients before the next message for the table is read. ``holders``
    counts the requests that have the room in hand (a socket before its hello, a new game):
    the room is not unloaded under them.

    It also keeps the table's time and its players' presence: its ``policy``, its ``clock``
    (after the last move), when this process's last socket of each seat closed (``left``),
    the other processes' sockets as last read (``others``, read at ``others_at``), the seats
    announced as taken over (``taken``), and the timer of the next thing the table's time
    calls for. ``owner``: this process stored (or loaded) the last version, and acts at once
    on what it calls for.
    """

    table: Table
    version: int = 0
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    connections: list[Connection] = attrs.field(factory=list)
    last_active: float = attrs.field(factory=time.time)
    next_game: str | None = None
    holders: int = 0
    policy: TablePolicy = attrs.field(factory=_default_policy)
    clock: Clock | None = None
    left: dict[int | None, float] = attrs.field(factory=dict)
    others: tuple[PresenceRow, ...] = ()
    others_at: float = 0.0
    taken: frozenset[int] = frozenset()
    timer: asyncio.TimerHandle | None = None
    owner: bool = True
    acting: bool = False
    retry_at: float = 0.0
    presence_lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    shown: tuple[object, ...] = ()

    def __attrs_post_init__(self) -> None:
        if self.clock is None:
            self.clock = self.policy.start(len(self.table.game.players))

    def deliver(self, outgoing: tuple[Outgoing, ...], sender: Connection | None) -> None:
        """Queue each message for the sockets it is for (updates with the table's time)."""
        extra = None
        for out in outgoing:
            if out.to == SENDER:
                targets = [] if sender is None else [sender]
            else:
                targets = [c for c in self.connections if c.who == out.to]
                if targets:
                    extra = extra or self.table_state_text()
                    out = _with_state(out, extra)
            for connection in targets:
                connection.offer(out.text)

    @property
    def idle(self) -> bool:
        """Nobody is connected to it and no request has it in hand: it may be unloaded."""
        return not self.connections and not self.holders

    # -- presence and time --------------------------------------------------------------------

    def local_sockets(self, who: int | None) -> int:
        """The open sockets of seat ``who`` (None: the spectators) on this process."""
        key: int | str = SPECTATORS if who is None else who
        return sum(1 for c in self.connections if c.who == key and c.dropped is None)

    def presence(self, seat: int) -> SeatPresence:
        """Whether ``seat``'s player is connected, on any process, and else since when not."""
        rows = [r for r in self.others if r.seat == seat]
        if self.local_sockets(seat) or any(r.sockets for r in rows):
            return SeatPresence(seat, True, None)
        times = [self.policy.started, self.left.get(seat, 0.0)]
        times += [self.others_at - r.away_seconds for r in rows if r.away_seconds is not None]
        return SeatPresence(seat, False, max(times))

    def seen_presence(self) -> tuple[object, ...]:
        """What clients are told of when it changes: who is connected, who is taken over."""
        seats = self.table.human_seats
        return (tuple(self.presence(seat).connected for seat in seats), self.taken)

    def spectators(self) -> int:
        """Spectators connected, on every process."""
        others = sum(r.sockets for r in self.others if r.seat is None)
        return self.local_sockets(None) + others

    def taken_over(self, now: float) -> frozenset[int]:
        """The human seats whose player has been away for the grace: the takeover bot's."""
        taken = set()
        for seat in self.table.human_seats:
            away = self.presence(seat).away_for(now)
            if away is not None and away >= self.policy.grace:
                taken.add(seat)
        return frozenset(taken)

    def running(self) -> int | None:
        """The seat whose clock runs: a human seat to act (None: no clock, a bot's, over)."""
        seat = self.table.game.current_player
        if self.clock is None or seat is None or seat not in self.table.human_seats:
            return None
        return seat

    def host_due(self, now: float) -> tuple[float, int, str] | None:
        """When the host must move next, for which seat, and why; None if it need not.

        Why: ``program`` (a hosted seat's turn), ``away`` or ``time`` (its player's). None
        while a player's move is awaited with time to spare, or once the game is over.
        """
        game = self.table.game
        seat = game.current_player
        if seat is None:
            return None
        if seat in self.table.hosted:
            return (now, seat, "program")
        if seat not in self.table.human_seats:
            return None
        due = []
        away = self.presence(seat)
        if away.away_since is not None:
            due.append((away.away_since + self.policy.grace, seat, "away"))
        if self.clock is not None:
            deadline = self.clock.at + self.clock.left[seat] + self.policy.grace
            due.append((deadline, seat, "time"))
        return min(due) if due else None

    def clock_after(self, before: tt.GameState, actions: int, now: float) -> Clock | None:
        """The clocks once the move of ``actions`` actions from ``before`` is played now."""
        control = self.policy.time_control
        if self.clock is None or control is None:
            return self.clock
        mover = before.current_player
        assert mover is not None  # a move was made
        after = self.table.game
        if not after.is_over and not turn_ended(mover, actions, after.current_player):
            return self.clock
        return self.clock.after_turn(
            control, mover if mover in self.table.human_seats else None, now
        )

    def table_state(self, now: float) -> dict[str, Any]:
        """What every update and presence message adds: the clocks, who is there, the policy."""
        table = self.table
        seats: list[dict[str, Any]] = []
        for seat in range(len(table.game.players)):
            if seat in table.bots:
                seats.append({"seat": seat, "bot": table.bots[seat], "program": False})
            elif seat in table.hosted:
                seats.append({"seat": seat, "bot": table.hosted[seat], "program": True})
            else:
                away = self.presence(seat).away_for(now)
                seats.append(
                    {
                        "seat": seat,
                        "connected": away is None,
                        "away_seconds": None if away is None else round(away, 1),
                        "taken_over": away is not None and away >= self.policy.grace,
                    }
                )
        clock = None
        control = self.policy.time_control
        if self.clock is not None and control is not None:
            running = self.running()
            clock = {
                "mode": control.mode,
                "seconds": control.seconds,
                "increment": control.increment,
                "running": running,
                "left": [
                    round(self.clock.running_left(s, now) if s == running else left, 2)
                    for s, left in enumerate(self.clock.left)
                ],
            }
        return {
            "web_protocol_version": WEB_PROTOCOL_VERSION,
            "clock": clock,
            "presence": {"seats": seats, "spectators": self.spectators()},
            "takeover": {"bot": self.policy.takeover, "grace": self.policy.grace},
        }

    def table_state_text(self) -> str:
        """``table_state`` now, as JSON text."""
        return json.dumps(self.table_state(time.time()), ensure_ascii=False)

    def presence_message(self) -> str:
        """A ``presence`` message: who is connected, the clocks and the policy, now."""
        return '{"type": "presence", ' + self.table_state_text()[1:]


def _with_state(out: Outgoing, extra: str) -> Outgoing:
    """``out`` (an update of the table) with the app's ``extra`` members, written when read."""
    return Outgoing(out.to, lambda: f"{out.text[:-1]}, {extra[1:]}")


_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a game id may be (``secrets.token_urlsafe`` makes them): anything else is no game."""

_UNAVAILABLE = "the game store cannot be reached just now; try again in a moment"


def client_key(address: str) -> str:
    """The client a quota counts for ``address``: an IPv4 address, or an IPv6 /64.

    One IPv6 host usually holds a whole /64, and may rotate through it; an IPv4 address mapped
    into IPv6 counts as that IPv4 address. Anything else (a test client's name) is itself.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Lobby:
    """The games this server process holds, by id, and its limits.

    With a ``store``, the lobby stores every new game and every accepted move, and holds a
    game in memory only while someone uses it: a game is loaded from the store on demand (the
    first socket for it on this process) and unloaded once nobody is connected, so that
    ``max_games`` counts what this process holds, and N processes hold N times as many. What
    players share (a game, its next game) lives in the store. It also deletes expired games.
    Without a store, the games live here (finished ones nobody watches are forgotten).

    Each table it holds keeps its time (a timer per room, set for the next thing the table's
    clock or its absent seats call for) and its players' presence, which it writes to the
    store for the other processes (as ``process``). ``defaults`` are the tables' defaults
    (``TableDefaults``); ``programs`` the bot programs the operator allows.
    """

    def __init__(
        self,
        max_games: int | None = None,
        store: TableStore | None = None,
        *,
        limits: Limits | None = None,
        defaults: TableDefaults | None = None,
        programs: Programs | None = None,
    ) -> None:
        limits = limits or Limits()
        if max_games is not None:
            limits = attrs.evolve(limits, max_games=max_games)
        self.limits = limits
        self.store = store
        self.defaults = defaults or TableDefaults()
        self.programs = programs or Programs(max_running=limits.exec_bots)
        if self.defaults.takeover not in (*TAKEOVER_BOTS, *self.programs.names):
            make_agent(self.defaults.takeover)  # a built-in bot with a budget, or an error
        self.process = secrets.token_hex(6)
        """This process's name in the store's presence rows."""
        self.rooms: dict[str, Room] = {}
        self.sockets: collections.Counter[str] = collections.Counter()
        """Open sockets by client."""
        self._open_sockets: dict[str, dict[int, _Socket]] = {}
        self._sockets_made = 0
        self._created: dict[str, collections.deque[float]] = {}
        self._creating = 0  # rooms being made or loaded from the store: counted as held
        self._tasks: set[asyncio.Future[None]] = set()
        if store is not None:
            gone = store.expire(*self._cutoffs(time.time()))
            if gone:
                log.info("deleted %d expired games from the store", len(gone))

    @property
    def max_games(self) -> int:
        """How many games this process holds at most."""
        return self.limits.max_games

    def _cutoffs(
        self, now: float
    ) -> tuple[datetime.datetime, datetime.datetime | None, datetime.datetime]:
        def moment(seconds: float) -> datetime.datetime:
            return datetime.datetime.fromtimestamp(now - seconds, datetime.UTC)

        finished = self.limits.finished_expiry
        return (
            moment(self.limits.idle_expiry),
            None if finished is None else moment(finished),
            moment(self.limits.unplayed_expiry),
        )

    def _make_space(self, client: str | None = None) -> bool:
        """Unload games nobody uses until one more fits; False if every one is in use.

        Games only spectators watch go next (spectators never hold a room a seat needs): the
        one watched longest first, its spectators told why. Then, for ``client`` (who needs
        the room), a game of the client whose seats hold the most rooms
        (``_room_to_share``). Without a store only finished games may go (memory is all there
        is of the others).
        """
        over = len(self.rooms) + self._creating - self.limits.max_games + 1
        if over <= 0:
            return True
        idle = sorted(
            (room.last_active, game_id)
            for game_id, room in self.rooms.items()
            if room.idle and (self.store is not None or room.table.game.is_over)
        )
        watched: list[tuple[float, str]] = []
        if len(idle) < over and self.store is not None:
            watched = sorted(
                (room.last_active, game_id)
                for game_id, room in self.rooms.items()
                if not room.idle
                and not room.holders
                # A seat whose socket is closing (it made way) holds no room.
                and all(c.who == SPECTATORS or c.dropped for c in room.connections)
            )
        for _, game_id in [*idle, *watched][:over]:
            room = self._unload(game_id)
            for connection in room.connections if room is not None else ():
                connection.refuse(
                    "server-full",
                    "this server needs the room of this game for players; watch again later",
                )
        full = len(self.rooms) + self._creating >= self.limits.max_games
        if full and client is not None and self.store is not None:
            shared = self._room_to_share(client)
            room = None if shared is None else self._unload(shared)
            if room is not None:
                log.info("game %s made way for a newcomer's game", shared)
                for connection in room.connections:
                    connection.refuse(
                        "server-full",
                        "this server gave the room of this game to another player: your address "
                        "holds more games open than anyone else's; come back later",
                    )
        return len(self.rooms) + self._creating < self.limits.max_games

    def _room_to_share(self, client: str) -> str | None:
        """The game whose room ``client`` gets when none is free, if any.

        A client holds the rooms its seats' sockets are in. The game is of the client that
        holds the most rooms, if it holds at least two more than ``client``, and no other
        client's seat is in it but of clients that hold two more too (so an honest player in
        a stranger's game keeps it); of those, the one used longest ago. None if every client
        holds about the same.
        """
        seated = {
            game_id: {c.client for c in room.connections if c.who != SPECTATORS and not c.dropped}
            for game_id, room in self.rooms.items()
            if not room.holders
        }
        held = collections.Counter(holder for holders in seated.values() for holder in holders)
        enough = held[client] + 2
        candidates = [
            (held[holder], -room.last_active, game_id)
            for game_id, holders in seated.items()
            if holders and all(held[other] >= enough for other in holders)
            for room in (self.rooms[game_id],)
            for holder in holders
        ]
        return max(candidates)[2] if candidates else None

    # -- sockets: each client's share of max_sockets ------------------------------------------

    def _open_socket(self, client: str, websocket: WebSocket) -> _Socket:
        """Count a new socket of ``client``, within its quota and its share of the process.

        Past ``max_sockets``, the oldest socket of the client that holds the most gives way
        (``server-full``), if that client holds at least two more than ``client``: so no
        client holds more than its share while another waits. Else ``RefusedError``.
        """
        limits = self.limits
        if self.sockets[client] >= limits.sockets_per_client:
            raise RefusedError(
                "too-many-sockets",
                f"your address has {limits.sockets_per_client} connections open already; "
                "close some tabs",
            )
        if self.sockets.total() >= limits.max_sockets and not self._make_socket_room(client):
            raise RefusedError("server-full", "this server has as many players as it can")
        self._sockets_made += 1
        opened = _Socket(client, websocket, self._sockets_made)
        self._open_sockets.setdefault(client, {})[opened.order] = opened
        self.sockets[client] += 1
        return opened

    def _make_socket_room(self, client: str) -> bool:
        """Close the oldest socket of the biggest holder, if it holds two more than ``client``."""
        held = self.sockets[client]
        # The biggest holder; of equals, the one whose oldest socket is oldest.
        most, _, biggest = max(
            (count, -next(iter(self._open_sockets[other])), other)
            for other, count in self.sockets.items()
        )
        if most < held + 2:
            return False
        oldest = self._open_sockets[biggest][next(iter(self._open_sockets[biggest]))]
        self._close_socket(oldest)
        log.info("a socket of a client holding %d made way for a newcomer's", most)
        oldest.close(
            "server-full",
            "this server is full and gave this connection to another player: your address "
            "holds more connections than anyone else's; close some tabs or try later",
        )
        return True

    def _close_socket(self, opened: _Socket) -> None:
        """Stop counting ``opened`` (once)."""
        mine = self._open_sockets.get(opened.client, {})
        if mine.pop(opened.order, None) is None:
            return
        if not mine:
            del self._open_sockets[opened.client]
        self.sockets[opened.client] -= 1
        if self.sockets[opened.client] <= 0:
            del self.sockets[opened.client]

    def _unload(self, game_id: str) -> Room | None:
        """Forget the room of ``game_id``: its timer stops and its programs end."""
        room = self.rooms.pop(game_id, None)
        if room is not None:
            if room.timer is not None:
                room.timer.cancel()
                room.timer = None
            self.programs.end(game_id)
        return room

    @contextlib.asynccontextmanager
    async def holding(self, game_id: str, client: str | None = None) -> AsyncIterator[Room | None]:
        """The room of ``game_id`` (None if no such game), kept loaded for the ``with`` block.

        From memory, or else loaded from the store (``RefusedError`` ``unavailable`` if the
        store cannot be reached, ``server-full`` if this process holds all it may and
        ``client``, who asks, may not take the room of another's game: ``max_games``).
        """
        room = await self._room(game_id, client)
        if room is None:
            yield None
            return
        room.holders += 1
        try:
            yield room
        finally:
            room.holders -= 1

    async def room(self, game_id: str) -> Room | None:
        """The room of ``game_id``, from memory or else from the store; None if unknown."""
        return await self._room(game_id)

    async def _room(self, game_id: str, client: str | None = None) -> Room | None:
        if not _GAME_ID.fullmatch(game_id):
            return None  # a NUL, a space, an odd byte: no game has such an id
        room = self.rooms.get(game_id)
        if room is not None or self.store is None:
            return room
        if not self._make_space(client):
            raise RefusedError(
                "server-full", "this server holds as many games as it can; try later", 503
            )
        # The room is counted from now, while the store loads it: requests loading games at
        # once must not each take the last room.
        self._creating += 1
        try:
            return await self._load_room(game_id)
        finally:
            self._creating -= 1

    async def _load_room(self, game_id: str) -> Room | None:
        assert self.store is not None
        try:
            stored = await self._store_call(self.store.load, game_id)
        except Exception:
            _store_failed("could not load game %s from the store", game_id)
            raise RefusedError("unavailable", _UNAVAILABLE, 503) from None
        room = self.rooms.get(game_id)  # another client may have loaded it meanwhile
        if room is None and stored is not None:
            try:
                policy, clock = self._policy_of(stored.policy, stored.clock, stored.table)
            except tt.RecordError as exc:
                log.error("game %s: %s; it plays on by the defaults", game_id, exc)
                policy, clock = self.defaults.policy(), None
            room = Room(stored.table, stored.version, policy=policy, clock=clock)
            room.next_game = stored.next_game
            try:
                room.others = tuple(
                    await self._store_call(self.store.presence, game_id, self.process)
                )
                room.others_at = time.time()
            except Exception:
                _store_failed("could not read who is at game %s", game_id)
            room = self.rooms.setdefault(game_id, room)
        return room

    def _policy_of(
        self, policy: str | None, clock: str | None, table: Table
    ) -> tuple[TablePolicy, Clock | None]:
        """A stored game's policy and clocks: its own, else the defaults' without a clock.

        A game stored before policies takes the defaults; ``tt.RecordError`` if what is
        stored is damaged.
        """
        seats = len(table.game.players)
        if policy is None:
            return TableDefaults(None, self.defaults.grace, self.defaults.takeover).policy(), None
        found = TablePolicy.from_json(policy)
        if clock is None or found.time_control is None:
            return found, found.start(seats)
        return found, Clock.from_json(clock, seats)

    async def _store_call(self, call: Callable[..., _T], *args: Any) -> _T:
        """``call(*args)`` in a worker thread: the event loop never waits for the store."""
        return await asyncio.to_thread(call, *args)

    def _save(
        self,
        game_id: str,
        table: Table,
        version: int,
        since: int = 0,
        *,
        policy: TablePolicy | None = None,
        clock: Clock | None = None,
        mover: int | None = None,
    ) -> None:
        """Store ``table`` as ``version`` (runs in a worker thread); failures are logged.

        ``since``: how many actions the game had at the version before; ``policy`` the new
        table's (version 0), ``clock`` the clocks after the move, ``mover`` the seat that made
        it itself.
        """
        assert self.store is not None
        try:
            self.store.save(
                game_id,
                table,
                version=version,
                since=since,
                policy=None if policy is None else policy.to_json(),
                clock=None if clock is None else clock.to_json(),
                mover=mover,
            )
        except VersionConflictError:
            raise
        except Exception:
            _store_failed("could not store game %s; its last move is refused", game_id)
            raise

    def _check_quota(self, client: str, now: float) -> collections.deque[float]:
        created = self._created.setdefault(client, collections.deque())
        while created and created[0] <= now - self.limits.create_window:
            created.popleft()
        if len(created) >= self.limits.games_per_client:
            wait = created[0] + self.limits.create_window - now
            raise RefusedError(
                "too-many-games",
                f"you have created {len(created)} games lately, as many as one address may; "
                f"try again in {wait / 60:.0f} minutes or play one of them",
                429,
            )
        if len(self._created) > 100_000:  # forget the quietest clients, so this stays bounded
            for key in [k for k, v in self._created.items() if not v and k != client]:
                del self._created[key]
        return created

    async def _check_unplayed(self) -> None:
        """Refuse a new game while ``max_unplayed`` games (of every process) await a move."""
        if self.store is None:
            unplayed = sum(
                1 for r in self.rooms.values() if r.version == 0 and not r.table.game.is_over
            )
        else:
            try:
                unplayed = await self._store_call(self.store.count_unplayed)
            except Exception:
                _store_failed("could not count the unplayed games")
                raise RefusedError("unavailable", _UNAVAILABLE, 503) from None
        if unplayed >= self.limits.max_unplayed:
            raise RefusedError(
                "busy",
                f"{unplayed} new games are waiting for their first move, as many as this "
                "server keeps; try again in a few minutes",
                503,
            )

    async def create(self, request: Mapping[str, Any], client: str = "") -> dict[str, Any]:
        """Create a game for ``client`` from a request body; the answer holds the seat links."""
        now = time.time()
        maker = client_key(client)
        created = self._check_quota(maker, now)
        table, names = self._new_table(request)
        policy = self._new_policy(request)
        self._check_room(maker)  # after the request is read: a bad one takes no room
        if self.store is None:
            await self._check_unplayed()
        game_id = await self._open(table, policy, maker)
        created.append(now)
        others = {**table.bots, **table.hosted}
        return {
            "game": game_id,
            "seats": [
                {
                    "seat": seat,
                    "name": name,
                    "bot": others.get(seat),
                    "link": None if seat in others else f"/play/{game_id}#{table.credential(seat)}",
                }
                for seat, name in enumerate(names)
            ],
            "watch": f"/play/{game_id}",
            "clock": None if policy.time_control is None else str(policy.time_control),
            "takeover": {"bot": policy.takeover, "grace": policy.grace},
        }

    def bots_on_offer(self) -> tuple[str, ...]:
        """The bots a seat may be given: the built-in ones, and the allowed programs."""
        return (*BOTS, *self.programs.names)

    def takeovers_on_offer(self) -> tuple[str, ...]:
        """The bots a table may name to play its absent seats."""
        default = () if self.defaults.takeover in TAKEOVER_BOTS else (self.defaults.takeover,)
        names = (*TAKEOVER_BOTS, *default, *self.programs.names)
        return tuple(dict.fromkeys(names))

    def _new_table(self, request: Mapping[str, Any]) -> tuple[Table, list[str]]:
        players = request.get("players")
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise tt.ConfigurationError("players must be a list of {name, bot} objects")
        names = [str(p.get("name") or f"Player {i + 1}")[:24] for i, p in enumerate(players)]
        chosen = {i: p["bot"] for i, p in enumerate(players) if p.get("bot")}
        offered = self.bots_on_offer()
        for seat, bot in chosen.items():
            if bot not in offered:
                raise tt.ConfigurationError(f"seat {seat}: bots are {', '.join(offered)}")
        bots = {s: b for s, b in chosen.items() if b in BOTS}
        hosted = {s: b for s, b in chosen.items() if b not in BOTS}
        seed = _seed(request.get("seed"))
        variants = request.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise tt.ConfigurationError("variants must be a list of names")
        hidden = sorted(set(variants) & HIDDEN_VARIANTS)
        if hidden:
            raise tt.ConfigurationError(f"variants {hidden} cannot be chosen here")
        table = Table.new(
            names,
            seed,
            bots=bots,
            hosted=hosted,
            variants=variants,
            any_mean_house=request.get("any_mean_house") is True,
            refresh_ends_turn=request.get("refresh_ends_turn") is True,
            max_message_bytes=self.limits.max_message_bytes,
        )
        return table, names

    def _new_policy(self, request: Mapping[str, Any]) -> TablePolicy:
        """A new table's policy: what its creator chose, else the defaults."""
        defaults = self.defaults
        control = defaults.time_control
        if "clock" in request:
            spec = request["clock"]
            control = None if spec in (None, "", "none") else TimeControl.parse(spec)
        takeover = request.get("takeover", defaults.takeover)
        if takeover not in self.takeovers_on_offer():
            raise tt.ConfigurationError(
                f"the takeover bot is one of {', '.join(self.takeovers_on_offer())}"
            )
        grace = request.get("grace", defaults.grace)
        return TablePolicy(control, grace, takeover, time.time())

    def _check_room(self, client: str) -> None:
        if not self._make_space(client):
            raise RefusedError(
                "server-full", "this server has as many games as it can hold; try later", 503
            )

    async def _open(self, table: Table, policy: TablePolicy, maker: str) -> str:
        """Store a new table of ``maker`` (a client) within the caps, open its room; its id."""
        self._check_room(maker)
        game_id = secrets.token_urlsafe(9)
        if self.store is not None:
            self._creating += 1
            try:
                gone = await self._store_call(
                    functools.partial(
                        self.store.create,
                        policy=policy.to_json(),
                        maker=maker,
                        per_maker=self.limits.games_per_client,
                        most=self.limits.max_unplayed,
                    ),
                    game_id,
                    table,
                )
            except CapReachedError as exc:
                raise _cap_refusal(exc) from None
            except Exception as exc:
                _store_failed("could not store a new game")
                raise RefusedError(
                    "not-saved", "the server could not store the new game; try again", 503
                ) from exc
            finally:
                self._creating -= 1
            for displaced in gone:  # its sockets on the other processes learn at their move
                log.info("game %s made way for a newcomer's game", displaced)
                self._close_room(
                    displaced, "expired", "this game was never played and made way for another"
                )
        self.rooms[game_id] = Room(table, policy=policy)
        return game_id

    # -- "play again" (the page's end sheet) ------------------------------------------------------

    async def play_again(self, game_id: str, room: Room) -> str:
        """The game after ``room``'s finished one (its lock held): same seats, bots and rules.

        Made once per finished game, whichever process a seat asks through: every seat gets
        the same one, with a new deal. Its seats take the same keys as this game's (the table
        keeps only their hashes), so that any process can send each seat its link. With a
        store, the next game is stored with the link from this one, and announced to the other
        processes.
        """
        if room.next_game is not None:
            return room.next_game
        old = room.table.game.config
        game = tt.new_game(
            list(old.players),
            variants=[v.name for v in old.variants],
            any_mean_house=old.any_mean_house,
            refresh_ends_turn=old.refresh_ends_turn,
        )
        seats = json.loads(room.table.save(hash_credentials=True))["seats"]
        table = Table(
            game,
            bots=room.table.bots,
            hosted=room.table.hosted,
            credential_hashes=[seat.get("credential_sha256") for seat in seats],
            max_message_bytes=self.limits.max_message_bytes,
        )
        policy = attrs.evolve(room.policy, started=time.time())
        if self.store is None:
            room.next_game = await self._open(table, policy, "")
            return room.next_game
        candidate = secrets.token_urlsafe(9)
        try:
            room.next_game = await self._store_call(
                self.store.open_next, game_id, candidate, table, policy.to_json()
            )
        except Exception as exc:
            _store_failed("could not store the next game of %s", game_id)
            raise RefusedError("not-saved", "the server could not store the next game") from exc
        return room.next_game

    def next_game_message(self, room: Room, connection: Connection) -> str | None:
        """For a client of ``room``: the link to its next game, if there is one yet."""
        if room.next_game is None:
            return None
        link = f"/play/{room.next_game}"
        if isinstance(connection.who, int) and connection.credential is not None:
            link += f"#{connection.credential}"
        return json.dumps({"type": "next-game", "link": link})

    def announce_next(self, room: Room) -> None:
        """Send every client of ``room`` its link to the next game."""
        for connection in room.connections:
            message = self.next_game_message(room, connection)
            if message is not None:
                connection.offer(message)

    async def next_game(self, game_id: str, next_id: str) -> None:
        """Another process stored the next game of ``game_id``: tell this process's sockets."""
        room = self.rooms.get(game_id)
        if room is None or room.next_game is not None:
            return
        async with room.lock:
            if room.next_game is None:
                room.next_game = next_id
                self.announce_next(room)

    async def move(self, game_id: str, room: Room, text: str, sender: Connection) -> None:
        """Handle one message from ``sender``: apply, store, then queue the answers."""
        async with room.lock:
            if self.store is None:
                before = room.table.game
                outgoing = room.table.handle(text, sender=sender.who)
                if outgoing[0].to != SENDER:
                    room.clock = self._clock_of(room, before, time.time())
            else:
                outgoing = await self._stored_move(game_id, room, text, sender)
            if outgoing[0].to != SENDER:
                room.last_active = time.time()
                room.owner = True
                if self.store is None:
                    room.version += 1  # (a store's save counts them)
            room.deliver(outgoing, sender)
            if outgoing[0].to != SENDER:
                self._moved(game_id, room)

    def _clock_of(self, room: Room, before: tt.GameState, now: float) -> Clock | None:
        """The clocks after the move from ``before`` to the room's game, made ``now``."""
        actions = len(room.table.game.history) - len(before.history)
        return room.clock_after(before, actions, now)

    async def _stored_move(
        self, game_id: str, room: Room, text: str, sender: Connection
    ) -> tuple[Outgoing, ...]:
        for _ in range(5):
            outgoing, conflict = await self._commit(
                game_id,
                room,
                functools.partial(room.table.handle, text, sender=sender.who),
            )
            if not conflict:
                return outgoing
            # Another process moved this game first: catch up, then try the message again.
            try:
                if not await self._catch_up(game_id, room):
                    return (_answer("no-game", "this game has expired"),)
            except Exception:
                _store_failed("could not load game %s from the store", game_id)
                return (_answer("not-saved", _UNAVAILABLE),)
        return (_answer("busy", "the game is busy; try again"),)

    async def _commit(
        self,
        game_id: str,
        room: Room,
        play: Callable[..., tuple[Outgoing, ...]],
    ) -> tuple[tuple[Outgoing, ...], bool]:
        """Play a move (``play(commit=...)``) and store it as the next version, with its clocks.

        Answers the table's answers, and whether another process stored that version first
        (then nothing changed). The room's lock is held.
        """
        assert self.store is not None
        version = room.version + 1
        before = room.table.game
        conflict = False
        clock: list[Clock | None] = [room.clock]

        # The human seat to act: it made this move itself unless the host played it for the
        # seat (play_for, seen in played_by). A game counts as played once two seats have.
        seat = before.current_player
        human = seat if seat in room.table.human_seats else None

        def commit(table: Table) -> None:
            nonlocal conflict
            clock[0] = self._clock_of(room, before, time.time())
            own = None if len(before.history) in table.played_by else human
            try:
                self._save(game_id, table, version, len(before.history), clock=clock[0], mover=own)
            except VersionConflictError:
                conflict = True
                raise

        # The move and its save run in a worker thread: the event loop (every other table)
        # never waits for the disk. The table is only touched under its room's lock.
        outgoing = await asyncio.to_thread(play, commit=commit)
        if not conflict and outgoing[0].to != SENDER:
            room.version = version
            room.clock = clock[0]
        return outgoing, conflict

    def _moved(self, game_id: str, room: Room) -> None:
        """After a new version of ``room``: end a finished game's programs, set the timer."""
        if room.table.game.is_over:
            self._spawn(self.programs.finish(game_id, room.table.game))
        self._schedule(game_id, room)

    async def _catch_up(self, game_id: str, room: Room) -> bool:
        """Bring ``room`` (its lock held) to the stored version; False if the game is gone.

        It reads the moves stored after its own version and plays them (each checked by the
        rules); only if the log no longer holds them all, or they do not play, does it load
        the whole game again.
        """
        assert self.store is not None
        news = await self._store_call(self.store.moves_since, game_id, room.version)
        if news is None:
            self._close_room(game_id, "expired", "this game has expired")
            return False
        if news.version > room.version and not self._follow(game_id, room, news.moves):
            stored = await self._store_call(self.store.load, game_id)
            if stored is None:
                self._close_room(game_id, "expired", "this game has expired")
                return False
            if stored.version > room.version:
                outgoing = stored.table.updates_since(room.table.game)
                room.table, room.version = stored.table, stored.version
                with contextlib.suppress(tt.RecordError):  # kept as it was: the log says
                    room.policy, room.clock = self._policy_of(
                        stored.policy, stored.clock, stored.table
                    )
                room.last_active = time.time()
                room.owner = False
                room.deliver(outgoing, None)
                self._moved(game_id, room)
        if news.next_game is not None and room.next_game is None:
            room.next_game = news.next_game
            self.announce_next(room)
        return True

    def _follow(self, game_id: str, room: Room, moves: Sequence[StoredMove]) -> bool:
        """Play ``moves``, stored by other processes, at ``room`` (its lock held).

        Only if they are the ones right after its version and play by the rules; else False,
        and the room is unchanged. The room takes the clocks stored with the last of them.
        """
        versions = [move.version for move in moves]
        if not moves or versions != list(range(room.version + 1, room.version + 1 + len(moves))):
            return False
        seats = len(room.table.game.players)
        try:
            clocks = [
                None if move.clock is None else Clock.from_json(move.clock, seats) for move in moves
            ]
        except tt.RecordError as exc:
            log.error("game %s: a stored clock is damaged (%s)", game_id, exc)
            return False
        actions: list[str] = []
        played_by = {}
        for move in moves:
            if move.played_by is not None:
                played_by[len(actions)] = move.played_by
            actions += move.actions
        try:
            outgoing = room.table.follow(actions, played_by=played_by)
        except tt.TrickyTreatsError as exc:
            log.error(
                "the stored moves %d to %d of game %s do not play on this table (%s)",
                versions[0],
                versions[-1],
                game_id,
                exc,
            )
            return False
        room.version = versions[-1]
        if clocks[-1] is not None:
            room.clock = clocks[-1]
        room.last_active = time.time()
        room.owner = False
        room.deliver(outgoing, None)
        self._moved(game_id, room)
        return True

    async def refresh(self, game_id: str, room: Room) -> bool:
        """Bring ``room`` (its lock held) up to the stored version; False if it is gone.

        A process whose notification is still on its way may hold an older table than the
        store: a client that connects gets the stored state. ``RefusedError`` ``unavailable``
        if the store cannot be reached.
        """
        if self.store is None:
            return True
        try:
            return await self._catch_up(game_id, room)
        except Exception:
            _store_failed("could not read game %s from the store", game_id)
            raise RefusedError("unavailable", _UNAVAILABLE, 503) from None

    def changed(
        self, game_id: str, version: int, move: StoredMove | None = None
    ) -> Awaitable[None] | None:
        """Another process stored ``version`` of ``game_id``: the work of telling our sockets.

        None if this process holds no such game, or has that version already. ``move`` is
        that move (None if the notification did not carry it): a room at the version before
        plays it; one further behind reads the log.
        """
        room = self.rooms.get(game_id)
        if room is None or version <= room.version:
            return None
        return self._heard(game_id, room, version, move)

    async def _heard(self, game_id: str, room: Room, version: int, move: StoredMove | None) -> None:
        async with room.lock:
            if version <= room.version:
                return
            if (
                move is not None
                and version == room.version + 1
                and self._follow(game_id, room, [move])
            ):
                return
            try:
                await self._catch_up(game_id, room)
            except Exception:  # the store went away: the next resync catches up
                _store_failed("could not read game %s from the store", game_id)

    async def resync(self) -> None:
        """Catch up every game this process holds (moves may have gone unheard)."""
        for game_id, room in list(self.rooms.items()):
            async with room.lock:
                try:
                    await self._catch_up(game_id, room)
                    room.others = (
                        tuple(await self._store_call(self.store.presence, game_id, self.process))
                        if self.store is not None
                        else ()
                    )
                    room.others_at = time.time()
                except Exception:
                    _store_failed("could not read game %s from the store", game_id)
                    return
            self._told(game_id, room)

    def _close_room(self, game_id: str, code: str, message: str) -> None:
        room = self._unload(game_id)
        if room is None:
            return
        for connection in room.connections:
            connection.refuse(code, message)

    def unload_idle(self) -> list[str]:
        """Unload the games nobody uses (the store keeps them); answer their ids.

        Without a store, only the finished ones: memory is all there is of the others.
        """
        gone = [
            game_id
            for game_id, room in self.rooms.items()
            if room.idle and (self.store is not None or room.table.game.is_over)
        ]
        for game_id in gone:
            self._unload(game_id)
        return gone

    async def expire(self, now: float | None = None) -> list[str]:
        """Delete the games left idle past the limits; answer their ids.

        With a store, that is what the store deletes (by the time of the last save, whichever
        process made it); without one, the idle games in memory. Their sockets are told and
        closed. Games nobody uses are unloaded from memory (``unload_idle``).
        """
        now = time.time() if now is None else now
        idle, finished, unplayed = self._cutoffs(now)
        if self.store is not None:
            gone = await self._store_call(self.store.expire, idle, finished, unplayed)
        else:
            gone = [
                game_id
                for game_id, room in self.rooms.items()
                if (room.last_active < idle.timestamp() and not room.table.game.is_over)
                or (
                    room.last_active < unplayed.timestamp()
                    and room.version == 0
                    and not room.table.game.is_over
                )
                or (
                    finished is not None
                    and room.table.game.is_over
                    and room.last_active < finished.timestamp()
                )
            ]
        for game_id in gone:
            self._close_room(game_id, "expired", "this game was idle too long and is deleted")
        self.unload_idle()
        if gone:
            log.info("deleted %d expired games", len(gone))
        return gone

    async def sweep(self) -> None:
        """Run ``expire`` every ``sweep_seconds``, until cancelled."""
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.expire()
            except Exception:  # a store that fails now may work next time
                _store_failed("could not delete expired games")

    # -- presence: who is at each table ---------------------------------------------------------

    async def seated(
        self, game_id: str, room: Room, who: int | str, newcomer: Connection | None = None
    ) -> None:
        """A socket of ``who`` (a seat, or ``SPECTATORS``) joined or left ``room``.

        Every client hears who is there now if that changed (a seat taken over whose player
        is back is announced so), the timer is set again, and the store is told this
        process's sockets of that seat, for the other processes. ``newcomer``: the socket
        that joined (its welcome said it all).
        """
        seat = None if who == SPECTATORS else int(who)
        if not room.local_sockets(seat):
            room.left[seat] = time.time()
        self._told(game_id, room, newcomer)
        if self.store is None:
            return
        async with room.presence_lock:  # in order: the last write holds the last count
            try:
                sockets = room.local_sockets(seat)
                await self._store_call(
                    self.store.set_presence, game_id, self.process, seat, sockets
                )
            except Exception:
                _store_failed("could not store who is at game %s", game_id)

    def presence_changed(self, game_id: str) -> Awaitable[None] | None:
        """Another process's sockets of ``game_id`` changed: the work of reading them."""
        room = self.rooms.get(game_id)
        if room is None or self.store is None:
            return None
        return self._read_presence(game_id, room)

    async def _read_presence(self, game_id: str, room: Room) -> None:
        assert self.store is not None
        try:
            rows = await self._store_call(self.store.presence, game_id, self.process)
        except Exception:
            _store_failed("could not read who is at game %s", game_id)
            return
        if self.rooms.get(game_id) is room:
            room.others, room.others_at = tuple(rows), time.time()
            self._told(game_id, room)

    def _told(self, game_id: str, room: Room, newcomer: Connection | None = None) -> None:
        """Who is at ``room`` may have changed: tell its clients if so, set its timer again.

        They hear when a seat's player comes or goes (on any process) or is taken over or
        back; ``newcomer`` has heard it in its welcome. A spectator alone is no news: the
        count comes with the next message.
        """
        room.taken = room.taken_over(time.time())
        shown = room.seen_presence()
        if shown != room.shown:
            room.shown = shown
            message = room.presence_message()
            for connection in room.connections:
                if connection is not newcomer:
                    connection.offer(message)
        self._schedule(game_id, room)

    async def keep_alive(self) -> None:
        """Say every ``PRESENCE_SECONDS`` that this process is alive, until cancelled.

        And read again the presence of the games where another process's sockets are open:
        that process may be gone.
        """
        assert self.store is not None
        while True:
            await asyncio.sleep(PRESENCE_SECONDS)
            try:
                await self._store_call(self.store.heartbeat, self.process)
            except Exception:
                _store_failed("could not say this process is alive")
            for game_id, room in list(self.rooms.items()):
                if any(row.sockets for row in room.others):
                    await self._read_presence(game_id, room)

    # -- the table's time: clocks and takeover ----------------------------------------------

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _schedule(self, game_id: str, room: Room) -> None:
        """Set ``room``'s timer for the next thing its time or its absent seats call for."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if self.rooms.get(game_id) is not room or room.acting or room.table.game.is_over:
            return
        now = time.time()
        times = [
            presence.away_since + room.policy.grace
            for seat in room.table.human_seats
            if seat not in room.taken and (presence := room.presence(seat)).away_since is not None
        ]
        due = room.host_due(now)
        if due is not None:
            times.append(max(due[0], room.retry_at) + self._backstop(room, due[2]))
        if not times:
            return
        room.timer = asyncio.get_running_loop().call_later(
            max(0.0, min(times) - now), self._fire, game_id, room
        )

    def _backstop(self, room: Room, reason: str) -> float:
        """How much later than due this process acts (0 if it stored the last version)."""
        if room.owner:
            return 0.0
        program = self.programs.limits.move_seconds if reason == "program" else 0.0
        return BACKSTOP_SECONDS + program

    def _fire(self, game_id: str, room: Room) -> None:
        room.timer = None
        self._spawn(self._tick(game_id, room))

    async def _tick(self, game_id: str, room: Room) -> None:
        """The timer rang: announce the seats newly taken over, make the move now due."""
        try:
            now = time.time()
            if room.taken_over(now) != room.taken:
                self._told(game_id, room)
            due = room.host_due(now)
            if due is not None and due[0] + self._backstop(room, due[2]) <= now + 0.001:
                await self._host_move(game_id, room, due[1], due[2])
        except Exception:  # a bug: said in the log; the timer is set again
            log.exception("game %s: the table's time failed", game_id)
            room.retry_at = time.time() + RETRY_SECONDS
        finally:
            self._schedule(game_id, room)

    async def _host_move(self, game_id: str, room: Room, seat: int, reason: str) -> None:
        """Play ``seat``'s move as the host, stored as the next version.

        Its program's move, or the takeover bot's (``reason``: its player is ``away`` or out
        of ``time``).
        """
        async with room.lock:
            if self.store is not None:
                try:
                    if not await self._catch_up(game_id, room):
                        return
                except Exception:
                    _store_failed("could not read game %s from the store", game_id)
                    room.retry_at = time.time() + RETRY_SECONDS
                    return
            due = room.host_due(time.time())
            if due is None or due[1] != seat or due[0] > time.time() + 0.001:
                return  # a move came first, or the player is back
            reason = due[2]
            version, game = room.version, room.table.game
            name = room.table.hosted.get(seat, room.policy.takeover)
            room.acting = True
        try:
            action, played_by = await self._choose(game_id, room, game, seat, name, reason)
        finally:
            room.acting = False
        async with room.lock:
            if room.version != version or room.table.game is not game:
                return  # the player moved meanwhile, or another process did this
            play = functools.partial(room.table.play_for, seat, action, played_by=played_by)
            if self.store is None:
                outgoing = play()
                room.clock = self._clock_of(room, game, time.time())
                room.version += 1
            else:
                try:
                    outgoing, conflict = await self._commit(game_id, room, play)
                except Exception:
                    _store_failed("could not store the move of game %s", game_id)
                    room.retry_at = time.time() + RETRY_SECONDS
                    return
                if conflict:  # another process made it first: take its move
                    log.info("game %s: another process played seat %d's move first", game_id, seat)
                    with contextlib.suppress(Exception):
                        await self._catch_up(game_id, room)
                    return
            if outgoing[0].to == SENDER:  # not stored: try again in a moment
                room.retry_at = time.time() + RETRY_SECONDS
                return
            room.last_active = time.time()
            room.owner = True
            room.deliver(outgoing, None)
            self._moved(game_id, room)

    async def _choose(
        self, game_id: str, room: Room, game: tt.GameState, seat: int, name: str, reason: str
    ) -> tuple[tt.Action, PlayedBy | None]:
        """The action the host plays for ``seat``, by bot ``name``, and who played it.

        A program that fails (no answer in time, a crash, an illegal answer) or that this
        server does not run loses the move to the greedy bot, and the move says why.
        """
        hosted = seat in room.table.hosted
        if hosted or name in self.programs.allowed:
            answer = await self.programs.ask(game_id, seat, name, game)
            if answer.action is not None:
                return answer.action, None if hosted else PlayedBy(name, reason)
            failure = f"{name} {answer.failure}"
            log.info("game %s, seat %d: %s; the greedy bot plays", game_id, seat, failure)
            name, reason = "greedy", "failed"
            detail = failure[:200]
        else:
            detail = ""
        agent = make_agent(name)
        rng = random.Random(f"tricky-treats table takeover {game.config.seed} {len(game.history)}")
        view, legal = game.view(seat), game.legal_actions()
        action = await asyncio.to_thread(agent.choose, view, legal, rng)
        return action, PlayedBy(name, reason, detail)


def _cap_refusal(exc: CapReachedError) -> RefusedError:
    """The refusal of a new game the store's caps turned away."""
    if exc.code == "too-many-games":
        return RefusedError(
            "too-many-games",
            f"your address has {exc.held} games nobody has played yet, as many as one address "
            "may; play one of them, or try again once they expire",
            429,
        )
    return RefusedError(
        "busy",
        f"{exc.total} new games are waiting to be played, as many as this server keeps, and "
        "nobody holds more than their share; try again in a few minutes",
        503,
    )


def _store_failed(message: str, *args: object) -> None:
    """Log the store failure being handled: one line if the store is down, else its traceback."""
    failure = sys.exc_info()[1]
    if isinstance(failure, StoreUnavailableError):
        log.warning(f"{message}: %s", *args, failure)
    else:
        log.exception(message, *args)


def _answer(code: str, message: str) -> Outgoing:
    return Outgoing(SENDER, _refusal(code, message))


LANGUAGE_COOKIE = "tt_lang"
"""The cookie of the page's language switch: a player's own choice, kept by their browser."""


@functools.cache
def web_languages() -> dict[str, str]:
    """The languages the pages speak, by code, each named in its own words.

    English, and every catalog shipped (``static/i18n/LL.json``) of a language the engine
    speaks too; a catalog names its language by its translation of "English".
    """
    from tricky_treats.i18n import LANGUAGES

    languages = {"en": "English"}
    for catalog in sorted((STATIC / "i18n").glob("*.json")):
        if catalog.stem in LANGUAGES:
            messages = json.loads(catalog.read_text(encoding="utf-8"))
            languages[catalog.stem] = messages.get("English", catalog.stem)
    return languages


def page_language(cookie: str | None, headers: Mapping[str, str], asked: str | None = None) -> str:
    """The language of a page: a link's, else the player's switch, else the browser's wish.

    ``asked`` is a link's ``?lang=``, ``cookie`` the switch's choice; a language the pages do
    not speak is passed over.
    """
    from tricky_treats.i18n import check_language, from_accept_language

    for chosen in (asked, cookie):
        if chosen:
            with contextlib.suppress(tt.ConfigurationError):
                code = check_language(chosen[:40])
                if code in web_languages():
                    return code
    found = from_accept_language(headers.get("accept-language"))
    return found if found in web_languages() else "en"


@functools.cache
def _page_html(name: str, language: str) -> str:
    """A page of ``static`` in ``language``: its ``lang`` and the messages its scripts use."""
    html = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    catalog = STATIC / "i18n" / f"{language}.json"
    messages = catalog.read_text(encoding="utf-8") if catalog.is_file() else "{}"
    # "</" never ends the script early: JSON may escape its slash.
    script = (
        '<script id="tt-messages" type="application/json">'
        + messages.replace("</", "<\\/")
        + "</script>"
    )
    languages = json.dumps(web_languages(), ensure_ascii=False).replace("</", "<\\/")
    script += f'\n  <script id="tt-languages" type="application/json">{languages}</script>'
    html = html.replace('<html lang="en">', f'<html lang="{language}">', 1)
    return html.replace("</head>", f"  {script}\n</head>", 1)


def _seed(seed: object) -> int | None:
    """A seed from a request: a whole number, as JSON or as a string of digits.

    The page sends a string: JavaScript's numbers lose digits past 2^53.
    """
    if isinstance(seed, str) and seed.strip().isascii() and seed.strip().isdigit():
        seed = int(seed.strip()) if len(seed.strip()) <= 20 else -1
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
        raise tt.ConfigurationError("the seed must be a whole number from 0 to 2^63 - 1")
    return seed


def _asks_again(text: str) -> bool:
    """Whether a client's message is ``{"type": "again"}``: the page's "play again" button."""
    if len(text) > 64 or '"again"' not in text:
        return False
    try:
        message = json.loads(text)
    except ValueError:
        return False
    return isinstance(message, dict) and message == {"type": "again"}


async def _play_again(lobby: Lobby, game_id: str, room: Room, sender: Connection) -> None:
    """Open the next game, asked for by a seated player once the game is over.

    Every client of the room gets its link to it (a seat's link holds its key), and so do the
    clients that other processes hold (the store announces it).
    """
    if not isinstance(sender.who, int) or not room.table.game.is_over:
        why = "only a seated player can ask for the next game, once this one is over"
        sender.offer(_refusal("not-over", why))
        return
    async with room.lock:
        try:
            await lobby.play_again(game_id, room)
        except (tt.TrickyTreatsError, RefusedError) as exc:
            sender.offer(_refusal("no-next-game", str(exc)))
            return
        lobby.announce_next(room)


def _client_of(scope: Mapping[str, Any]) -> str:
    # uvicorn puts the proxy's forwarded address here only for proxies it is told to trust.
    client = scope.get("client")
    return client_key(str(client[0])) if client else "unknown"


def _json_object(text: str | bytes) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, bad UTF-8, too deep, too long a number
        raise RefusedError("malformed", "expected a JSON object") from None
    if not isinstance(document, dict):
        raise RefusedError("malformed", "expected a JSON object")
    return document


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise RefusedError("too-large", f"request too large: at most {limit} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RefusedError("too-large", f"request too large: at most {limit} bytes", 413)
    return body


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next text frame; None when the client left. A binary frame is refused."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is None:
        raise RefusedError("binary-frame", "send text frames (JSON), not binary ones")
    return str(text)


def create_app(
    lobby: Lobby | None = None,
    wheel_dir: Path | None = None,
    *,
    background: bool = True,
    pyodide: Path | None = None,
) -> Starlette:
    """The web app; ``wheel_dir`` is where the wheels for the offline page are built.

    ``pyodide`` is the folder of the Pyodide runtime for the offline page (default
    ``PYODIDE``, where a clone's ``npm ci`` puts it); without one the page says so.

    While it runs (its lifespan), it deletes expired games every ``Limits.sweep_seconds`` and
    listens for the moves of other processes sharing its store (``background=False``: not).
    """
    lobby = lobby if lobby is not None else Lobby()
    limits = lobby.limits
    pyodide = PYODIDE if pyodide is None else pyodide
    wheels: dict[str, Path] = {}

    def wheel_files() -> dict[str, Path]:
        if not wheels:
            wheels.update(build_wheels(wheel_dir))
        return wheels

    async def page(request: Request) -> Response:
        name = request.scope["route"].name
        language = page_language(
            request.cookies.get(LANGUAGE_COOKIE), request.headers, request.query_params.get("lang")
        )
        html = _page_html(name, language)
        # The page depends on the cookie and the header: caches must keep one per language.
        return Response(html, media_type="text/html", headers={"Vary": "Accept-Language, Cookie"})

    async def variants(request: Request) -> Response:
        from tricky_treats.i18n import _, speaking

        language = page_language(
            request.cookies.get(LANGUAGE_COOKIE), request.headers, request.query_params.get("lang")
        )
        with speaking(language):  # the engine's catalog has the shipped variants' words
            offered = [
                {"name": v.name, "title": _(v.title), "description": _(v.description)}
                for v in tt.available_variants()
                if v.name not in HIDDEN_VARIANTS
            ]
        offline = (pyodide / "pyodide.mjs").is_file()
        defaults = lobby.defaults
        return JSONResponse(
            {
                "variants": offered,
                "bots": list(lobby.bots_on_offer()),
                "programs": list(lobby.programs.names),
                "takeovers": list(lobby.takeovers_on_offer()),
                "defaults": {
                    "clock": None if defaults.time_control is None else str(defaults.time_control),
                    "grace": defaults.grace,
                    "takeover": defaults.takeover,
                },
                "offline": offline,
            }
        )

    async def create_game(request: Request) -> Response:
        try:
            body = await _read_body(request, limits.max_request_bytes)
            answer = await lobby.create(_json_object(body), _client_of(request.scope))
        except RefusedError as exc:
            return JSONResponse({"code": exc.code, "error": str(exc)}, status_code=exc.status)
        except tt.TrickyTreatsError as exc:
            return JSONResponse({"code": "bad-request", "error": str(exc)}, status_code=400)
        except Exception:  # a bug: said in the log, and to the client in words
            log.exception("creating a game failed")
            error = {"code": "unavailable", "error": "the server failed; try again in a moment"}
            return JSONResponse(error, status_code=503)
        return JSONResponse(answer, status_code=201)

    async def wheel_index(request: Request) -> Response:
        names = sorted(wheel_files())
        return JSONResponse({"wheels": [f"/wheels/{name}" for name in names]})

    async def wheel(request: Request) -> Response:
        path = wheel_files().get(request.path_params["name"])
        if path is None:
            return JSONResponse({"error": "no such wheel"}, status_code=404)
        return FileResponse(path, media_type="application/zip")

    refuse = _refuse_socket

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            opened = lobby._open_socket(_client_of(websocket.scope), websocket)
        except RefusedError as exc:
            await refuse(websocket, exc.code, str(exc))
            return
        try:  # counted from now on, before hello
            await _greet_and_play(websocket, opened)
        except RefusedError as exc:
            if not opened.gave_way():
                await refuse(websocket, exc.code, str(exc))
        except Exception:  # a bug: said in the log, and to the client in words, never a hang
            log.exception("a socket for game %r failed", websocket.path_params.get("game"))
            await refuse(websocket, "unavailable", "the server failed; try again in a moment")
        finally:
            lobby._close_socket(opened)

    async def _greet_and_play(websocket: WebSocket, opened: _Socket) -> None:
        game_id = websocket.path_params["game"]
        async with lobby.holding(game_id, opened.client) as room:
            if room is None:
                raise RefusedError("no-game", "no such game")
            connection = await _greet(websocket, game_id, room, opened)
        if connection is None:
            return
        try:
            await lobby.seated(game_id, room, connection.who, connection)
            await _serve(game_id, room, connection)
        finally:
            connection.drop("gone")
            with contextlib.suppress(ValueError):
                room.connections.remove(connection)
            # Everyone hears that it left, even if this task is being cancelled.
            with contextlib.suppress(Exception):
                await asyncio.shield(lobby.seated(game_id, room, connection.who))

    async def _greet(
        websocket: WebSocket, game_id: str, room: Room, opened: _Socket
    ) -> Connection | None:
        """Read the hello and seat the socket at ``room``; None if the client left first."""
        try:
            text = await asyncio.wait_for(_receive_text(websocket), limits.hello_seconds)
        except TimeoutError:
            raise RefusedError("no-hello", "say hello first (in time)") from None
        if text is None or opened.gave_way():
            return None
        if len(text) > limits.max_request_bytes:
            raise RefusedError("too-large", "that hello is too large")
        hello = _json_object(text)
        if hello.get("type") != "hello":
            raise RefusedError("malformed", "say hello first")
        credential = hello.get("credential")
        if credential is not None and not isinstance(credential, str):
            credential = ""
        async with room.lock:
            if not await lobby.refresh(game_id, room):
                raise RefusedError("no-game", "no such game")
            if opened.gave_way():  # while it waited for the table
                return None
            welcome = room.table.connect(credential)
            if welcome.to == SENDER:
                raise RefusedError(welcome.message["code"], welcome.message["error"])
            same = [c for c in room.connections if c.who == welcome.to and not c.dropped]
            if welcome.to == SPECTATORS and len(same) >= limits.spectators_per_game:
                raise RefusedError(
                    "spectators-full",
                    f"this game has {limits.spectators_per_game} spectators already",
                )
            if welcome.to != SPECTATORS and len(same) >= limits.tabs_per_seat:
                # A seat always gets in: its oldest tab gives way.
                same[0].refuse("replaced", "this seat was opened in another tab")
            seat_key = credential if isinstance(welcome.to, int) else None
            connection = Connection(
                websocket, welcome.to, limits.send_queue, seat_key, client=opened.client
            )
            opened.connection = connection
            room.connections.append(connection)
            connection.offer(_with_state(welcome, room.table_state_text()).text)
            if following := lobby.next_game_message(room, connection):
                connection.offer(following)
        return connection

    async def _serve(game_id: str, room: Room, connection: Connection) -> None:
        reader = asyncio.ensure_future(_read(game_id, room, connection))
        try:
            await asyncio.wait({reader, connection.writer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            connection.writer.cancel()
        for task in (reader, connection.writer):
            failure = task.exception() if task.done() and not task.cancelled() else None
            # A socket that broke under a send or a receive is a client gone; else a bug.
            if failure and not isinstance(failure, (OSError, RuntimeError, WebSocketDisconnect)):
                log.error("a socket of game %s failed", game_id, exc_info=failure)
        if connection.dropped not in (None, "gone"):  # too slow, replaced, expired
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.websocket.close(code=1008), 1)

    async def _read(game_id: str, room: Room, connection: Connection) -> None:
        while True:
            try:
                text = await _receive_text(connection.websocket)
            except RefusedError as exc:  # a binary frame: refused, the socket stays
                connection.offer(_refusal(exc.code, str(exc)))
                continue
            if text is None or connection.dropped is not None:
                return
            if _asks_again(text):
                await _play_again(lobby, game_id, room, connection)
                continue
            # Shielded: a client that leaves mid-move does not cut its move (and the updates
            # to the others) in half.
            await asyncio.shield(lobby.move(game_id, room, text, connection))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tasks = []
        if background:
            tasks.append(asyncio.ensure_future(lobby.sweep()))
            if lobby.store is not None:
                watch = lobby.store.watch(
                    lobby.changed, lobby.resync, lobby.next_game, lobby.presence_changed
                )
                tasks.append(asyncio.ensure_future(watch))
                tasks.append(asyncio.ensure_future(lobby.keep_alive()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            lobby.programs.close()

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
    if pyodide.is_dir():
        routes.append(Mount("/pyodide", StaticFiles(directory=pyodide), name="pyodide"))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.lobby = lobby
    return app

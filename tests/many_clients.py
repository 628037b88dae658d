"""Many client addresses against the web app's fair caps, over several server processes on
one PostgreSQL database (issue 46, item 6): the scenario that ``tests/test_web_caps.py``
checks and ``benchmarks/bench_web_caps.py`` measures.

Strangers, each an IPv4 address or an IPv6 /64 (a new address of its /64 at each request),
fill every global cap through every process: unplayed games (``max_unplayed``,
``games_per_client``), rooms held by seats (``max_games``), sockets (``max_sockets``,
``sockets_per_client``) with spectators. Then honest newcomers, two a game, each seat through
another process, make a game, take their seats and move. Then every stranger asks once more
on every process. Each client is named by the trusted proxy's ``X-Forwarded-For``: the
servers must run with ``--forwarded-allow-ips 127.0.0.1`` (``Caps.options``).

What it sees is an ``Outcome``: each answer by client and kind, and every breach of a cap or
of a share it found, checked where a refusal says the share was reached (then nobody may hold
two more than the refused client). Sends nothing anywhere but the servers' addresses.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from tests.local import skip_presence

__all__ = ["Caps", "Outcome", "run", "stranger_addresses", "unplayed_by_maker"]

BOUND = 20.0
"""Seconds any one answer may take on a loaded machine; the run never waits longer."""
TWO = {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": 7}


@dataclass(frozen=True)
class Caps:
    """The caps the servers run with, the same on every process."""

    max_sockets: int
    sockets_per_client: int
    max_games: int
    max_unplayed: int
    games_per_client: int

    def options(self) -> list[str]:
        """The options of ``tricky-treats-web serve`` that set them, behind a trusted proxy."""
        return [
            "--forwarded-allow-ips",
            "127.0.0.1",
            "--max-sockets",
            str(self.max_sockets),
            "--sockets-per-client",
            str(self.sockets_per_client),
            "--max-games",
            str(self.max_games),
            "--max-unplayed",
            str(self.max_unplayed),
            "--games-per-client",
            str(self.games_per_client),
        ]


def stranger_addresses(count: int) -> list[Callable[[int], str]]:
    """``count`` clients, half IPv4 addresses, half IPv6 /64s: each gives the address of its
    n-th request (an IPv6 client takes a new address of its /64 each time)."""

    def client(i: int) -> Callable[[int], str]:
        def address(n: int) -> str:
            if i % 2:
                return f"2001:db8:{i:x}:{i:x}::{n + 1:x}"
            return f"198.51.{100 + i // 250}.{i % 250 + 1}"

        return address

    return [client(i) for i in range(count)]


def unplayed_by_maker(url: str) -> dict[str, int]:
    """The unplayed games each maker holds in the PostgreSQL store at ``url``."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT coalesce(maker, ''), count(*) FROM tricky_treats_games "
            "WHERE NOT moved AND NOT over GROUP BY maker"
        ).fetchall()
    return {maker: int(count) for maker, count in rows}


def _played(url: str, game: str) -> bool:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT moved FROM tricky_treats_games WHERE game_id = %s", (game,)
        ).fetchone()
    return bool(row and row[0])


@dataclass(eq=False)
class _Socket:
    """One of the run's sockets: whose, through which process, for which game and seat."""

    client: str
    process: int
    game: str
    seat: int | None
    ws: ClientConnection
    messages: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    reader: asyncio.Task[None] | None = None
    closed: bool = False
    """The server closed it (it may have closed meanwhile, unseen yet)."""


@dataclass(frozen=True)
class _State:
    """What each client holds on a process, as the run's sockets show."""

    sockets: collections.Counter[str]
    seated: collections.Counter[str]
    """The rooms each client's seats are in."""
    rooms: int
    watched_only: bool
    """Some room is held by spectators alone."""

    def most(self, kind: str) -> int:
        counter = self.sockets if kind == "sockets" else self.seated
        return max(counter.values(), default=0)


@dataclass
class Outcome:
    """What a run saw."""

    addresses: int = 0
    """Distinct addresses the clients sent from."""
    answers: dict[str, collections.Counter[str]] = field(default_factory=dict)
    """Per kind of request (``new game``, ``seat``, ``spectator``, ``again: ...``): the count
    of each answer (``made``/``in``, or the refusal's code)."""
    made: collections.Counter[str] = field(default_factory=collections.Counter)
    """Games made per stranger."""
    refused: collections.Counter[str] = field(default_factory=collections.Counter)
    """New games refused per stranger."""
    newcomers_served: int = 0
    newcomers: int = 0
    newcomer_waits: list[float] = field(default_factory=list)
    """Seconds from a newcomer pair's new game to both seats having moved."""
    peak: dict[str, int] = field(default_factory=dict)
    """The most any one client held at the end: sockets and rooms on a process, unplayed."""
    breaches: list[str] = field(default_factory=list)
    """Every cap or share found broken (empty when all held)."""
    seconds: float = 0.0

    def count(self, kind: str, answer: str) -> None:
        self.answers.setdefault(kind, collections.Counter())[answer] += 1


def _post(base: str, address: str) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"http://{base}/api/games",
        data=json.dumps(TWO).encode(),
        method="POST",
        headers={"Content-Type": "text/json", "X-Forwarded-For": address},
    )
    try:
        with urllib.request.urlopen(request, timeout=BOUND) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


class _Run:
    def __init__(
        self,
        bases: Sequence[str],
        caps: Caps,
        held: Callable[[], dict[str, int]],
        key: Callable[[str], str],
    ) -> None:
        self.bases = bases
        self.caps = caps
        self.held = held
        self.key = key
        self.sockets: list[_Socket] = []
        self.outcome = Outcome()
        self.addresses: set[str] = set()
        self.seats_of: dict[str, list[tuple[str, str]]] = {}
        """Each stranger's games and its seat's key in them."""

    # -- requests ----------------------------------------------------------------------------

    async def new_game(self, process: int, address: str) -> tuple[int, dict[str, Any]]:
        self.addresses.add(address)
        return await asyncio.to_thread(_post, self.bases[process], address)

    async def connect(
        self, process: int, address: str, game: str, credential: str | None, seat: int | None
    ) -> tuple[_Socket | None, dict[str, Any]]:
        """A socket for ``game`` that says hello: it and the answer (None: refused)."""
        self.addresses.add(address)
        try:
            ws = await connect(
                f"ws://{self.bases[process]}/ws/{game}",
                additional_headers={"X-Forwarded-For": address},
                open_timeout=BOUND,
            )
        except WebSocketException as exc:  # refused during the handshake: none here
            return None, {"type": "error", "code": f"handshake: {exc}"}
        sock = _Socket(self.key(address), process, game, seat, ws)
        sock.reader = asyncio.create_task(self._read(sock))
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps({"type": "hello", "credential": credential}))
        answer = await asyncio.wait_for(sock.messages.get(), BOUND)
        if answer.get("type") == "update":
            self.sockets.append(sock)
            return sock, answer
        await ws.close()
        return None, answer

    async def _read(self, sock: _Socket) -> None:
        try:
            async for text in sock.ws:
                message = json.loads(text)
                if not skip_presence(message):
                    sock.messages.put_nowait(message)
        except ConnectionClosed:
            pass
        sock.closed = True
        sock.messages.put_nowait({"type": "closed", "code": "closed"})

    async def live(self, process: int) -> list[_Socket]:
        """This run's sockets open on ``process`` now: each answers a ping, or is closed."""

        async def alive(sock: _Socket) -> bool:
            try:
                await asyncio.wait_for(await sock.ws.ping(), BOUND)
            except ConnectionClosed:
                return False
            return True

        mine = [s for s in self.sockets if s.process == process]
        answers = await asyncio.gather(*(alive(s) for s in mine))
        return [s for s, up in zip(mine, answers, strict=True) if up]

    # -- the checks --------------------------------------------------------------------------

    def breach(self, text: str) -> None:
        self.outcome.breaches.append(text)

    def check_unplayed(self, refused: str | None, code: str | None) -> dict[str, int]:
        """The store's unplayed games within their caps; after a refusal, its share."""
        held = self.held()
        caps = self.caps
        if sum(held.values()) > caps.max_unplayed:
            self.breach(f"{sum(held.values())} unplayed games, over {caps.max_unplayed}")
        for maker, count in held.items():
            if count > caps.games_per_client:
                self.breach(f"{maker} holds {count} unplayed games, over its quota")
        if refused is not None and code == "busy" and max(held.values()) > held.get(refused, 0) + 1:
            self.breach(f"{refused} refused busy holding {held.get(refused, 0)}: others hold more")
        full = held.get(refused or "", 0) >= caps.games_per_client
        if refused is not None and code == "too-many-games" and not full:
            self.breach(f"{refused} refused too-many-games below its quota")
        return held

    async def state(self, process: int) -> _State:
        """What each client holds on ``process`` now, as its sockets show."""
        live = await self.live(process)
        seated = {(s.client, s.game) for s in live if s.seat is not None}
        seat_games = {game for _, game in seated}
        return _State(
            collections.Counter(s.client for s in live),
            collections.Counter(client for client, _ in seated),
            len(seat_games | {s.game for s in live}),
            bool({s.game for s in live if s.seat is None} - seat_games),
        )

    async def check_process(self, process: int, refused: str | None, why: str) -> None:
        """Process ``process``'s sockets and rooms within their caps; after a refusal of
        ``refused`` for ``why`` (``sockets`` or ``rooms``), nobody holds two more than it,
        and (rooms) no room is held by spectators alone."""
        now = await self.state(process)
        caps = self.caps
        where = f"process {process}"
        if now.sockets.total() > caps.max_sockets:
            self.breach(f"{where} holds {now.sockets.total()} sockets, over {caps.max_sockets}")
        if now.sockets and max(now.sockets.values()) > caps.sockets_per_client:
            self.breach(f"{where}: a client holds {max(now.sockets.values())} sockets, over quota")
        if now.rooms > caps.max_games:
            self.breach(f"{where} holds {now.rooms} rooms, over {caps.max_games}")
        if (
            why == "sockets"
            and refused is not None
            and now.most("sockets") > now.sockets[refused] + 1
        ):
            self.breach(
                f"{where} refused {refused} a socket holding {now.sockets[refused]} while "
                f"another holds {now.most('sockets')}"
            )
        if why == "rooms" and refused is not None:
            if now.most("seated") > now.seated[refused] + 1:
                self.breach(
                    f"{where} refused {refused} a room holding {now.seated[refused]} while "
                    f"another holds {now.most('seated')}"
                )
            if now.watched_only:
                self.breach(f"{where} refused a room while spectators alone hold one")
        for name, kind in (("sockets", "sockets"), ("rooms", "seated")):
            self.outcome.peak[name] = max(self.outcome.peak.get(name, 0), now.most(kind))

    def check_admitted(self, before: _State, client: str, where: str) -> None:
        """``client`` got a socket (and a room, for a seat) on a full process: it held less
        than its share there, and below its quota."""
        caps = self.caps
        if before.sockets[client] >= caps.sockets_per_client:
            self.breach(f"{where}: {client} got a socket past its quota")
        full = before.sockets.total() >= caps.max_sockets
        if full and before.most("sockets") < before.sockets[client] + 2:
            self.breach(f"{where}: {client} took a socket holding its share")

    def check_seated(self, before: _State, client: str, where: str) -> None:
        full = before.rooms >= self.caps.max_games and not before.watched_only
        if full and before.most("seated") < before.seated[client] + 2:
            self.breach(f"{where}: {client}'s seat took a room holding its share")

    async def answered(self, kind: str, process: int, client: str, answer: dict[str, Any]) -> None:
        """Count a socket's answer, and check the share where a refusal says it was reached."""
        code = "in" if answer.get("type") == "update" else str(answer.get("code"))
        if code == "server-full":
            # The same code for a room and for a socket: the words tell which.
            rooms = "games" in str(answer.get("error", ""))
            self.outcome.count(kind, f"server-full ({'rooms' if rooms else 'sockets'})")
            await self.check_process(process, client, "rooms" if rooms else "sockets")
            return
        self.outcome.count(kind, code)
        if code == "too-many-sockets":
            await self.check_process(process, client, "")

    # -- the phases --------------------------------------------------------------------------

    async def strangers_flood(
        self, strangers: Sequence[Callable[[int], str]]
    ) -> dict[str, list[dict[str, Any]]]:
        """Every stranger makes games to past its quota, then seats itself in them and watches
        games to past its sockets, through every process."""
        processes = len(self.bases)
        made: dict[str, list[dict[str, Any]]] = {}
        requests: collections.Counter[str] = collections.Counter()

        def address(stranger: Callable[[int], str]) -> str:
            client = self.key(stranger(0))
            requests[client] += 1
            return stranger(requests[client])

        for attempt in range(self.caps.games_per_client + 1):
            for i, stranger in enumerate(strangers):
                client = self.key(stranger(0))
                status, answer = await self.new_game((i + attempt) % processes, address(stranger))
                if status == 201:
                    made.setdefault(client, []).append(answer)
                    self.seats_of.setdefault(client, []).append(
                        (answer["game"], seat_keys(answer)[0])
                    )
                    self.outcome.made[client] += 1
                    self.outcome.count("new game", "made")
                else:
                    self.outcome.refused[client] += 1
                    self.outcome.count("new game", str(answer.get("code")))
                    self.check_unplayed(client, answer.get("code"))
        # Seats: each stranger in each of its games, over the processes in turn.
        for i, stranger in enumerate(strangers):
            client = self.key(stranger(0))
            for j, answer in enumerate(made.get(client, [])):
                process = (i + j) % processes
                _, hello = await self.connect(
                    process, address(stranger), answer["game"], seat_keys(answer)[0], 0
                )
                await self.answered("seat", process, client, hello)
        # Spectators: to past each stranger's sockets on each process, each watching a game
        # another stranger is seated in there, or else any stranger's game.
        games = [answer["game"] for answers in made.values() for answer in answers]
        for process in range(processes):
            for i, stranger in enumerate(strangers):
                client = self.key(stranger(0))
                for n in range(self.caps.sockets_per_client + 1):
                    seats_here = [
                        s.game
                        for s in self.sockets
                        if s.process == process
                        and s.seat is not None
                        and s.client != client
                        and not s.closed
                    ]
                    pool = seats_here if n % 2 == 0 and seats_here else games
                    if not pool:
                        break
                    game = pool[(i + n) % len(pool)]
                    _, hello = await self.connect(process, address(stranger), game, None, None)
                    await self.answered("spectator", process, client, hello)
        return made

    async def newcomers_make(
        self, pairs: Sequence[tuple[str, str]]
    ) -> list[tuple[int, dict[str, Any], float]]:
        """Each pair's maker makes a game, through the processes in turn."""
        made = []
        for k, (maker, _) in enumerate(pairs):
            began = time.monotonic()
            status, answer = await self.new_game(k % len(self.bases), maker)
            self.outcome.count("newcomer's new game", "made" if status == 201 else answer["code"])
            if status == 201:
                made.append((k, answer, began))
            else:
                self.breach(f"newcomer {maker} refused a new game: {answer}")
        return made

    async def newcomers_play(
        self,
        pairs: Sequence[tuple[str, str]],
        made: Sequence[tuple[int, dict[str, Any], float]],
        played: Callable[[str], bool],
    ) -> None:
        """Each pair's seats get in, one through the maker's process, one through the next,
        and both move: the game is played."""
        self.outcome.newcomers = 2 * len(pairs)
        for k, answer, began in made:
            seats: list[tuple[_Socket, dict[str, Any]]] = []
            for seat, address in enumerate(pairs[k]):
                process = (k + seat) % len(self.bases)
                key = seat_keys(answer)[seat]
                sock, hello = await self.connect(process, address, answer["game"], key, seat)
                self.outcome.count("newcomer's seat", "in" if sock else str(hello.get("code")))
                if sock is None:
                    self.breach(f"newcomer {address}'s seat refused: {hello}")
                else:
                    seats.append((sock, hello))
            if len(seats) < 2:
                continue
            moved = await _both_move(seats, seat_keys(answer))
            if moved and await asyncio.to_thread(played, answer["game"]):
                self.outcome.newcomers_served += 2
                self.outcome.newcomer_waits.append(time.monotonic() - began)
            else:
                self.breach(f"the newcomers' game {answer['game']} is not played")

    async def strangers_again(self, strangers: Sequence[Callable[[int], str]], kind: str) -> None:
        """Every stranger asks once more on every process: a new game (``kind`` ``games``),
        or a spectator's socket and a seat's (``sockets``). Refused unless it held less than
        its share (nobody may take what the newcomers were given, checked at the end)."""
        for process in range(len(self.bases)):
            where = f"process {process}"
            for i, stranger in enumerate(strangers):
                client = self.key(stranger(0))
                address = stranger(1000 + process)
                if kind == "games":
                    held = self.held()
                    status, answer = await self.new_game(process, address)
                    code = "made" if status == 201 else str(answer.get("code"))
                    self.outcome.count("again: new game", code)
                    if status != 201:
                        self.check_unplayed(client, code)
                    elif held.get(client, 0) >= self.caps.games_per_client or (
                        sum(held.values()) >= self.caps.max_unplayed
                        and max(held.values()) < held.get(client, 0) + 2
                    ):
                        self.breach(f"{where}: {client} made a game holding its share")
                    continue
                before = await self.state(process)
                watched = sorted({s.game for s in self.sockets if s.process == process})
                if watched:
                    game = watched[i % len(watched)]
                    sock, hello = await self.connect(process, address, game, None, None)
                    await self.answered("again: spectator", process, client, hello)
                    if sock is not None:
                        self.check_admitted(before, client, where)
                mine = {s.game for s in await self.live(process) if s.client == client}
                away = [seat for seat in self.seats_of.get(client, []) if seat[0] not in mine]
                if away:
                    before = await self.state(process)
                    sock, hello = await self.connect(process, address, *away[0], 0)
                    await self.answered("again: seat", process, client, hello)
                    if sock is not None:
                        self.check_admitted(before, client, where)
                        self.check_seated(before, client, where)


async def _both_move(seats: Sequence[tuple[_Socket, dict[str, Any]]], keys: Sequence[str]) -> bool:
    """Play until each of the two seats has moved once: False if the game stops first."""
    latest = [hello for _, hello in seats]
    moved = [False, False]
    for _ in range(8):
        if all(moved):
            return True
        turn = next((i for i, update in enumerate(latest) if update.get("your_turn")), None)
        if turn is None:
            return False
        action = latest[turn]["legal_actions"][0]["action"]
        move = {"type": "move", "credential": keys[turn], "action": action}
        await seats[turn][0].ws.send(json.dumps(move))
        moved[turn] = True
        for i, (sock, _) in enumerate(seats):
            latest[i] = await asyncio.wait_for(sock.messages.get(), BOUND)
            if latest[i].get("type") != "update":
                return False
    return all(moved)


def seat_keys(answer: dict[str, Any]) -> list[str]:
    """The seats' keys of a new game's answer, from their links."""
    return [s["link"].split("#", 1)[1] for s in answer["seats"] if s["link"]]


async def _run(
    bases: Sequence[str],
    caps: Caps,
    strangers: Sequence[Callable[[int], str]],
    pairs: Sequence[tuple[str, str]],
    held: Callable[[], dict[str, int]],
    played: Callable[[str], bool],
    key: Callable[[str], str],
) -> Outcome:
    run = _Run(bases, caps, held, key)
    began = time.monotonic()
    try:
        await run.strangers_flood(strangers)
        made = await run.newcomers_make(pairs)
        await run.strangers_again(strangers, "games")
        await run.newcomers_play(pairs, made, played)
        await run.strangers_again(strangers, "sockets")
        for process in range(len(bases)):
            await run.check_process(process, None, "")
        newcomers = {key(address) for pair in pairs for address in pair}
        for process in range(len(bases)):
            live = await run.live(process)
            for sock in run.sockets:
                if sock.process == process and sock.client in newcomers and sock not in live:
                    run.breach(f"a newcomer's seat {sock.client} lost its socket")
        final = run.check_unplayed(None, None)
        run.outcome.peak["unplayed"] = max(final.values(), default=0)
    finally:
        for sock in run.sockets:
            await sock.ws.close()
            if sock.reader is not None:
                await sock.reader
    run.outcome.seconds = time.monotonic() - began
    run.outcome.addresses = len(run.addresses)
    return run.outcome


def run(
    bases: Sequence[str],
    caps: Caps,
    strangers: Sequence[Callable[[int], str]],
    pairs: Sequence[tuple[str, str]],
    store_url: str,
    key: Callable[[str], str],
    deadline: float = 120.0,
) -> Outcome:
    """The scenario against the servers at ``bases`` (``host:port``, each started with
    ``caps.options()`` on the PostgreSQL store ``store_url``); ``key`` is the app's
    ``client_key``. Bounded by ``deadline`` seconds in all."""

    def held() -> dict[str, int]:
        return unplayed_by_maker(store_url)

    def played(game: str) -> bool:
        return _played(store_url, game)

    main = _run(bases, caps, strangers, pairs, held, played, key)
    return asyncio.run(asyncio.wait_for(main, deadline))

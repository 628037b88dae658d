"""Each client's share of a process's global caps (issue 46, item 6): a few strangers at
their per-client limits cannot turn an honest newcomer away.

A real server (``tricky-treats-web serve``) on 127.0.0.1 that trusts the test's
``X-Forwarded-For``, so that each socket names the client it comes from.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.requirements import WEB_APP_HINT, install_hint

pytest.importorskip("websockets", reason=install_hint("webtest"))
pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)

from tricky_treats_web.app import client_key
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests import many_clients
from tests.local import next_message
from tests.test_web_crash import Server
from tests.test_web_hosting import TWO, _keys, _post_as

BOUND = 20.0
"""Seconds any one answer may take on a loaded machine; the test never waits longer."""


async def _socket(url: str, address: str) -> ClientConnection:
    return await connect(url, additional_headers={"X-Forwarded-For": address}, open_timeout=BOUND)


async def _hello(ws: ClientConnection, key: str | None) -> dict[str, Any]:
    """The answer to a hello; a refusal that closed the socket first is the answer too."""
    with contextlib.suppress(ConnectionClosed):
        await ws.send(json.dumps({"type": "hello", "credential": key}))
    return await next_message(ws, BOUND)


async def _refused(url: str, address: str) -> str:
    """The code a new socket of ``address`` is refused with at once."""
    async with await _socket(url, address) as ws:
        code: str = (await next_message(ws, BOUND))["code"]
        return code


def test_strangers_filling_the_sockets_of_a_process_make_way_for_newcomers(
    tmp_path: Path,
) -> None:
    """Issue 46, item 6: ``max_sockets / sockets_per_client`` clients filled a process and
    every newcomer got ``server-full``. With ``max_sockets`` 8 and 4 per client, two strangers
    fill it (one with sockets waiting before their hello, one with spectators); each
    newcomer's socket takes the place of the oldest socket of whoever holds the most, and the
    strangers cannot take the room back once nobody holds two more than they do."""
    server = Server(
        tmp_path / "tables.sqlite3",
        tmp_path / "server.log",
        ("--forwarded-allow-ips", "127.0.0.1", "--max-sockets", "8", "--sockets-per-client", "4"),
    )
    newcomer, friend = "203.0.113.1", "2001:db8:7::1"
    waiting_stranger, watching_stranger = "198.51.100.1", "198.51.100.2"

    async def main() -> None:
        await server.start()
        status, answer = await asyncio.to_thread(
            _post_as, f"http://{server.url}/api/games", newcomer, TWO
        )
        assert status == 201, answer
        url = f"ws://{server.url}/ws/{answer['game']}"
        keys = _keys(answer)
        # The first stranger's sockets wait before their hello; the second's watch.
        waiting = [await _socket(url, waiting_stranger) for _ in range(4)]
        assert await _refused(url, waiting_stranger) == "too-many-sockets"
        watching = [await _socket(url, watching_stranger) for _ in range(4)]
        newcomers: list[ClientConnection] = []
        try:
            for ws in watching:
                assert (await _hello(ws, None))["type"] == "update"
            # Full: the newcomer's seat gets in, the oldest socket of the first biggest
            # holder (a tie: the one connected first) is told why and closed.
            ann = await _socket(url, newcomer)
            newcomers.append(ann)
            seated = await _hello(ann, keys[0])
            assert seated["type"] == "update", seated
            assert seated["your_turn"]
            made_way = await next_message(waiting[0], BOUND)
            assert made_way["code"] == "server-full"
            assert "another player" in made_way["error"]
            for ws in waiting[1:]:
                assert (await _hello(ws, None))["type"] == "update"
            # 3 + 4 + 1: the first stranger holds less than two more than anyone, the second
            # is at its quota: neither gets the room back.
            assert await _refused(url, waiting_stranger) == "server-full"
            assert await _refused(url, watching_stranger) == "too-many-sockets"
            # A second newcomer takes a watcher's place: now the second stranger held most.
            bo = await _socket(url, friend)
            newcomers.append(bo)
            assert (await next_message(watching[0], BOUND))["code"] == "server-full"
            assert (await _hello(bo, keys[1]))["type"] == "update"
            # 3 + 3 + 1 + 1: everyone holds their share, and a stranger is refused.
            for stranger in (waiting_stranger, watching_stranger):
                assert await _refused(url, stranger) == "server-full"
            # The newcomers play on.
            action = seated["legal_actions"][0]["action"]
            await ann.send(json.dumps({"type": "move", "credential": keys[0], "action": action}))
            assert (await next_message(ann, BOUND))["type"] == "update"
            assert (await next_message(bo, BOUND))["type"] == "update"
        finally:
            for ws in (*waiting, *watching, *newcomers):
                await ws.close()

    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    assert "Traceback" not in text, text


def test_strangers_holding_every_room_of_a_process_make_way_for_newcomers(
    tmp_path: Path,
) -> None:
    """Issue 46, item 6: the rooms held by seats' sockets were not shared out, so a few
    clients seated in games of their own held every room (``max_games``) and a newcomer's new
    game got 503 ``server-full``. With ``max_games`` 4, two strangers hold two rooms each; a
    newcomer's game takes the room of the game used longest ago of whoever holds the most
    (its seat is told ``server-full``), and the strangers cannot take it back."""
    server = Server(
        tmp_path / "tables.sqlite3",
        tmp_path / "server.log",
        ("--forwarded-allow-ips", "127.0.0.1", "--max-games", "4"),
    )
    newcomer, friend = "203.0.113.1", "2001:db8:7::1"
    strangers = ("198.51.100.1", "198.51.100.2")

    async def main() -> None:
        await server.start()
        games = f"http://{server.url}/api/games"

        async def new_game(address: str) -> tuple[int, dict[str, Any]]:
            return await asyncio.to_thread(_post_as, games, address, TWO)

        seats: dict[str, list[tuple[str, str, ClientConnection]]] = {}
        try:
            for address in strangers:
                for _ in range(2):
                    status, answer = await new_game(address)
                    assert status == 201, answer
                    ws = await _socket(f"ws://{server.url}/ws/{answer['game']}", address)
                    seats.setdefault(address, []).append((answer["game"], _keys(answer)[0], ws))
                    assert (await _hello(ws, _keys(answer)[0]))["type"] == "update"
            # Every room is held by a seat. The newcomer's game takes the room of the first
            # stranger's first game (a tie: the one used longest ago).
            status, answer = await new_game(newcomer)
            assert status == 201, answer
            game, key, ws = seats[strangers[0]][0]
            made_way = await next_message(ws, BOUND)
            assert made_way["code"] == "server-full"
            assert "another player" in made_way["error"]
            ann = await _socket(f"ws://{server.url}/ws/{answer['game']}", newcomer)
            seats[newcomer] = [(answer["game"], _keys(answer)[0], ann)]
            seated = await _hello(ann, _keys(answer)[0])
            assert seated["type"] == "update", seated
            assert seated["your_turn"]
            # 1 + 2 + 1: the first stranger's seat cannot take its room back, the second
            # stranger cannot make a game of a third.
            async with await _socket(f"ws://{server.url}/ws/{game}", strangers[0]) as back:
                assert (await _hello(back, key))["code"] == "server-full"
            status, refused = await new_game(strangers[1])
            assert (status, refused["code"]) == (503, "server-full")
            # A second newcomer takes a room of the second stranger, who held the most.
            status, second = await new_game(friend)
            assert status == 201, second
            assert (await next_message(seats[strangers[1]][0][2], BOUND))["code"] == "server-full"
            bo = await _socket(f"ws://{server.url}/ws/{second['game']}", friend)
            seats[friend] = [(second["game"], _keys(second)[0], bo)]
            assert (await _hello(bo, _keys(second)[0]))["your_turn"]
            # 1 + 1 + 1 + 1, every room held by a seat: nobody holds two more than another.
            for stranger in strangers:
                status, refused = await new_game(stranger)
                assert (status, refused["code"]) == (503, "server-full")
            # The newcomer's game plays on.
            action = seated["legal_actions"][0]["action"]
            move = {"type": "move", "credential": _keys(answer)[0], "action": action}
            await ann.send(json.dumps(move))
            assert (await next_message(ann, BOUND))["type"] == "update"
        finally:
            for held in seats.values():
                for _, _, ws in held:
                    await ws.close()

    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    assert "Traceback" not in text, text


def test_a_player_seated_in_a_strangers_game_keeps_its_room(tmp_path: Path) -> None:
    """A room goes only if every client seated in it holds two more rooms than the newcomer:
    the stranger's game that an honest player sits in stays, though it was used longest ago;
    the stranger's next one goes."""
    server = Server(
        tmp_path / "tables.sqlite3",
        tmp_path / "server.log",
        ("--forwarded-allow-ips", "127.0.0.1", "--max-games", "3"),
    )
    stranger, player, newcomer = "198.51.100.1", "192.0.2.9", "203.0.113.1"

    async def main() -> None:
        await server.start()
        games = f"http://{server.url}/api/games"
        sockets: list[ClientConnection] = []

        async def seat(answer: dict[str, Any], address: str, index: int) -> dict[str, Any]:
            ws = await _socket(f"ws://{server.url}/ws/{answer['game']}", address)
            sockets.append(ws)
            seated = await _hello(ws, _keys(answer)[index])
            assert seated["type"] == "update", seated
            return seated

        try:
            made = []
            for _ in range(3):
                status, answer = await asyncio.to_thread(_post_as, games, stranger, TWO)
                assert status == 201, answer
                made.append(answer)
            # The oldest game: the stranger and a player; the two others: the stranger alone.
            oldest = await seat(made[0], stranger, 0)
            await seat(made[0], player, 1)
            for answer in made[1:]:
                await seat(answer, stranger, 0)
            status, answer = await asyncio.to_thread(_post_as, games, newcomer, TWO)
            assert status == 201, answer
            assert (await next_message(sockets[2], BOUND))["code"] == "server-full"
            # The shared game plays on: the player hears the stranger's move.
            action = oldest["legal_actions"][0]["action"]
            move = {"type": "move", "credential": _keys(made[0])[0], "action": action}
            await sockets[0].send(json.dumps(move))
            assert (await next_message(sockets[0], BOUND))["type"] == "update"
            assert (await next_message(sockets[1], BOUND))["type"] == "update"
        finally:
            for ws in sockets:
                await ws.close()

    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    assert "Traceback" not in text, text


def test_many_addresses_across_two_processes_on_postgresql_hold_every_cap_and_share(
    tmp_path: Path, postgres_url: str
) -> None:
    """Issue 46, item 6, across processes: 8 strangers (4 IPv4 addresses, 4 IPv6 /64s, each
    request from another address of its /64) fill every cap through two processes on one
    PostgreSQL: unplayed games (``max_unplayed`` 44 over both, 6 per client), the rooms of
    each process (``max_games`` 16) with their seats, its sockets (``max_sockets`` 24, 5 per
    client) with spectators. No cap is passed; wherever a stranger is refused at its share,
    nobody holds two more than it (and no room is held by spectators alone); wherever it
    gets in on a full process, someone held two more. Two pairs of honest newcomers then each
    make a game, take its seats through both processes and move in it: the game counts as
    played. Every stranger then asks once more, on each process, for a game, a socket, a
    room; the newcomers keep their seats."""
    caps = many_clients.Caps(
        max_sockets=24, sockets_per_client=5, max_games=16, max_unplayed=44, games_per_client=6
    )
    servers = [Server(postgres_url, tmp_path / f"{i}.log", caps.options()) for i in range(2)]
    strangers = many_clients.stranger_addresses(8)
    pairs = [("203.0.113.1", "2001:db8:aa::1"), ("203.0.113.2", "2001:db8:bb::1")]

    async def start() -> None:
        for server in servers:
            await server.start()

    try:
        asyncio.run(start())
        outcome = many_clients.run(
            [server.url for server in servers], caps, strangers, pairs, postgres_url, client_key
        )
    finally:
        for server in servers:
            server.stop()
    print("many addresses over two processes:", outcome)
    assert outcome.breaches == []
    assert outcome.newcomers_served == outcome.newcomers == 4
    # The strangers reached every cap: each refusal was seen.
    seen = {code for counter in outcome.answers.values() for code in counter}
    assert seen >= {"too-many-games", "busy", "too-many-sockets"}
    assert seen >= {"server-full (rooms)", "server-full (sockets)"}
    assert outcome.peak["unplayed"] <= caps.games_per_client
    for i in range(2):
        text = (tmp_path / f"{i}.log").read_text()
        assert "Traceback" not in text, text


def test_a_seat_whose_socket_made_way_leaves_its_room_to_the_newcomer(tmp_path: Path) -> None:
    """Found by the many-address run (``benchmarks/bench_web_caps.py``): a newcomer's socket
    that took the place of a stranger's seat socket (the sockets' share) was then refused a
    room (``server-full``), because that seat still counted in its room until its socket's
    task ended. Now the seat that made way holds no room at once: its room, watched by the
    stranger's spectators alone, goes to the newcomer's seat."""
    server = Server(
        tmp_path / "tables.sqlite3",
        tmp_path / "server.log",
        ("--forwarded-allow-ips", "127.0.0.1", "--max-sockets", "4", "--max-games", "2"),
    )
    stranger, other, newcomer = "198.51.100.1", "198.51.100.2", "203.0.113.1"

    async def main() -> None:
        await server.start()
        games = f"http://{server.url}/api/games"
        made = []
        for address in (stranger, other, newcomer):
            status, answer = await asyncio.to_thread(_post_as, games, address, TWO)
            assert status == 201, answer
            made.append(answer)
        url = [f"ws://{server.url}/ws/{answer['game']}" for answer in made]
        sockets: list[ClientConnection] = []
        try:
            # Both rooms held by seats; every socket taken, three of them the stranger's.
            for i, address in enumerate((stranger, other)):
                sockets.append(await _socket(url[i], address))
                assert (await _hello(sockets[-1], _keys(made[i])[0]))["type"] == "update"
            for _ in range(2):
                sockets.append(await _socket(url[0], stranger))
                assert (await _hello(sockets[-1], None))["type"] == "update"
            # The newcomer's seat takes the stranger's oldest socket (its seat), and the room
            # that seat held, watched by the stranger alone now.
            ann = await _socket(url[2], newcomer)
            sockets.append(ann)
            seated = await _hello(ann, _keys(made[2])[0])
            assert seated["type"] == "update", seated
            assert (await next_message(sockets[0], BOUND))["code"] == "server-full"
            for watcher in sockets[2:4]:
                told = await next_message(watcher, BOUND)
                assert told["code"] == "server-full"
                assert "players" in told["error"]
        finally:
            for ws in sockets:
                await ws.close()

    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    assert "Traceback" not in text, text

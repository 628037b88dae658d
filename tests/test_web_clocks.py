"""Every game finishes (issue 47): presence, clocks and takeover at the web table, and bot
programs seated by the web host.

- Presence: every seat and spectator hears who is connected and since when a seat is away.
- Clocks: a time per turn or a bank with an increment, counted from the times stored with
  each move; a seat out of time (and its grace) is played by the takeover bot.
- Takeover: a seat away for the grace is played by the table's bot, every such move says so
  (``played_by``), and its player takes the seat back by coming back with their link.
- Programs: the operator allows a bot program by name (``--allow-exec-bot``); a table seats
  it, or names it as its takeover bot; a program that misbehaves loses its moves to the
  greedy bot and never harms the host.

The servers run on 127.0.0.1 (uvicorn in a thread, or ``tricky-treats-web serve`` in a
subprocess for the ``kill -9`` tests, on SQLite and on two processes sharing PostgreSQL).
Clocks here are of a second or a few; every wait is bounded. Needs the web app
(``pip install -e 'examples/web[postgresql]'``) and the ``[webtest]`` extra; the PostgreSQL
test needs Debian's ``postgresql`` (``.ci/run`` installs all of them).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.requirements import WEB_APP_HINT, install_hint

pytest.importorskip("websockets", reason=install_hint("webtest"))
pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)

from tricky_treats_web import Lobby, create_app
from tricky_treats_web.app import TableDefaults
from tricky_treats_web.clocks import Clock, TablePolicy, TimeControl, turn_ended
from tricky_treats_web.programs import Programs, allowed_program
from websockets.asyncio.client import ClientConnection, connect

import tricky_treats as tt
from tests.local import post_json, serving
from tests.test_web_crash import Server
from tricky_treats.bot_protocol import BotLimits

ROOT = Path(__file__).resolve().parents[1]
PYTHON_BOT = ROOT / "examples" / "bots" / "python_bot.py"
HOSTILE = Path(__file__).resolve().with_name("hostile_bot.py")
SEED = 4_611_686_018_427_387_000 + 4747
WAIT = 30.0
"""The most any message is waited for: a bound on a loaded machine, not a timing check."""
LATE = 1.5
"""How far a clock a client reads may be from the stored times it is computed from: the
time the message took to arrive, on a loaded machine."""

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="bot programs run on Linux only"
)


# -- time controls and clocks, on their own ----------------------------------------------------


def test_time_controls_read_and_write_their_text() -> None:
    assert TimeControl.parse("move:30") == TimeControl("move", 30.0)
    assert TimeControl.parse(" bank:300+5 ") == TimeControl("bank", 300.0, 5.0)
    assert TimeControl.parse("bank:1.5") == TimeControl("bank", 1.5)
    for text in ("move:30", "bank:300+5", "bank:2.5+0.5"):
        assert str(TimeControl.parse(text)) == text
    for bad in ("move", "move:0", "move:-3", "bank:5+x", "chess:5", "move:30+5", "move:1e9", 5):
        with pytest.raises(tt.ConfigurationError, match=r"time control|increment|seconds"):
            TimeControl.parse(bad)  # type: ignore[arg-type]


def test_a_bank_pays_what_each_turn_took_and_gets_its_increment() -> None:
    bank = TimeControl("bank", 10.0, 2.0)
    clock = Clock(100.0, (10.0, 10.0))
    assert clock.running_left(0, 103.5) == 6.5
    after = clock.after_turn(bank, 0, 103.5)
    assert after == Clock(103.5, (8.5, 10.0))  # 10 - 3.5 + 2
    # Out of time (the bot played after the grace): nothing left but the increment.
    assert after.after_turn(bank, 1, 120.0) == Clock(120.0, (8.5, 2.0))
    # A time per turn: each turn has the whole time again; a bot's turn pays nothing.
    per_move = TimeControl("move", 10.0)
    assert clock.after_turn(per_move, 1, 109.0) == Clock(109.0, (10.0, 10.0))
    assert clock.after_turn(bank, None, 109.0) == Clock(109.0, (10.0, 10.0))


def test_a_refresh_is_no_turn_and_a_move_answered_by_bots_ends_one() -> None:
    # Rule P5: after a refresh the same seat acts again, in the same turn.
    assert not turn_ended(0, 1, 0)
    assert turn_ended(0, 1, 1)
    assert turn_ended(0, 3, 0)  # its move and the bots' answers: a new turn of its own
    assert turn_ended(0, 1, None)  # the last move


def test_a_policy_is_stored_as_text_and_damage_is_a_record_error() -> None:
    policy = TablePolicy(TimeControl("bank", 60.0, 3.0), 20.0, "search", 1234.5)
    assert TablePolicy.from_json(policy.to_json()) == policy
    assert policy.start(3) == Clock(1234.5, (60.0, 60.0, 60.0))
    assert TablePolicy(None, 5.0, "greedy", 0.0).start(2) is None
    for bad in ("{", '{"grace": 5}', policy.to_json().replace("bank:60+3", "bank:zero")):
        with pytest.raises(tt.RecordError, match="policy"):
            TablePolicy.from_json(bad)
    with pytest.raises(tt.RecordError, match="clock"):
        Clock.from_json('{"at": 1, "left": [1, 2]}', 3)


# -- a server in a thread, and its clients -----------------------------------------------------


@pytest.fixture
def marker() -> Iterator[str]:
    """A word for bot programs' command lines; afterwards, no process with it may be left."""
    word = f"tt-web-{uuid.uuid4().hex}"
    yield word
    deadline = time.monotonic() + 10
    while (left := _marked(word)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"bot programs left behind: {left}"


def _marked(word: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if word.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


class Client:
    """One socket at a table: a seat (its key) or a spectator, and what it last heard."""

    def __init__(self, ws: ClientConnection, hello: dict[str, Any]) -> None:
        self.ws = ws
        self.state = hello
        """The last update."""
        self.table = hello
        """The last message with the clocks and presence (an update or a presence message)."""
        self.heard: list[dict[str, Any]] = [hello]

    @classmethod
    async def join(cls, base: str, game: str, key: str | None) -> Client:
        ws = await connect(f"ws://{base.split('://', 1)[1]}/ws/{game}")
        await ws.send(json.dumps({"type": "hello", "credential": key}))
        hello = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert hello["type"] == "update", hello
        return cls(ws, hello)

    async def next(self, kind: str = "update", timeout: float = WAIT) -> dict[str, Any]:
        """The next message of ``kind`` (``update``, ``presence`` or ``error``)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            message = json.loads(await asyncio.wait_for(self.ws.recv(), max(0.01, left)))
            self.heard.append(message)
            if "presence" in message:
                self.table = message
            if message["type"] == "update":
                self.state = message
            if message["type"] == kind:
                return dict(message)

    async def until(
        self, check: Any, kind: str = "update", timeout: float = WAIT
    ) -> dict[str, Any]:
        """The first message of ``kind`` from now on for which ``check(message)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(kind, deadline - time.monotonic())
            if check(message):
                return message

    async def move(self, key: str, index: int = 0) -> dict[str, Any]:
        """Play a legal move (the ``index``-th) and answer the update it makes."""
        action = self.state["legal_actions"][index]["action"]
        played = self.state["moves_played"]
        await self.ws.send(json.dumps({"credential": key, "action": action}))
        return await self.until(lambda m: m["moves_played"] > played)

    async def sees(self, check: Any, timeout: float = WAIT) -> dict[str, Any]:
        """The clocks and presence it heard last if ``check`` holds of them, else the first
        ``presence`` message from now on of which it does."""
        if check(self.table):
            return self.table
        return await self.until(check, "presence", timeout)

    def seat(self, seat: int) -> dict[str, Any]:
        """What the last message said of ``seat``'s presence."""
        entry: dict[str, Any] = self.table["presence"]["seats"][seat]
        return entry


def _keys(answer: dict[str, Any]) -> list[str]:
    return [s["link"].split("#", 1)[1] for s in answer["seats"] if s["link"]]


@pytest.fixture
def lobby() -> Lobby:
    return Lobby()


@pytest.fixture
def base(lobby: Lobby, tmp_path: Path) -> Iterator[str]:
    app = create_app(lobby, wheel_dir=tmp_path / "wheels")
    try:
        with serving(app, ws="websockets-sansio") as url:
            yield url
    finally:
        lobby.programs.close()


def _table(base: str, **body: Any) -> dict[str, Any]:
    request = {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": SEED, **body}
    return post_json(f"{base}/api/games", request)


def _run(main: Any) -> Any:
    return asyncio.run(asyncio.wait_for(main, 120))


# -- presence ----------------------------------------------------------------------------------


def test_every_seat_and_spectator_sees_who_is_connected_and_since_when_a_seat_is_away(
    base: str,
) -> None:
    answer = _table(base, grace=60)
    keys = _keys(answer)

    async def main() -> None:
        ann = await Client.join(base, answer["game"], keys[0])
        # Bo has not come yet: away since the table was made; Ann is here.
        assert ann.seat(0) == {
            "seat": 0,
            "connected": True,
            "away_seconds": None,
            "taken_over": False,
        }
        assert ann.seat(1)["connected"] is False
        assert 0 <= ann.seat(1)["away_seconds"] < WAIT
        assert ann.state["web_protocol_version"] == 1
        bo = await Client.join(base, answer["game"], keys[1])
        assert bo.seat(0)["connected"]
        assert bo.seat(1)["connected"]
        heard = await ann.until(lambda m: m["presence"]["seats"][1]["connected"], "presence")
        assert heard["presence"]["seats"][1]["away_seconds"] is None
        watcher = await Client.join(base, answer["game"], None)
        assert watcher.state["seat"] is None
        assert watcher.table["presence"]["spectators"] == 1
        assert [s["connected"] for s in watcher.table["presence"]["seats"]] == [True, True]
        # Bo closes his tab: everyone hears it, with how long he has been away.
        await bo.ws.close()
        for client in (ann, watcher):
            gone = await client.until(
                lambda m: not m["presence"]["seats"][1]["connected"], "presence"
            )
            assert 0 <= gone["presence"]["seats"][1]["away_seconds"] < LATE
            assert gone["presence"]["seats"][1]["taken_over"] is False
        # The next update says it too, and that Ann (who moved) is here.
        update = await ann.move(keys[0])
        assert update["presence"]["seats"][1]["connected"] is False
        assert update["presence"]["seats"][0]["connected"] is True
        for client in (ann, watcher):
            await client.ws.close()

    _run(main())


# -- clocks -------------------------------------------------------------------------------------


def test_a_seat_out_of_time_is_played_by_the_takeover_bot_after_its_grace(base: str) -> None:
    answer = _table(base, clock="move:1", grace=2, takeover="greedy")
    assert answer["clock"] == "move:1"
    keys = _keys(answer)

    async def main() -> None:
        ann = await Client.join(base, answer["game"], keys[0])
        bo = await Client.join(base, answer["game"], keys[1])
        clock = ann.state["clock"]
        assert (clock["mode"], clock["seconds"], clock["running"]) == ("move", 1.0, 0)
        assert ann.state["takeover"] == {"bot": "greedy", "grace": 2}
        # Ann is at the table but does not move: her second and the grace go by.
        began = time.monotonic()
        update = await bo.until(lambda m: m["moves_played"] > 0)
        waited = time.monotonic() - began
        (move,) = update["moves"]
        assert move["player"] == 0
        assert move["played_by"] == {"bot": "greedy", "reason": "time", "detail": ""}
        assert waited >= 2.0  # never before her time and the grace were out
        # Bo's clock runs now, his whole second.
        assert update["clock"]["running"] == 1
        assert 0 < update["clock"]["left"][1] <= 1.0
        assert update["clock"]["left"][0] == 1.0
        # Bo moves in time: his own move, nobody else's.
        mine = await bo.move(keys[1])
        assert "played_by" not in mine["moves"][0]
        await ann.ws.close()
        await bo.ws.close()

    _run(main())


def test_a_bank_clock_counts_what_each_turn_took_and_adds_the_increment(base: str) -> None:
    answer = _table(base, clock="bank:20+3", grace=30)
    keys = _keys(answer)

    async def main() -> None:
        ann = await Client.join(base, answer["game"], keys[0])
        bo = await Client.join(base, answer["game"], keys[1])
        left = ann.state["clock"]["left"][0]
        await asyncio.sleep(1.0)
        update = await ann.move(keys[0])
        spent = 20.0 - update["clock"]["left"][0] + 3.0  # what Ann's turn cost her
        assert 1.0 <= spent < 1.0 + LATE
        assert left <= 20.0
        assert update["clock"]["running"] == 1
        assert update["clock"]["left"][1] == pytest.approx(20.0, abs=LATE)
        await ann.ws.close()
        await bo.ws.close()

    _run(main())


# -- takeover ---------------------------------------------------------------------------------


def test_a_seat_away_for_the_grace_is_taken_over_and_its_player_takes_it_back(
    base: str,
) -> None:
    answer = _table(base, grace=2, takeover="greedy")
    keys = _keys(answer)

    async def main() -> None:
        ann = await Client.join(base, answer["game"], keys[0])
        bo = await Client.join(base, answer["game"], keys[1])
        await bo.ws.close()
        # Two seconds later Bo's seat is the greedy bot's: everyone hears it.
        taken = await ann.until(lambda m: m["presence"]["seats"][1]["taken_over"], "presence")
        assert taken["presence"]["seats"][1]["away_seconds"] >= 2.0
        # Ann moves; the bot answers at once for Bo, and says so.
        await ann.move(keys[0])
        update = await ann.until(lambda m: any(x["player"] == 1 for x in m["moves"]))
        (move,) = [x for x in update["moves"] if x["player"] == 1]
        assert move["played_by"] == {"bot": "greedy", "reason": "away", "detail": ""}
        assert update["your_turn"]
        # Bo comes back with his link: the seat is his again, and everyone hears it.
        bo = await Client.join(base, answer["game"], keys[1])
        assert bo.seat(1)["connected"] is True
        assert bo.seat(1)["taken_over"] is False
        # His log shows what the bot did for him.
        assert [m.get("played_by", {}).get("bot") for m in bo.state["moves"]] == [None, "greedy"]
        back = await ann.until(lambda m: m["presence"]["seats"][1]["connected"], "presence")
        assert back["presence"]["seats"][1]["taken_over"] is False
        await ann.move(keys[0])
        await bo.until(lambda m: m["your_turn"])
        mine = await bo.move(keys[1])  # he plays it himself now
        assert "played_by" not in mine["moves"][0]
        assert mine["moves"][0]["player"] == 1
        await ann.ws.close()
        await bo.ws.close()

    _run(main())


def test_a_table_everyone_left_is_played_to_its_end_sheet_while_someone_watches(
    base: str,
) -> None:
    answer = _table(
        base,
        players=[{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy", "bot": "random"}],
        clock="move:30",
        grace=0.2,
        takeover="greedy",
    )

    async def main() -> None:
        watcher = await Client.join(base, answer["game"], None)  # no seat ever came
        final = await watcher.until(lambda m: m["over"], timeout=90)
        assert final["winners"]
        assert final["clock"]["running"] is None
        assert final["presence"]["seats"][2] == {"seat": 2, "bot": "random", "program": False}
        await watcher.ws.close()

    _run(main())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"clock": "move:0"}, "from 1"),
        ({"clock": "fast"}, "time control"),
        ({"clock": "bank:60+999999999"}, "increment"),
        ({"grace": -1}, "grace"),
        ({"grace": "soon"}, "grace"),
        ({"takeover": "policy"}, "takeover bot is one of"),
        ({"takeover": "exec:rm -rf /"}, "takeover bot is one of"),
        ({"players": [{"name": "A"}, {"name": "B", "bot": "exec:/bin/sh"}]}, "bots are"),
        ({"players": [{"name": "A"}, {"name": "B", "bot": "nosuch"}]}, "bots are"),
    ],
)
def test_bad_clocks_takeovers_and_bots_are_refused_when_a_table_is_made(
    base: str, body: dict[str, Any], message: str
) -> None:
    import urllib.error

    with pytest.raises(urllib.error.HTTPError) as refused:
        _table(base, **body)
    assert refused.value.code == 400
    assert message in json.load(refused.value)["error"]


def test_the_hosts_defaults_are_offered_and_taken(tmp_path: Path) -> None:
    defaults = TableDefaults(TimeControl("bank", 600.0, 10.0), 45.0, "search:50")
    lobby = Lobby(defaults=defaults)
    app = create_app(lobby, wheel_dir=tmp_path / "wheels")
    with serving(app) as url:
        import urllib.request

        with urllib.request.urlopen(f"{url}/api/variants", timeout=WAIT) as response:
            offered = json.load(response)
        assert offered["defaults"] == {
            "clock": "bank:600+10",
            "grace": 45.0,
            "takeover": "search:50",
        }
        assert offered["takeovers"] == ["greedy", "search", "random", "search:50"]
        answer = _table(url)
        assert answer["clock"] == "bank:600+10"
        assert answer["takeover"] == {"bot": "search:50", "grace": 45.0}
        assert _table(url, clock=None)["clock"] is None  # a creator may choose no clock


# -- bot programs at the web host ---------------------------------------------------------------


def _programs(**commands: list[str]) -> Programs:
    allowed = {name: allowed_program(f"{name}={' '.join(cmd)}") for name, cmd in commands.items()}
    return Programs(allowed, limits=BotLimits(move_seconds=1.0, startup_seconds=5.0))


async def _play_to_the_end(client: Client, key: str, limit: int = 200) -> dict[str, Any]:
    """Ann plays her first legal move at each of her turns until the game is over."""
    for _ in range(limit):
        if client.state["over"]:
            return client.state
        if client.state["your_turn"]:
            await client.move(key)
        else:
            await client.next()
    raise AssertionError(f"no end after {limit} messages")


@linux_only
def test_a_program_the_host_allows_plays_a_seat_to_the_end_and_is_ended(
    tmp_path: Path, marker: str
) -> None:
    programs = _programs(pybot=[sys.executable, str(PYTHON_BOT), marker])
    lobby = Lobby(programs=programs)
    app = create_app(lobby, wheel_dir=tmp_path / "wheels")
    with serving(app, ws="websockets-sansio") as url:
        import urllib.request

        with urllib.request.urlopen(f"{url}/api/variants", timeout=WAIT) as response:
            offered = json.load(response)
        assert offered["bots"] == ["random", "greedy", "pybot"]
        assert offered["programs"] == ["pybot"]
        answer = _table(url, players=[{"name": "Ann"}, {"name": "Py", "bot": "pybot"}])
        assert answer["seats"][1] == {"seat": 1, "name": "Py", "bot": "pybot", "link": None}

        async def main() -> dict[str, Any]:
            ann = await Client.join(url, answer["game"], _keys(answer)[0])
            assert ann.state["bots"] == {"1": "pybot"}
            assert ann.seat(1) == {"seat": 1, "bot": "pybot", "program": True}
            final = await _play_to_the_end(ann, _keys(answer)[0])
            await ann.ws.close()
            return final

        final = _run(main())
        game = lobby.rooms[answer["game"]].table
        # Every move of the program's seat was its own: no fallback played.
        assert game.played_by == {}
        assert final["over"]
        assert len(game.game.history) > 20
    programs.close()


HOSTILE_AT_THE_HOST = {
    # mode: what the move's played_by says (the program's failure)
    "flood-no-newline": "wrote a line longer than",
    "huge-line": "wrote a line longer than",
    "sleep": "gave no answer in 1.00 s",
    "exit-mid-line": "exited",
    "fork-bomb": None,  # its forks are refused; it plays on
}


@linux_only
@pytest.mark.parametrize("mode", list(HOSTILE_AT_THE_HOST))
def test_a_hostile_program_at_the_web_host_loses_its_moves_and_never_harms_the_host(
    tmp_path: Path, marker: str, mode: str
) -> None:
    programs = _programs(bad=[sys.executable, str(HOSTILE), mode, marker])
    lobby = Lobby(programs=programs)
    app = create_app(lobby, wheel_dir=tmp_path / "wheels")
    with serving(app, ws="websockets-sansio") as url:
        bad = _table(url, players=[{"name": "Ann"}, {"name": "Bad", "bot": "bad"}])
        other = _table(url, players=[{"name": "Cy"}, {"name": "Di"}])

        async def main() -> None:
            ann = await Client.join(url, bad["game"], _keys(bad)[0])
            cy = await Client.join(url, other["game"], _keys(other)[0])
            await ann.move(_keys(bad)[0])
            # While the program misbehaves, another table is served.
            await cy.move(_keys(other)[0])
            failed = await ann.until(lambda m: any(x["player"] == 1 for x in m["moves"]))
            (move,) = [x for x in failed["moves"] if x["player"] == 1]
            by = move.get("played_by")
            if mode == "fork-bomb":  # its forks were refused; it played on, and said so
                assert by is None
            else:
                assert by is not None
                assert (by["bot"], by["reason"]) == ("greedy", "failed")
                assert by["detail"].startswith("bad ")
                assert HOSTILE_AT_THE_HOST[mode] in by["detail"]
            final = await _play_to_the_end(ann, _keys(bad)[0])
            assert final["over"]
            await ann.ws.close()
            await cy.ws.close()

        _run(main())
        deadline = time.monotonic() + WAIT
        while programs.running:  # every program of the finished game is ended
            assert time.monotonic() < deadline, "a program of a finished game still runs"
            time.sleep(0.05)
    programs.close()


@linux_only
def test_a_program_may_be_the_takeover_bot_of_a_table(tmp_path: Path, marker: str) -> None:
    programs = _programs(pybot=[sys.executable, str(PYTHON_BOT), marker])
    lobby = Lobby(programs=programs)
    app = create_app(lobby, wheel_dir=tmp_path / "wheels")
    with serving(app, ws="websockets-sansio") as url:
        answer = _table(url, grace=0.5, takeover="pybot")
        keys = _keys(answer)

        async def main() -> None:
            ann = await Client.join(url, answer["game"], keys[0])
            await ann.until(lambda m: m["presence"]["seats"][1]["taken_over"], "presence")
            await ann.move(keys[0])
            update = await ann.until(lambda m: any(x["player"] == 1 for x in m["moves"]))
            (move,) = [x for x in update["moves"] if x["player"] == 1]
            assert move["played_by"] == {"bot": "pybot", "reason": "away", "detail": ""}
            await ann.ws.close()

        _run(main())
    programs.close()


def test_allowed_programs_are_named_never_commands() -> None:
    for bad in ("=python bot.py", "Py=python", "greedy=python", "exec=python", "x", "a=b=c'"):
        with pytest.raises(tt.ConfigurationError):
            allowed_program(bad)
    with pytest.raises(tt.ConfigurationError, match="no program"):
        allowed_program("ghost=no-such-program-here --flag")
    program = allowed_program(f"py-bot={sys.executable} '{PYTHON_BOT}'")
    assert program.command == (sys.executable, str(PYTHON_BOT))


# -- servers killed with kill -9 -------------------------------------------------------------------


async def _stored_clock(store: Path | str, game_id: str) -> dict[str, Any] | None:
    """The clock stored with the game's last move, read straight from the database."""
    if isinstance(store, str):
        import psycopg

        async with await psycopg.AsyncConnection.connect(store) as conn:
            cursor = await conn.execute(
                "SELECT clock FROM tricky_treats_moves WHERE game_id = %s "
                "ORDER BY version DESC LIMIT 1",
                (game_id,),
            )
            row = await cursor.fetchone()
    else:
        import sqlite3

        with sqlite3.connect(store) as db:
            row = db.execute(
                "SELECT clock FROM moves WHERE game_id = ? ORDER BY version DESC LIMIT 1",
                (game_id,),
            ).fetchone()
    return None if row is None or row[0] is None else dict(json.loads(row[0]))


async def _join_and_check_clock(
    url: str, game: str, key: str | None, stored: dict[str, Any], seat: int
) -> Client:
    """Join, and check that ``seat``'s running clock is the stored one less the time since:
    what the server computed at some moment between the hello and its answer."""
    before = time.time()
    client = await Client.join(url, game, key)
    after = time.time()
    clock = client.state["clock"]
    assert clock["running"] == seat
    low = stored["left"][seat] - (after - stored["at"])
    high = stored["left"][seat] - (before - stored["at"])
    assert low - 0.02 <= clock["left"][seat] <= high + 0.02, (clock, stored, before, after)
    return client


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tables.sqlite3", tmp_path / "server.log")
    yield running
    running.stop()


def test_a_killed_servers_game_has_the_right_clock_when_it_comes_back(
    server: Server, tmp_path: Path
) -> None:
    async def main() -> None:
        await server.start()
        base = f"http://{server.url}"
        slow = await asyncio.to_thread(_table, base, clock="bank:30+0", grace=30)
        quick = await asyncio.to_thread(_table, base, clock="bank:2+0", grace=1)
        for answer in (slow, quick):
            bo = await Client.join(base, answer["game"], _keys(answer)[1])  # Bo is here
            ann = await Client.join(base, answer["game"], _keys(answer)[0])
            await ann.move(_keys(answer)[0])
        server.kill()  # with Bo's time running
        await asyncio.sleep(4)  # the server is down longer than the quick table's time
        await server.start()
        base = f"http://{server.url}"
        # The slow table: Bo's clock went on running while the server was down.
        stored = await _stored_clock(server.store, slow["game"])
        assert stored is not None
        assert stored["left"] == [pytest.approx(30.0, abs=LATE), 30.0]
        bo = await _join_and_check_clock(base, slow["game"], _keys(slow)[1], stored, 1)
        assert bo.state["clock"]["left"][1] < 30 - 4  # the four seconds down are not given back
        await bo.ws.close()
        # The quick table: Bo's time (and grace) ran out while the server was down; when the
        # game comes back, the bot plays his turn at once.
        bo = await Client.join(base, quick["game"], _keys(quick)[1])
        if bo.state["moves_played"] < 2:
            await bo.until(lambda m: m["moves_played"] >= 2)
        move = bo.state["moves"][-1] if bo.state["moves"] else None
        assert move is not None
        assert move["player"] == 1
        assert move["played_by"] == {"bot": "greedy", "reason": "time", "detail": ""}
        await bo.ws.close()

    _run(main())
    text = server.log.read_text()
    assert "Traceback" not in text, text


def test_two_processes_on_postgresql_keep_the_clocks_through_a_kill_9_and_lose_no_move(
    tmp_path: Path, postgres_url: str
) -> None:
    """Ann on one process, Bo and a spectator on the other. The first is killed right after
    storing Ann's move; Ann's page reconnects to the second, which plays Bo's turn when his
    time is out (its timer, not the dead one's). The first comes back, and Ann opens it in
    another tab: both processes hold the game and both act on Ann's time at once (one loaded
    the game, the other stored its last move). The store takes one move; none is lost."""
    first = Server(postgres_url, tmp_path / "a.log")
    second = Server(postgres_url, tmp_path / "b.log")

    async def main() -> None:
        await first.start()
        await second.start()
        one, two = f"http://{first.url}", f"http://{second.url}"
        answer = await asyncio.to_thread(_table, one, clock="bank:6+4", grace=1)
        game, keys = answer["game"], _keys(answer)
        ann = await Client.join(one, game, keys[0])
        bo = await Client.join(two, game, keys[1])
        watcher = await Client.join(two, game, None)
        # A seat connected to one process is present for the spectators of the other, and
        # the other way round.
        seen = await watcher.sees(lambda t: t["presence"]["seats"][0]["connected"])
        assert seen["presence"]["seats"][1]["connected"]
        await ann.sees(lambda t: t["presence"]["seats"][1]["connected"])
        acknowledged: dict[int, str] = {}

        def note(update: dict[str, Any]) -> None:
            first_index = update["moves_played"] - len(update["moves"])
            for offset, move in enumerate(update["moves"]):
                action = acknowledged.setdefault(first_index + offset, move["action"])
                assert action == move["action"]

        for _ in range(2):  # two moves each, through either process
            note(await ann.move(keys[0]))
            await bo.until(lambda m: m["your_turn"])
            note(await bo.move(keys[1]))
            await ann.until(lambda m: m["your_turn"])
        assert ann.state["presence"]["spectators"] == 1  # watching on the other process
        note(await ann.move(keys[0]))
        first.kill()  # right after storing Ann's move: its timer for Bo's time dies with it
        stored = await _stored_clock(postgres_url, game)
        assert stored is not None
        # Ann's page reconnects, to the other process: Bo's clock there is the stored one.
        ann = await _join_and_check_clock(two, game, keys[0], stored, 1)
        # Bo does not move: the second process plays his turn, once his time and grace are
        # out (and, as it did not store Ann's move, a little later).
        update = await watcher.until(lambda m: m["moves_played"] > len(acknowledged), timeout=40)
        note(update)
        (move,) = [x for x in update["moves"] if x["player"] == 1]
        assert move["played_by"] == {"bot": "greedy", "reason": "time", "detail": ""}
        stored = await _stored_clock(postgres_url, game)
        assert stored is not None
        assert update["clock"]["running"] == 0
        assert update["clock"]["left"][1] == pytest.approx(4.0)  # his bank spent: the increment
        assert update["clock"]["left"][1] == pytest.approx(stored["left"][1], abs=0.01)
        # Ann's clock runs from the stored time: what was left, less the time since.
        assert stored["left"][0] - LATE <= update["clock"]["left"][0] <= stored["left"][0] + 0.01
        # The first process comes back; Ann opens the game there in another tab. Her clock is
        # the one the store's times give, on either process.
        await first.start()
        one = f"http://{first.url}"
        tab = await _join_and_check_clock(one, game, keys[0], stored, 0)
        # Ann does not move: both processes hold the game and act on her time at once. One
        # move is stored, and every socket hears that one.
        versions = len(acknowledged)
        heard_by = [
            await c.until(lambda m: m["moves_played"] > versions, timeout=40)
            for c in (tab, ann, watcher)
        ]
        for heard in heard_by:
            note(heard)
        assert heard_by[0]["moves"] == heard_by[1]["moves"] == heard_by[2]["moves"]
        assert [m["player"] for m in heard_by[0]["moves"]] == [0]
        assert heard_by[0]["moves"][0]["played_by"]["reason"] == "time"
        await asyncio.sleep(2.5)  # past the other's backstop (Bo's 4 s are not out): one move
        assert watcher.state["moves_played"] == versions + 1
        for client in (ann, bo, watcher, tab):
            await client.ws.close()
        # Nothing acknowledged was lost, nothing played twice: the stored game holds them all,
        # and one timed-out move for each of the two turns.
        from tricky_treats_web.postgres import PostgresTableStore

        store = PostgresTableStore(postgres_url)
        try:
            table = store.load(game)
        finally:
            store.close()
        assert table is not None
        history = [str(a) for a in table.table.game.history]
        assert len(history) == versions + 1
        assert all(history[i] == action for i, action in acknowledged.items())
        assert sorted(table.table.played_by) == [versions - 1, versions]  # Bo's, then Ann's

    try:
        _run(main())
    finally:
        first.stop()
        second.stop()
    raced = 0
    for log in (tmp_path / "a.log", tmp_path / "b.log"):
        text = log.read_text()
        for escaped in ("Traceback", "never retrieved", "kept in quarantine"):
            assert escaped not in text, text
        raced += text.count("played seat 0's move first")
    # Whether the loser had begun its move when the winner's was stored, or saw it first.
    print(f"\nAnn's timed-out move: {raced} process(es) found it stored after making theirs")


@linux_only
def test_a_program_dies_with_its_server_killed_with_kill_9(tmp_path: Path, marker: str) -> None:
    server = Server(
        tmp_path / "tables.sqlite3",
        tmp_path / "server.log",
        [
            "--allow-exec-bot",
            f"slow={sys.executable} {HOSTILE} sleep {marker}",
            "--exec-bot-seconds",
            "60",
        ],
    )

    def programs() -> list[int]:  # the server's own command line names the program too
        assert server.process is not None
        return [pid for pid in _marked(marker) if pid != server.process.pid]

    async def main() -> None:
        await server.start()
        base = f"http://{server.url}"
        answer = await asyncio.to_thread(
            _table, base, players=[{"name": "Ann"}, {"name": "Slow", "bot": "slow"}]
        )
        ann = await Client.join(base, answer["game"], _keys(answer)[0])
        await ann.move(_keys(answer)[0])
        deadline = time.monotonic() + WAIT
        while not programs():
            assert time.monotonic() - deadline < 0, "the program never started"
            await asyncio.sleep(0.05)
        # Past its handshake it thinks (it sleeps for an hour, reading and writing nothing:
        # no broken pipe would end it).
        await asyncio.sleep(2.0)
        (pid,) = programs()
        server.kill()
        deadline = time.monotonic() + 10
        while programs():
            assert time.monotonic() < deadline, f"left behind: {programs()}"
            await asyncio.sleep(0.05)
        assert pid not in _marked(marker)

    try:
        _run(main())
    finally:
        server.stop()

"""Load check of the web app: many concurrent games over WebSockets on 127.0.0.1.

    python benchmarks/bench_web_load.py [--games 32] [--seconds 20] [--setups sqlite,postgresql]

For each setup, starts the app (``tricky-treats-web serve``) in child processes on free ports
of 127.0.0.1: ``sqlite`` is one process on a SQLite file, ``postgresql`` two processes on one
PostgreSQL database (a temporary server of its own, as the tests start it: initdb, pg_ctl),
with each game's two seats on different processes, so that every move crosses LISTEN/NOTIFY.
Then it plays ``--games`` games at once for ``--seconds`` seconds: in each, two clients hold
the two human seats and play random legal moves as fast as the server answers; a finished game
is replaced by a new one. Prints, side by side, the games finished, the moves per second, the
p50/p99 latency of a move (send to the mover's update), the server CPU per move and the
errors, which must be 0 (the exit status is 1 otherwise). The servers run with the per-client
quotas raised (every client here is 127.0.0.1). Bounded in time and in count; it sends nothing
anywhere but 127.0.0.1. Needs the web app, ``pip install -e examples/web`` (and
``-e 'examples/web[postgresql]'`` with Debian's ``postgresql`` for the second setup, which
starts PostgreSQL with the tests' own helper, ``tests/postgres.py``: it needs pytest too,
``pip install -e '.[test]'``, or ``--setups sqlite`` leaves that setup out).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
QUOTAS_OFF = ["--games-per-client", "1000000", "--sockets-per-client", "100000"]
SERVE = [sys.executable, "-m", "tricky_treats_web", "serve"]
"""``tricky-treats-web serve``, run by this Python."""


class Tally:
    """What the clients saw."""

    def __init__(self) -> None:
        self.games = 0
        self.moves = 0
        self.sent = 0
        self.received = 0
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.server_cpu = 0.0
        self.database_cpu: float | None = None
        self.elapsed = 0.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _create_game(base: str, seed: int) -> dict[str, Any]:
    body = json.dumps({"players": [{"name": "A"}, {"name": "B"}], "seed": seed}).encode()
    request = urllib.request.Request(f"{base}/api/games", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


async def _receive(ws: Any, tally: Tally) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await ws.recv())
    tally.received += 1
    if message["type"] == "error":
        tally.errors.append(message["error"])
    return message


async def play_games(bases: list[str], deadline: float, rng: random.Random, tally: Tally) -> None:
    """Play games one after another until ``deadline``, recording everything.

    The first seat plays through ``bases[0]``, the second through the last of ``bases``.
    """
    while time.monotonic() < deadline:
        answer = await asyncio.to_thread(_create_game, bases[0], rng.randrange(2**62))
        credentials = [seat["link"].split("#", 1)[1] for seat in answer["seats"]]
        first_url, second_url = (
            f"{b.replace('http://', 'ws://')}/ws/{answer['game']}" for b in (bases[0], bases[-1])
        )
        async with (
            websockets.connect(first_url) as first,
            websockets.connect(second_url) as second,
        ):
            sockets = (first, second)
            states = []
            for ws, credential in zip(sockets, credentials, strict=True):
                await ws.send(json.dumps({"type": "hello", "credential": credential}))
                tally.sent += 1
                states.append(await _receive(ws, tally))
            while not states[0]["over"] and time.monotonic() < deadline:
                mover = 0 if states[0]["your_turn"] else 1
                legal = states[mover]["legal_actions"]
                if not legal:
                    tally.errors.append("a seat to move was offered no action")
                    return
                move = {"credential": credentials[mover], "action": rng.choice(legal)["code"]}
                started = time.perf_counter()
                await sockets[mover].send(json.dumps(move))
                tally.sent += 1
                states[mover] = await _receive(sockets[mover], tally)
                tally.latencies.append(time.perf_counter() - started)
                states[1 - mover] = await _receive(sockets[1 - mover], tally)
                tally.moves += 1
                if tally.errors:
                    return
            if states[0]["over"]:
                tally.games += 1


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # of the children that have exited
    return usage.ru_utime + usage.ru_stime


def _postgres_cpu(data: Path) -> float:
    """CPU seconds of a PostgreSQL server so far: the postmaster and its exited backends."""
    pid = (data / "postmaster.pid").read_text().split()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return (utime + stime + cutime + cstime) / os.sysconf("SC_CLK_TCK")


async def main_async(games: int, seconds: float, seed: int, store: str, processes: int) -> Tally:
    ports = [_free_port() for _ in range(processes)]
    bases = [f"http://{HOST}:{port}" for port in ports]
    cpu_before = _cpu_of_children()
    servers = [
        subprocess.Popen(
            [*SERVE, "--port", str(port), "--store", store, *QUOTAS_OFF],
            stdout=subprocess.DEVNULL,
        )
        for port in ports
    ]
    tally = Tally()
    try:
        for base in bases:
            for _ in range(400):
                try:
                    urllib.request.urlopen(f"{base}/api/variants", timeout=1).close()
                    break
                except OSError:
                    await asyncio.sleep(0.05)
        started = time.monotonic()
        deadline = started + seconds
        rngs = [random.Random(f"{seed} {i}") for i in range(games)]
        await asyncio.gather(
            *(
                play_games([bases[i % processes], bases[(i + 1) % processes]], deadline, rng, tally)
                for i, rng in enumerate(rngs)
            )
        )
        tally.elapsed = time.monotonic() - started
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=10)
    tally.server_cpu = _cpu_of_children() - cpu_before  # the servers', once they have exited
    return tally


def _report(name: str, tally: Tally) -> dict[str, str]:
    row = {"setup": name, "games finished": str(tally.games), "moves": str(tally.moves)}
    row["moves per second"] = f"{tally.moves / tally.elapsed:,.0f}" if tally.elapsed else "-"
    messages = tally.sent + tally.received
    row["messages per second"] = f"{messages / tally.elapsed:,.0f}" if tally.elapsed else "-"
    if tally.latencies:
        p50 = _percentile(tally.latencies, 0.50) * 1000
        p99 = _percentile(tally.latencies, 0.99) * 1000
        row["move latency p50"] = f"{p50:.1f} ms"
        row["move latency p99"] = f"{p99:.1f} ms"
    if tally.moves:
        row["server CPU per move"] = f"{tally.server_cpu / tally.moves * 1000:.1f} ms"
        if tally.database_cpu is not None:
            row["PostgreSQL CPU per move"] = f"{tally.database_cpu / tally.moves * 1000:.1f} ms"
    row["errors"] = str(len(tally.errors))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32, help="concurrent games (default 32)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--setups",
        default="sqlite,postgresql",
        help="comma-separated: sqlite (one process, SQLite file), postgresql (two processes "
        "on one PostgreSQL database); default both, one after the other",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 300:
        parser.error("keep it bounded: 1 to 500 games, at most 300 seconds")
    setups = args.setups.split(",")
    if not set(setups) <= {"sqlite", "postgresql"}:
        parser.error("setups are sqlite and postgresql")
    rows = []
    tallies = []
    for setup in setups:
        with tempfile.TemporaryDirectory() as scratch:
            if setup == "sqlite":
                store = str(Path(scratch) / "tables.sqlite3")
                tally = asyncio.run(main_async(args.games, args.seconds, args.seed, store, 1))
                rows.append(_report("1 process, SQLite", tally))
            else:
                sys.path.insert(0, str(ROOT))
                try:
                    from tests.postgres import TemporaryPostgres, missing, new_database
                except ImportError as exc:  # the tests' helper imports pytest
                    parser.error(
                        f"the postgresql setup starts PostgreSQL with tests/postgres.py, which "
                        f"needs {exc.name}: pip install -e '.[test]' (or --setups sqlite)"
                    )

                reason = missing()
                if reason is not None:
                    parser.error(reason)
                with TemporaryPostgres() as postgres:
                    store = new_database(postgres.url)
                    cpu_before = _postgres_cpu(postgres.data)
                    tally = asyncio.run(main_async(args.games, args.seconds, args.seed, store, 2))
                    tally.database_cpu = _postgres_cpu(postgres.data) - cpu_before
                rows.append(_report("2 processes, PostgreSQL", tally))
        tallies.append(tally)
    print(f"concurrent games      {args.games} for {args.seconds:.0f} s on {HOST}, each setup")
    keys = [k for k in dict.fromkeys(key for row in rows for key in row) if k != "errors"]
    keys.append("errors")
    for key in keys:
        print(f"{key:<24}" + "".join(f"{row.get(key, '-'):>26}" for row in rows))
    print(f"machine load average  {os.getloadavg()[0]:.1f} (shared machine: figures vary)")
    errors = [e for tally in tallies for e in tally.errors]
    for error in errors[:5]:
        print(f"  {error}")
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()

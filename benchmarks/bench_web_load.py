"""Load check of the web example: many concurrent games over WebSockets on 127.0.0.1.

    python benchmarks/bench_web_load.py [--games 32] [--seconds 20]

Starts the app (``examples/web/serve.py``) in a child process on a free port of 127.0.0.1,
then plays ``--games`` games at once for ``--seconds`` seconds: in each, two clients hold the
two human seats and play random legal moves as fast as the server answers; a finished game is
replaced by a new one. Prints the games finished, the messages per second, the p50/p99
latency of a move (send to the mover's update) and the errors, which must be 0 (the exit
status is 1 otherwise). Bounded in time and in count; it sends nothing anywhere but 127.0.0.1.
Needs ``pip install -e '.[web]'``.
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


async def play_games(base: str, deadline: float, rng: random.Random, tally: Tally) -> None:
    """Play games one after another until ``deadline``, recording everything."""
    ws_base = base.replace("http://", "ws://")
    while time.monotonic() < deadline:
        answer = await asyncio.to_thread(_create_game, base, rng.randrange(2**62))
        credentials = [seat["link"].split("#", 1)[1] for seat in answer["seats"]]
        url = f"{ws_base}/ws/{answer['game']}"
        async with websockets.connect(url) as first, websockets.connect(url) as second:
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


async def main_async(games: int, seconds: float, seed: int, store: str) -> Tally:
    port = _free_port()
    base = f"http://{HOST}:{port}"
    serve = ROOT / "examples" / "web" / "serve.py"
    server = subprocess.Popen(
        [sys.executable, str(serve), "--port", str(port), "--store", store],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/api/variants", timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        tally = Tally()
        deadline = time.monotonic() + seconds
        rngs = [random.Random(f"{seed} {i}") for i in range(games)]
        await asyncio.gather(*(play_games(base, deadline, rng, tally) for rng in rngs))
    finally:
        server.terminate()
        server.wait(timeout=10)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the server's, once it has exited
    tally.server_cpu = usage.ru_utime + usage.ru_stime
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32, help="concurrent games (default 32)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--store",
        help="the server's SQLite store (default: a new file in a temporary directory; "
        "':memory:' keeps it in memory, to measure without the disk)",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 300:
        parser.error("keep it bounded: 1 to 500 games, at most 300 seconds")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        store = args.store or str(Path(scratch) / "tables.sqlite3")
        tally = asyncio.run(main_async(args.games, args.seconds, args.seed, store))
    elapsed = time.monotonic() - started
    messages = tally.sent + tally.received
    print(f"concurrent games      {args.games} for {args.seconds:.0f} s on {HOST}")
    print(f"store                 {args.store or 'SQLite file (fsync on every move)'}")
    print(f"games finished        {tally.games}")
    print(f"moves played          {tally.moves}")
    rate = messages / elapsed
    print(f"messages per second   {rate:,.0f} ({tally.sent} in, {tally.received} out)")
    if tally.latencies:
        p50 = _percentile(tally.latencies, 0.50) * 1000
        p99 = _percentile(tally.latencies, 0.99) * 1000
        print(f"move latency          p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    if tally.moves:
        per_move = tally.server_cpu / tally.moves * 1000
        print(f"server CPU per move   {per_move:.1f} ms (with the 2 updates it sends)")
    print(f"machine load average  {os.getloadavg()[0]:.1f} (shared machine: figures vary)")
    print(f"errors                {len(tally.errors)}")
    for error in tally.errors[:5]:
        print(f"  {error}")
    if tally.errors:
        sys.exit(1)


if __name__ == "__main__":
    main()

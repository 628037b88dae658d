"""Load check of the web app: the servers' own CPU and bytes written per move, early and late.

    python benchmarks/bench_web_load.py [--games 32] [--players 2] [--rounds 3]
        [--setups sqlite,postgresql:2] [--clients 2] [--quick]

Each setup starts the app (``tricky-treats-web serve``) in child processes on free ports of
127.0.0.1: ``sqlite`` is one process on a SQLite file, ``postgresql:N`` is N processes on one
PostgreSQL database (a temporary server of its own, started as the tests start it: initdb,
pg_ctl, ``fsync`` on). Seat s of game i plays through process (i + s) mod N, so that with two
or more processes every move crosses LISTEN/NOTIFY. The clients run in processes of their
own (``--clients``), so that the servers' figures are the servers' alone.

A round opens ``--games`` new games at once and plays them in step, every seat a client that
plays random legal moves as soon as it is its turn: to move 1 unmeasured, then the early
window (moves 1 to 10, around move 5), then on to the late window unmeasured, and the late
window (moves 50 to 60 with 4 players, 40 to 50 with 3; two-player games end between moves
32 and 45, so their late window is moves 28 to 38, the nearest to move 60 they reach). Around
each window the benchmark reads, for every server process, its CPU time (``utime + stime``
from ``/proc/<pid>/stat``) and the bytes it wrote to files (``wchar`` from ``/proc/<pid>/io``:
the SQLite database and its write-ahead log, the save journal; socket sends are not
counted), and for PostgreSQL the CPU time of all its processes and its WAL position
(``pg_current_wal_lsn``). Each figure is the median over the rounds, with the spread (lowest
to highest) beside it. A PostgreSQL setup also times NOTIFYs about games no process holds
(what each process pays for every move on a game it does not serve). The errors must be 0
(the exit status is 1 otherwise).

The servers run with the per-client quotas raised (every client here is 127.0.0.1). Bounded
in count (games x moves x rounds) and in time (``--deadline``); it sends nothing anywhere but
127.0.0.1. ``--quick`` is a smoke run of a few seconds (4 games, one round, short windows).
To measure another checkout's server with the same benchmark, put its ``src`` and
``examples/web/src`` first on ``PYTHONPATH``: the servers are started by this Python.

Needs the web app, ``pip install -e examples/web`` (``-e 'examples/web[postgresql]'`` and
Debian's ``postgresql`` for the PostgreSQL setups, which start PostgreSQL with the tests' own
helper, ``tests/postgres.py``: it needs pytest too, ``pip install -e '.[test]'``, or
``--setups sqlite`` leaves them out).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
QUOTAS_OFF = ("--games-per-client", "1000000", "--sockets-per-client", "100000")
SERVE = [sys.executable, "-m", "tricky_treats_web", "serve"]
"""``tricky-treats-web serve``, run by this Python."""
TICK = os.sysconf("SC_CLK_TCK")

EARLY = (1, 10)
LATE = {2: (28, 38), 3: (40, 50), 4: (50, 60)}
"""Each window: the moves played before it starts, and before it ends."""


# -- the clients (each client process runs this) ---------------------------------------------


@dataclass
class _Game:
    seats: list[Any]
    states: list[dict[str, Any]]
    credentials: list[str]
    rng: random.Random

    @property
    def played(self) -> int:
        return int(self.states[0]["moves_played"])

    @property
    def over(self) -> bool:
        return bool(self.states[0]["over"])


@dataclass
class _Phase:
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _post_game(base: str, players: int, seed: int) -> dict[str, Any]:
    body = {"players": [{"name": f"P{s}"} for s in range(players)], "seed": seed}
    request = urllib.request.Request(
        f"{base}/api/games", data=json.dumps(body).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


async def _receive(ws: Any) -> dict[str, Any]:
    """The next message that is not a ``presence`` one (a seat's player came or went)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if message.get("type") != "presence":
            return message


async def _open(bases: Sequence[str], index: int, players: int, seed: int) -> _Game:
    import websockets

    answer = await asyncio.to_thread(_post_game, bases[index % len(bases)], players, seed)
    credentials = [seat["link"].split("#", 1)[1] for seat in answer["seats"]]
    seats, states = [], []
    for seat, credential in enumerate(credentials):
        base = bases[(index + seat) % len(bases)].replace("http://", "ws://")
        ws = await websockets.connect(f"{base}/ws/{answer['game']}", max_size=None)
        await ws.send(json.dumps({"type": "hello", "credential": credential}))
        seats.append(ws)
        states.append(await _receive(ws))
    return _Game(seats, states, credentials, random.Random(seed))


async def _advance(game: _Game, stop_at: int, phase: _Phase) -> None:
    """Play ``game`` until ``stop_at`` moves are played (or it is over)."""
    while game.played < stop_at and not game.over:
        mover = next(s for s, state in enumerate(game.states) if state["your_turn"])
        legal = game.states[mover]["legal_actions"]
        move = {"credential": game.credentials[mover], "action": game.rng.choice(legal)["code"]}
        started = time.perf_counter()
        await game.seats[mover].send(json.dumps(move))
        played = game.played
        for seat in [mover, *(s for s in range(len(game.seats)) if s != mover)]:
            message = await _receive(game.seats[seat])
            if seat == mover:
                phase.latencies.append(time.perf_counter() - started)
            if message["type"] != "update" or message["moves_played"] != played + 1:
                phase.errors.append(f"seat {seat} got {json.dumps(message)[:200]}")
                return
            game.states[seat] = message
        phase.moves += 1


async def _client_main(conn: multiprocessing.connection.Connection) -> None:
    games: list[_Game] = []
    while True:
        command, argument = await asyncio.to_thread(conn.recv)
        try:
            if command == "open":
                bases, indices, players, seed = argument
                games = list(
                    await asyncio.gather(*(_open(bases, i, players, seed + i) for i in indices))
                )
                conn.send(("ok", len(games)))
            elif command == "play":
                phase = _Phase()
                await asyncio.gather(*(_advance(game, argument, phase) for game in games))
                conn.send(("ok", (phase.moves, phase.latencies, phase.errors)))
            elif command == "close":
                for game in games:
                    for ws in game.seats:
                        await ws.close()
                games = []
                conn.send(("ok", None))
            else:
                return
        except Exception as exc:  # reported to the benchmark, which stops
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


def _client(conn: multiprocessing.connection.Connection) -> None:
    asyncio.run(_client_main(conn))


class Clients:
    """Client processes, each playing its share of the games, commanded in step."""

    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes = []
        self.processes = []
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=_client, args=(theirs,), daemon=True)
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)

    def ask(self, command: str, arguments: Sequence[Any], deadline: float) -> list[Any]:
        """Send each client its command and argument; their answers, once all have answered."""
        for pipe, argument in zip(self.pipes, arguments, strict=True):
            pipe.send((command, argument))
        answers = []
        for pipe in self.pipes:
            if not pipe.poll(max(0.0, deadline - time.monotonic())):
                raise TimeoutError("the clients did not answer before the deadline")
            status, answer = pipe.recv()
            if status != "ok":
                raise RuntimeError(f"a client failed: {answer}")
            answers.append(answer)
        return answers

    def close(self) -> None:
        """Stop the client processes."""
        for pipe in self.pipes:
            pipe.send(("quit", None))
        for process in self.processes:
            process.join(10)
            if process.is_alive():
                process.kill()


# -- what the servers spend ------------------------------------------------------------------


def _cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` (every thread, and its exited children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / TICK


def _written(pid: int) -> int:
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def _family(root: int) -> list[int]:
    """``root`` and its live children (PostgreSQL's backends and workers)."""
    pids = [root]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == root:
                pids.append(int(entry.name))
    return pids


@dataclass
class Reading:
    """The counters at one moment."""

    at: float
    server_cpu: list[float]
    server_written: list[int]
    database_cpu: float = 0.0
    wal: int = 0


class Database:
    """A temporary PostgreSQL server, its CPU time and its WAL position."""

    def __init__(self, stack: ExitStack) -> None:
        sys.path.insert(0, str(ROOT))
        from tests.postgres import TemporaryPostgres, missing

        reason = missing()
        if reason is not None:
            raise SystemExit(reason)
        self.server = stack.enter_context(TemporaryPostgres())
        self.pid = int((self.server.data / "postmaster.pid").read_text().split()[0])

    def new_database(self) -> str:
        """The URL of a new, empty database on the server."""
        from tests.postgres import new_database

        return new_database(self.server.url)

    def cpu(self) -> float:
        """CPU seconds of the server so far: its live processes and the exited ones."""
        total = 0.0
        for pid in _family(self.pid):
            with contextlib.suppress(OSError):  # a backend that just exited (counted in cutime)
                total += _cpu(pid)
        return total

    def wal(self) -> int:
        """The server's WAL position, in bytes written since it began."""
        import psycopg

        with psycopg.connect(self.server.url, autocommit=True) as conn:
            row = conn.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()
        assert row is not None
        return int(row[0])

    def notify(self, url: str, count: int) -> None:
        """``count`` NOTIFYs on database ``url`` about a game no server holds, as a move's."""
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            for start in range(0, count, 100):
                # Each its own payload: PostgreSQL sends equal ones of a transaction once.
                conn.execute(
                    "SELECT pg_notify('tricky_treats', '1 no-such-game-' || n || ' t0k0') "
                    "FROM generate_series(%s::int, %s::int) AS n",
                    (start, min(count, start + 100) - 1),
                )


@contextmanager
def servers(
    store: str, processes: int, scratch: Path, options: Sequence[str] = QUOTAS_OFF
) -> Iterator[list[tuple[str, int]]]:
    """``processes`` servers on ``store``, started with ``options``: each's URL and pid."""
    ports = [_free_port() for _ in range(processes)]
    logs = [scratch / f"server-{i}.log" for i in range(processes)]
    started = []
    for port, log in zip(ports, logs, strict=True):
        with log.open("wb") as out:
            started.append(
                subprocess.Popen(
                    [*SERVE, "--port", str(port), "--store", store, *options],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
    try:
        for port, server, log in zip(ports, started, logs, strict=True):
            for _ in range(600):
                if server.poll() is not None:
                    raise RuntimeError(f"a server exited:\n{log.read_text()[-3000:]}")
                try:
                    urllib.request.urlopen(f"http://{HOST}:{port}/api/variants", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
        yield [
            (f"http://{HOST}:{port}", server.pid)
            for port, server in zip(ports, started, strict=True)
        ]
    finally:
        for server in started:
            server.terminate()
        for server in started:
            server.wait(timeout=30)
    for log in logs:
        text = log.read_text()
        if "Traceback" in text:
            raise RuntimeError(f"a server failed:\n{text[text.index('Traceback') :][:3000]}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


# -- one setup -------------------------------------------------------------------------------


@dataclass
class Window:
    """What one window of one round measured."""

    moves: int
    seconds: float
    server_cpu: float
    busiest_cpu: float
    written: float
    database_cpu: float | None
    latencies: list[float]


@dataclass
class Result:
    """What one setup measured."""

    name: str
    processes: int
    windows: dict[str, list[Window]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    memory_per_game: float | None = None
    notify_cost: float | None = None
    games_per_process: float = 0.0
    sockets_per_process: float = 0.0


def _window(before: Reading, after: Reading, moves: int, latencies: list[float]) -> Window:
    spent = [b - a for a, b in zip(before.server_cpu, after.server_cpu, strict=True)]
    if before.wal or after.wal:
        written = float(after.wal - before.wal)
    else:
        written = float(sum(after.server_written) - sum(before.server_written))
    return Window(
        moves=moves,
        seconds=after.at - before.at,
        server_cpu=sum(spent),
        busiest_cpu=max(spent),
        written=written,
        database_cpu=(after.database_cpu - before.database_cpu) if before.wal else None,
        latencies=latencies,
    )


def run_setup(
    name: str,
    store: str,
    processes: int,
    args: argparse.Namespace,
    database: Database | None,
    scratch: Path,
    deadline: float,
) -> Result:
    result = Result(name, processes)
    windows = {"early": EARLY, "late": args.late}
    held = [0] * processes
    for index in range(args.games):
        for process in {(index + seat) % processes for seat in range(args.players)}:
            held[process] += 1
    result.games_per_process = sum(held) / processes
    result.sockets_per_process = args.games * args.players / processes
    clients = Clients(args.clients)
    try:
        with servers(store, processes, scratch) as running:
            bases = [base for base, _ in running]
            pids = [pid for _, pid in running]

            def reading() -> Reading:
                return Reading(
                    time.monotonic(),
                    [_cpu(pid) for pid in pids],
                    [_written(pid) for pid in pids],
                    database.cpu() if database else 0.0,
                    database.wal() if database else 0,
                )

            rss_before = [_rss(pid) for pid in pids]
            shares = [list(range(k, args.games, args.clients)) for k in range(args.clients)]
            for round_ in range(args.rounds):
                seed = args.seed + 1000 * round_
                clients.ask("open", [(bases, s, args.players, seed) for s in shares], deadline)
                for label, (start, stop) in windows.items():
                    for errors in _play(clients, start, deadline):
                        result.errors.extend(errors[2])
                    before = reading()
                    answers = _play(clients, stop, deadline)
                    after = reading()
                    moves = sum(a[0] for a in answers)
                    latencies = [t for a in answers for t in a[1]]
                    result.errors.extend(e for a in answers for e in a[2])
                    window = _window(before, after, moves, latencies)
                    result.windows.setdefault(label, []).append(window)
                if round_ == 0:
                    grown = [_rss(p) - b for p, b in zip(pids, rss_before, strict=True)]
                    result.memory_per_game = sum(grown) / max(1, sum(held))
                clients.ask("close", [None] * args.clients, deadline)
                if result.errors:
                    break
            if database is not None and processes > 1:
                result.notify_cost = _notify_cost(database, store, pids)
    finally:
        clients.close()
    return result


def _play(clients: Clients, stop_at: int, deadline: float) -> list[Any]:
    return clients.ask("play", [stop_at] * len(clients.pipes), deadline)


def _notify_cost(database: Database, url: str, pids: list[int]) -> float:
    """CPU seconds each server process spends on one NOTIFY about a game it does not hold.

    Less what the processes spend idle over as long (uvicorn's ticks).
    """
    count = 20_000

    def spent(work: Callable[[], object]) -> tuple[list[float], float]:
        before, started = [_cpu(pid) for pid in pids], time.monotonic()
        work()
        time.sleep(1.0)  # the listeners read what is left
        return [_cpu(pid) - b for pid, b in zip(pids, before, strict=True)], started

    idle, started = spent(lambda: time.sleep(2.0))
    idle_seconds = time.monotonic() - started
    busy, started = spent(lambda: database.notify(url, count))
    scale = (time.monotonic() - started) / idle_seconds
    return statistics.median(b - i * scale for b, i in zip(busy, idle, strict=True)) / count


# -- the report ------------------------------------------------------------------------------


def _spread(values: Sequence[float], unit: Callable[[float], str]) -> str:
    if not values:
        return "-"
    middle = statistics.median(values)
    if len(values) == 1:
        return unit(middle)
    return f"{unit(middle)} ({unit(min(values))}-{unit(max(values))})"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _report(results: list[Result], args: argparse.Namespace) -> None:
    rows: dict[str, list[str]] = {}

    def put(key: str, value: str, column: int) -> None:
        rows.setdefault(key, ["-"] * len(results))[column] = value

    for column, result in enumerate(results):
        for label, windows in result.windows.items():
            windows = [w for w in windows if w.moves]
            moves = [w.moves for w in windows]
            put(f"moves measured, {label}", str(sum(moves)), column)
            put(
                f"server CPU/move, {label}",
                _spread([w.server_cpu / w.moves for w in windows], _ms),
                column,
            )
            if result.processes > 1:
                put(
                    f"  busiest process, {label}",
                    _spread([w.busiest_cpu / w.moves for w in windows], _ms),
                    column,
                )
            if any(w.database_cpu is not None for w in windows):
                put(
                    f"PostgreSQL CPU/move, {label}",
                    _spread([(w.database_cpu or 0) / w.moves for w in windows], _ms),
                    column,
                )
            put(
                f"bytes written/move, {label}",
                _spread([w.written / w.moves for w in windows], lambda b: f"{b:,.0f}"),
                column,
            )
            put(
                f"moves/s, {label}",
                _spread([w.moves / w.seconds for w in windows], lambda r: f"{r:,.0f}"),
                column,
            )
            latencies = sorted(t for w in windows for t in w.latencies)
            if latencies:
                p50 = latencies[len(latencies) // 2]
                p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
                put(f"latency p50/p99, {label}", f"{p50 * 1000:.0f}/{p99 * 1000:.0f} ms", column)
        put(
            "games / sockets per process",
            f"{result.games_per_process:.0f} / {result.sockets_per_process:.0f}",
            column,
        )
        if result.memory_per_game is not None:
            put("memory per game held", f"{result.memory_per_game / 1024:,.0f} KiB", column)
        if result.notify_cost is not None:
            put("unheeded NOTIFY, per process", f"{result.notify_cost * 1e6:.0f} us", column)
        put("errors", str(len(result.errors)), column)
    print(
        f"{args.games} games of {args.players} players at once, {args.rounds} rounds, on {HOST}; "
        f"windows: moves {EARLY[0]}-{EARLY[1]} (early) and {args.late[0]}-{args.late[1]} (late); "
        "median (lowest-highest) over the rounds"
    )
    # Each window's rows together, in one order whatever the setups measured.
    order = [
        "moves measured",
        "server CPU",
        "  busiest",
        "PostgreSQL CPU",
        "WAL",
        "bytes",
        "moves/s",
    ]

    def rank(key: str) -> tuple[int, int]:
        window = 0 if key.endswith(", early") else 1 if key.endswith(", late") else 2
        if key == "errors":
            return 3, 0
        return window, next((i for i, o in enumerate(order) if key.startswith(o)), len(order))

    rows = {key: rows[key] for key in sorted(rows, key=rank)}
    width = max(len(k) for k in rows) + 2
    print(" " * width + "".join(f"{r.name:>28}" for r in results))
    for key, values in rows.items():
        print(f"{key:<{width}}" + "".join(f"{v:>28}" for v in values))
    print(f"machine load average {os.getloadavg()[0]:.1f} (a shared machine: figures vary)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=32, help="games at once (default 32)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--rounds", type=int, default=3, help="rounds per setup (default 3)")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--setups",
        default="sqlite,postgresql:2",
        help="comma-separated: sqlite (one process on a SQLite file), postgresql:N (N "
        "processes on one PostgreSQL database); default sqlite,postgresql:2",
    )
    parser.add_argument("--deadline", type=float, default=900.0, help="seconds for it all")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run of seconds: 4 games, 1 round"
    )
    args = parser.parse_args()
    args.late = LATE[args.players]
    if args.quick:
        args.games, args.rounds, args.clients = 4, 1, 1
        args.late = (args.late[0], args.late[0] + 2)
    if not 1 <= args.games <= 500 or not 1 <= args.rounds <= 20 or not 1 <= args.clients <= 8:
        parser.error("keep it bounded: 1 to 500 games, 1 to 20 rounds, 1 to 8 clients")
    setups = []
    for setup in args.setups.split(","):
        kind, _, count = setup.partition(":")
        if kind == "sqlite" and not count:
            setups.append((setup, 1))
        elif kind == "postgresql" and (count or "2").isdigit() and 1 <= int(count or 2) <= 8:
            setups.append((f"postgresql:{count or 2}", int(count or 2)))
        else:
            parser.error(f"unknown setup {setup!r}: sqlite or postgresql:N (N from 1 to 8)")
    deadline = time.monotonic() + args.deadline
    results = []
    with ExitStack() as stack:
        database = None
        for name, processes in setups:
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            if name == "sqlite":
                store = str(scratch / "tables.sqlite3")
            else:
                if database is None:
                    database = Database(stack)
                store = database.new_database()
            label = name if name == "sqlite" else f"postgresql, {processes} proc."
            result = run_setup(
                label,
                store,
                processes,
                args,
                None if name == "sqlite" else database,
                scratch,
                deadline,
            )
            results.append(result)
    _report(results, args)
    errors = [e for result in results for e in result.errors]
    for error in errors[:5]:
        print(f"  {error}")
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()

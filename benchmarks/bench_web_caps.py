"""Each client's share of the web app's caps, many addresses over processes on PostgreSQL.

Issue 46, item 6: what strangers at their limits were given and refused, and whether honest
newcomers still got a game.

    python benchmarks/bench_web_caps.py [--strangers 40] [--pairs 10] [--processes 2] [--quick]

Starts a PostgreSQL server of its own (as the tests start it: ``tests/postgres.py``) and
``--processes`` servers (``tricky-treats-web serve``) on it, on 127.0.0.1, behind a trusted
``X-Forwarded-For`` (each request names its client). ``--strangers`` clients, half IPv4
addresses, half IPv6 /64s (each request from another address of its /64), fill every cap
through every process; then ``--pairs`` pairs of newcomers each make a game, take its two
seats through two processes and move in it; then every stranger asks once more on every
process (``tests/many_clients.py`` is the scenario, ``tests/test_web_caps.py`` its test).
The caps scale with the strangers: 6 unplayed games per client and 5.5 per stranger in all
(``max_unplayed``), rooms for 2 seated games per stranger per process (``max_games``: each
stranger seats about 3 there), sockets 3 per stranger per process (``max_sockets``; 5 per
client). Prints the answers by kind, the games made and refused per stranger, the newcomers
served, the most any client held, the wall time and the load average; exits 1 if a cap or a
share was found broken. Bounded in count and by ``--deadline``; ``--quick`` is a smoke run of
seconds (8 strangers, 2 pairs).

Needs the web app with its PostgreSQL store (``pip install -e 'examples/web[postgresql]'``),
Debian's ``postgresql``, and the tests' helpers (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from bench_web_load import ROOT, Database, servers


def _spread(values: list[int]) -> str:
    if not values:
        return "-"
    return f"{min(values)} / {statistics.median(values):g} / {max(values)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strangers", type=int, default=40, help="clients at their limits")
    parser.add_argument("--pairs", type=int, default=10, help="pairs of newcomers (a game each)")
    parser.add_argument("--processes", type=int, default=2, help="server processes (default 2)")
    parser.add_argument("--deadline", type=float, default=300.0, help="seconds for the run")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds")
    args = parser.parse_args()
    if args.quick:
        args.strangers, args.pairs = 8, 2
    if not 2 <= args.strangers <= 500 or not 1 <= args.pairs <= 100:
        parser.error("keep it bounded: 2 to 500 strangers, 1 to 100 pairs")
    if not 2 <= args.processes <= 8:
        parser.error("2 to 8 processes")
    sys.path.insert(0, str(ROOT))
    from tests import many_clients
    from tricky_treats_web.app import client_key

    strangers = args.strangers
    caps = many_clients.Caps(
        max_sockets=3 * strangers,
        sockets_per_client=5,
        max_games=2 * strangers,
        max_unplayed=11 * strangers // 2,
        games_per_client=6,
    )
    pairs = [(f"203.0.113.{k + 1}", f"2001:db8:ff:{k:x}::1") for k in range(args.pairs)]
    began = time.monotonic()
    with ExitStack() as stack:
        database = Database(stack)
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        url = database.new_database()
        with servers(url, args.processes, scratch, caps.options()) as running:
            bases = [base.removeprefix("http://") for base, _ in running]
            outcome = many_clients.run(
                bases,
                caps,
                many_clients.stranger_addresses(strangers),
                pairs,
                url,
                client_key,
                args.deadline,
            )
    print(
        f"{strangers} strangers ({strangers - strangers // 2} IPv4 addresses, {strangers // 2} "
        f"IPv6 /64s) and {args.pairs} pairs of newcomers, {outcome.addresses} addresses, over "
        f"{args.processes} processes on one PostgreSQL"
    )
    print(
        f"caps: max_unplayed {caps.max_unplayed} (over every process), games_per_client "
        f"{caps.games_per_client}; per process max_games {caps.max_games}, max_sockets "
        f"{caps.max_sockets}, sockets_per_client {caps.sockets_per_client}"
    )
    for kind, answers in outcome.answers.items():
        print(f"  {kind:<22} " + ", ".join(f"{code} {n}" for code, n in answers.most_common()))
    made = [outcome.made[c] for c in set(outcome.made) | set(outcome.refused)]
    refused = [outcome.refused[c] for c in set(outcome.made) | set(outcome.refused)]
    print(f"games made per stranger (min / median / max): {_spread(made)}")
    print(f"new games refused per stranger (min / median / max): {_spread(refused)}")
    waits = outcome.newcomer_waits
    wait = f"{statistics.median(waits):.2f} s" if waits else "-"
    print(
        f"newcomers served: {outcome.newcomers_served} of {outcome.newcomers} (a pair's new "
        f"game to both seats moved, median {wait})"
    )
    print("most held by one client: " + ", ".join(f"{k} {v}" for k, v in outcome.peak.items()))
    print(f"caps or shares broken: {len(outcome.breaches)}")
    for breach in outcome.breaches[:10]:
        print(f"  {breach}")
    print(
        f"the run {outcome.seconds:.1f} s ({time.monotonic() - began:.1f} s with PostgreSQL "
        f"and the servers started); machine load average {os.getloadavg()[0]:.1f} "
        "(a shared machine: times vary)"
    )
    if outcome.breaches or outcome.newcomers_served < outcome.newcomers:
        sys.exit(1)


if __name__ == "__main__":
    main()

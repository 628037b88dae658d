"""What an exec bot costs the host: its start, and each move's round trip over the protocol.

    python benchmarks/bench_exec_bots.py              # 9 rounds of each bot
    python benchmarks/bench_exec_bots.py --rounds 21

A round is one game of an example bot (``examples/bots/``: the Python one, and the
JavaScript one when Node.js is installed) in seat 0 against ``RandomAgent``, as the ladder
plays it (``ExecAgent``, a fresh process for the game). The bots take turns round by round,
so that a busy moment of a shared machine falls on both. Per round it measures:

- the start: the wall-clock time from starting the process to its ``ready`` (a separate
  ``BotProcess.start()`` before the game, not counted below);
- a move: the wall-clock time of the exec agent's ``choose`` (the host writing the player
  record and the ``move`` line of about 11 KB, the bot reading, parsing and choosing, the
  host reading its ``action``), the median of the game's moves; and the host's own CPU time
  per move (``time.process_time`` around ``choose``);
- the bot's CPU time for the whole game, its start included (``ExecAgent.cpu_seconds``).

It prints the median of the rounds' figures and their spread (the lowest and highest).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import tricky_treats as tt
from tricky_treats.bot_protocol import BotProcess, ExecAgent

BOTS = Path(__file__).resolve().parent.parent / "examples" / "bots"


class _Timed(ExecAgent):
    """An ExecAgent that keeps each move's wait and the host's CPU time for it."""

    def __init__(self, command: list[str]) -> None:
        super().__init__(command)
        self.waits: list[float] = []
        self.host_cpu: list[float] = []

    def choose(
        self, view: tt.PlayerView, legal_actions: Sequence[tt.Action], rng: random.Random
    ) -> tt.Action:
        started, cpu = time.perf_counter(), time.process_time()
        action = super().choose(view, legal_actions, rng)
        self.host_cpu.append(time.process_time() - cpu)
        self.waits.append(time.perf_counter() - started)
        return action


def one_round(command: list[str], seed: int) -> dict[str, float]:
    """One game of the bot against random, and a start of its own; the round's figures."""
    starting = BotProcess(command)
    began = time.perf_counter()
    failure = starting.start()
    start = time.perf_counter() - began
    starting.finish()
    assert failure is None, failure
    bot = _Timed(command)
    tt.play_game(tt.new_game(2, seed=seed), [bot, tt.RandomAgent()], seed=seed)
    assert not bot.fallbacks, bot.fallbacks
    return {
        "start ms": start * 1000,
        "wait ms per move": statistics.median(bot.waits) * 1000,
        "host CPU ms per move": statistics.mean(bot.host_cpu) * 1000,
        "bot CPU ms per game": bot.cpu_seconds * 1000,
    }


def main() -> None:
    """Run the rounds, bots alternating, and print each bot's medians and spreads."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="rounds of each bot (9)")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.rounds = 1
    bots = {"python": [sys.executable, str(BOTS / "python_bot.py")]}
    if shutil.which("node"):
        bots["node"] = ["node", str(BOTS / "js_bot.mjs")]
    else:
        print("(no node on PATH: the JavaScript bot is left out; apt-get install nodejs)")
    figures: dict[str, list[dict[str, float]]] = {name: [] for name in bots}
    for round_ in range(args.rounds):
        for name, command in bots.items():
            figures[name].append(one_round(command, seed=round_))
    for name, rounds in figures.items():
        print(f"{name} bot, {len(rounds)} rounds (median, and the lowest to the highest):")
        for key in rounds[0]:
            values = sorted(r[key] for r in rounds)
            median = statistics.median(values)
            print(f"  {key:>22}: {median:7.2f}  ({values[0]:.2f} to {values[-1]:.2f})")


if __name__ == "__main__":
    main()

"""Opponents' speed: greedy and the learned policy one move at a time against batches.

Run ``python benchmarks/bench_opponents.py`` (``--quick`` for a smoke run of seconds). It prints
figures and asserts nothing. Run it on both builds (``TRICKY_TREATS_COMPILE=1 pip install
--no-deps -e .`` compiles the simulator in place; ``pip install --no-deps -e .`` goes back to
the pure one).

Every figure is choices per CPU second (``time.process_time``), the median of
alternating rounds with the spread (lowest to highest) beside it. Each round takes the
positions of games never dealt before: every state where a player is to move in games played
by random bots, ``--players`` players, in play order.

- ``GreedyAgent.choose(view, legal, rng)``, the view and legal actions made beforehand (what
  a caller holding states pays at least);
- ``GreedyAgent`` from a simulator, as an env's opponent would call it: ``state()``, the
  mover's view, the legal actions, ``choose`` and the action's code;
- ``simulator.greedy_codes`` in batches of 1 and of 64 simulators (one call a batch).

The shipped learned policy likewise (``--bots policy`` or ``both``, the default), in policy
choices per CPU second: ``ValuePolicyAgent.choose(view, legal, rng)`` per game (which values
on the core where it can), the same valued by the rules (as it was before), and
``ValuePolicyAgent.choose_codes`` (the features on the compact core) in batches of 1 and 64.

With ``--env`` (needs the ``gymnasium`` and ``pettingzoo`` extras), the one-seat batched env
(``adapters.gym.TrickyTreatsSeatVectorEnv``, 64 games, 2 players, the agent's legal codes
drawn uniformly) against ``"greedy"`` opponents (``greedy_codes``) and against a loop calling
``GreedyAgent`` per game (as ``"greedy"`` was before), and against ``"policy"`` opponents
(``choose_codes``), in agent steps per CPU second, beside PettingZoo's ``connect_four_v3``
random games (``bench_adapters.py``'s loop) in the same rounds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import tricky_treats as tt
from tricky_treats.simulator import greedy_codes

POLICY_FIRST = "ValuePolicyAgent.choose(view, legal, rng)"

Measure = Callable[[int], tuple[float, int]]
"""One round of a measurement (its number given): the CPU seconds taken and the choices made."""


def positions(players: int, games: int, number: int) -> list[tt.GameState]:
    """Every state with a player to move in ``games`` random games of round ``number``."""
    found: list[tt.GameState] = []
    for seed in range(10**6 + number * games, 10**6 + (number + 1) * games):
        game = tt.new_game(players, seed=seed)
        found += tt.play_game(game, [tt.RandomAgent()] * players, seed=seed)[:-1]
    return found


def measures(players: int, games: int, repeat: int) -> dict[str, Measure]:
    """The four ways of choosing, each over the positions of its round."""
    agent = tt.GreedyAgent()

    def by_view(number: int) -> tuple[float, int]:
        states = positions(players, games, number)
        asked = []
        for state in states:
            seat = state.current_player
            assert seat is not None
            asked.append((state.view(seat), state.legal_actions()))
        rng = random.Random(number)
        begun = time.process_time()
        for view, legal in asked:
            agent.choose(view, legal, rng)
        return time.process_time() - begun, len(asked)

    def by_simulator(number: int) -> tuple[float, int]:
        sims = [tt.Simulator(state) for state in positions(players, games, number)]
        rng = random.Random(number)
        begun = time.process_time()
        for sim in sims:
            state = sim.state()
            seat = state.current_player
            assert seat is not None
            action = agent.choose(state.view(seat), state.legal_actions(), rng)
            sim.action_space.encode(action)
        return time.process_time() - begun, len(sims)

    def batches(size: int) -> Measure:
        def measure(number: int) -> tuple[float, int]:
            sims = [tt.Simulator(state) for state in positions(players, games, number)]
            groups = [sims[at : at + size] for at in range(0, len(sims), size)]
            rng = random.Random(number)
            begun = time.process_time()
            for _ in range(repeat):
                for group in groups:
                    greedy_codes(group, rng)
            return time.process_time() - begun, repeat * len(sims)

        return measure

    return {
        "GreedyAgent.choose(view, legal, rng)": by_view,
        "GreedyAgent from a simulator (state, view, choose, code)": by_simulator,
        "greedy_codes, batches of 1": batches(1),
        "greedy_codes, batches of 64": batches(64),
    }


def policy_measures(players: int, games: int, repeat: int) -> dict[str, Measure]:
    """The shipped policy per game and in batches, each over the positions of its round."""
    from tricky_treats.adapters.policy import ValuePolicyAgent

    class ByRules(ValuePolicyAgent):
        """``ValuePolicyAgent`` as it was before it valued on the core."""

        def _best(self, state: tt.GameState, seat: int, legal: Sequence[tt.Action]) -> tt.Action:
            values = self._values(self._rows(state, seat, legal))
            return legal[int(values.argmax())]

    agent = ValuePolicyAgent.shipped()

    def per_view(chooser: ValuePolicyAgent) -> Measure:
        def measure(number: int) -> tuple[float, int]:
            states = positions(players, games, number)
            asked = []
            for state in states:
                seat = state.current_player
                assert seat is not None
                asked.append((state.view(seat), state.legal_actions()))
            rng = random.Random(number)
            begun = time.process_time()
            for view, legal in asked:
                chooser.choose(view, legal, rng)
            return time.process_time() - begun, len(asked)

        return measure

    def batches(size: int) -> Measure:
        def measure(number: int) -> tuple[float, int]:
            sims = [tt.Simulator(state) for state in positions(players, games, number)]
            groups = [sims[at : at + size] for at in range(0, len(sims), size)]
            begun = time.process_time()
            for _ in range(repeat):
                for group in groups:
                    agent.choose_codes(group)
            return time.process_time() - begun, repeat * len(sims)

        return measure

    return {
        POLICY_FIRST: per_view(agent),
        "ValuePolicyAgent.choose valued by the rules (as before)": per_view(ByRules(agent.weights)),
        "ValuePolicyAgent.choose_codes, batches of 1": batches(1),
        "ValuePolicyAgent.choose_codes, batches of 64": batches(64),
    }


def agent_loop(simulators: Sequence[tt.Simulator], rng: Any) -> list[int]:
    """``GreedyAgent`` called per game, as the env's ``"greedy"`` opponents were before."""
    agent = tt.GreedyAgent()
    codes = []
    for sim in simulators:
        state = sim.state()
        seat = state.current_player
        assert seat is not None
        choice = agent.choose(state.view(seat), state.legal_actions(), random.Random(0))
        codes.append(state.action_space.encode(choice))
    return codes


def env_measures(steps: int, episodes: int, bots: str) -> dict[str, Measure]:
    """The one-seat batched env against the chosen opponents, and connect four."""
    import numpy as np
    from bench_adapters import pettingzoo_steps

    from tricky_treats.adapters.gym import TrickyTreatsSeatVectorEnv

    def env_steps(opponents: Any) -> Measure:
        def measure(number: int) -> tuple[float, int]:
            envs = TrickyTreatsSeatVectorEnv(64, players=2, opponents=opponents)
            rng = np.random.default_rng(number)
            _, infos = envs.reset(seed=10**6 + number * 1000)
            played = 0
            begun = time.process_time()
            while played < steps:
                masks = infos["action_mask"]
                actions = (rng.random(masks.shape) * masks).argmax(axis=1)
                _, _, _, _, infos = envs.step(actions)
                played += 64
            return time.process_time() - begun, played

        return measure

    def connect_four(number: int) -> tuple[float, int]:
        from pettingzoo.classic import connect_four_v3

        rate, played = pettingzoo_steps(connect_four_v3.env, episodes, number * episodes)
        return played / rate, played

    found: dict[str, Measure] = {}
    if bots in ("greedy", "both"):
        found["seat env, 64 games, greedy opponents (greedy_codes)"] = env_steps("greedy")
        found["seat env, 64 games, GreedyAgent per game"] = env_steps(agent_loop)
    if bots in ("policy", "both"):
        found["seat env, 64 games, policy opponents (choose_codes)"] = env_steps("policy")
    try:
        from pettingzoo.classic import connect_four_v3  # noqa: F401 - needs pygame too
    except ImportError:
        print("  (connect_four_v3 left out: PettingZoo's classic games need pygame)")
    else:
        found["PettingZoo connect_four_v3, random games"] = connect_four
    return found


def spread(samples: Sequence[float]) -> str:
    """The median of ``samples``, with the lowest and highest."""
    median, low, high = statistics.median(samples), min(samples), max(samples)
    return f"{median:,.0f} ({low:,.0f} to {high:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, help="players a game")
    parser.add_argument("--games", type=int, default=8, help="random games a round")
    parser.add_argument("--repeat", type=int, default=10, help="passes of greedy_codes a round")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds")
    parser.add_argument("--env", action="store_true", help="also the one-seat env's steps")
    parser.add_argument(
        "--bots", choices=("greedy", "policy", "both"), default="both", help="which opponents"
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    games, repeat, rounds = (1, 1, 1) if args.quick else (args.games, args.repeat, args.rounds)
    build = "compiled" if tt.__compiled__ else "pure"
    print(
        f"tricky-treats {tt.__version__} ({build} build), {args.players} players, load average "
        f"{os.getloadavg()[0]:.2f} at the start; choices per CPU second, the median of "
        f"{rounds} alternating rounds (lowest to highest)"
    )
    found: dict[str, list[float]] = {}
    for number in range(rounds):
        chosen: dict[str, Measure] = {}
        if args.bots in ("greedy", "both"):
            chosen.update(measures(args.players, games, repeat))
        if args.bots in ("policy", "both"):
            chosen.update(policy_measures(args.players, games, repeat))
        for name, measure in chosen.items():
            seconds, work = measure(number)
            found.setdefault(name, []).append(work / seconds)
    first = 1.0
    for name, rates in found.items():
        if name in ("GreedyAgent.choose(view, legal, rng)", POLICY_FIRST):
            first = statistics.median(rates)  # the ratios are to the agent's own choose
        ratio = statistics.median(rates) / first
        print(f"  {name:<58} {spread(rates):>30}  {ratio:5.1f}x")
    if args.env:
        steps, episodes = (128, 2) if args.quick else (1_280, 40)
        print("agent steps per CPU second (connect_four_v3: steps of either player)")
        found = {}
        env = env_measures(steps, episodes, args.bots)
        for number in range(rounds):
            for name, measure in env.items():
                seconds, work = measure(number)
                found.setdefault(name, []).append(work / seconds)
        fours = found.get("PettingZoo connect_four_v3, random games")
        for name, rates in found.items():
            against = ""
            if fours:
                against = (
                    f"  {statistics.median(rates) / statistics.median(fours):.2f}x connect four"
                )
            print(f"  {name:<58} {spread(rates):>30}{against}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end (2 cores idle would be about 0)")


if __name__ == "__main__":
    main()

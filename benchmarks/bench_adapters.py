"""Environment steps per second: Tricky Treats beside PettingZoo's classic games, same run.

Run with ``python benchmarks/bench_adapters.py`` after
``pip install -e '.[pettingzoo,openspiel]' 'pettingzoo[classic]'`` (the classic games need
rlcard and pygame); it prints figures and asserts nothing. Every environment plays the same
loop: ``last()`` (which builds the observation and the action mask), a uniform choice among
the legal actions, ``step()``. A step is one action of a live agent. The OpenSpiel game is
timed the same way (legal actions, observation tensor of the player to act, apply).

The Tricky Treats rows marked "reference encoder" play the same loop with the observations
made as before issue 45, by ``ObservationEncoding.encode`` from the game's view (the
reference), where the others read the observation the core lists (``adapters._encoder``):
the gain of the one encoder, in the same run.

Rates are steps per second of this process's CPU time (``time.process_time``), so other
work on a shared machine does not count against them; the environments take turns, round
after round, and the median round of each is printed with the spread (lowest to highest).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import numpy as np


def pettingzoo_steps(make: Callable[[], Any], episodes: int, seed: int) -> tuple[float, int]:
    """Steps per second and steps played over ``episodes`` random games of one environment."""
    environment = make()
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    for episode in range(episodes):
        environment.reset(seed=seed + episode)
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            environment.step(action)
    elapsed = time.process_time() - start
    environment.close()
    return steps / elapsed, steps


def openspiel_steps(
    players: int, episodes: int, seed: int, reference: bool = False
) -> tuple[float, int]:
    """Steps per second of random play in ``python_tricky_treats``, observing each step.

    The deal's chance nodes are sampled too (their time counts, not their number). With
    ``reference``, the observer encodes the view as it did before the one encoder.
    """
    import pyspiel

    import tricky_treats.adapters.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_tricky_treats", {"players": players})
    rng = np.random.default_rng(seed)
    steps = 0
    with _reference_observer(reference):
        start = time.process_time()
        for _ in range(episodes):
            state = game.new_initial_state()
            while state.is_chance_node():
                state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
            while not state.is_terminal():
                state.observation_tensor(state.current_player())
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.integers(len(actions)))])
                steps += 1
        elapsed = time.process_time() - start
    return steps / elapsed, steps


@contextmanager
def _reference_observer(reference: bool) -> Iterator[None]:
    """With ``reference``, OpenSpiel's observer encodes the view, as before (then restored)."""
    from tricky_treats.adapters.openspiel import TrickyTreatsObserver

    if not reference:
        yield
        return
    made = TrickyTreatsObserver.set_from

    def set_from(observer: Any, state: Any, player: int) -> None:
        game = state.game_state
        if game is None:
            observer.tensor.fill(0)
            return
        encoding = state.get_game().encoding
        observer.tensor[: encoding.size] = encoding.encode(game.view(player))

    TrickyTreatsObserver.set_from = set_from  # type: ignore[method-assign]
    try:
        yield
    finally:
        TrickyTreatsObserver.set_from = made  # type: ignore[method-assign]


def reference_env(**kwargs: Any) -> Any:
    """The PettingZoo env observing as before the one encoder: the view, encoded."""
    from tricky_treats.adapters.pettingzoo import TrickyTreatsEnv

    class ReferenceEnv(TrickyTreatsEnv):
        def observe(self, agent: str) -> dict[str, Any]:
            view = self.game.view(self.agent_name_mapping[agent])
            return {
                "observation": self.encoding.encode(view),
                "action_mask": self.encoding.action_mask(view),
            }

    return ReferenceEnv(**kwargs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=100, help="games per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.episodes = 2
        args.rounds = 1

    import pettingzoo

    from tricky_treats.adapters.pettingzoo import env as tricky_treats_env
    from tricky_treats.adapters.pettingzoo import raw_env

    def classic(name: str) -> Callable[[], Any]:
        return partial(pettingzoo.make, "aec", f"classic/{name}")

    rows: list[tuple[str, Callable[[], tuple[float, int]]]] = []
    for players in (2, 4):
        makers = (
            ("wrapped", tricky_treats_env),
            ("raw", raw_env),
            ("raw, reference encoder", reference_env),
        )
        for label, make in makers:
            rows.append(
                (
                    f"tricky_treats_v1, {players} players ({label})",
                    partial(
                        pettingzoo_steps, partial(make, players=players), args.episodes, args.seed
                    ),
                )
            )
    rows += [
        (
            f"{name} (PettingZoo classic)",
            partial(pettingzoo_steps, classic(name), args.episodes, args.seed),
        )
        for name in ("leduc_holdem_v4", "connect_four_v3", "tictactoe_v3")
    ]
    rows += [
        (
            f"python_tricky_treats, {players} players (OpenSpiel{label})",
            partial(openspiel_steps, players, args.episodes, args.seed, reference),
        )
        for players in (2, 4)
        for label, reference in (("", False), (", reference encoder", True))
    ]

    import tricky_treats as tt

    found: dict[str, list[float]] = {}
    played: dict[str, int] = {}
    skipped: dict[str, str] = {}
    for _ in range(args.rounds):
        for label, run in rows:
            if label in skipped:
                continue
            try:
                rate, steps = run()
            except ImportError as error:  # a classic game whose own dependency is missing
                skipped[label] = str(error)
                continue
            except Exception as error:
                if type(error).__name__ != "FailedToImport":  # pettingzoo.make's ImportError
                    raise
                skipped[label] = str(error)
                continue
            found.setdefault(label, []).append(rate)
            played[label] = steps
    build = "compiled" if tt.__compiled__ else "pure"
    print(
        f"environment steps per CPU second ({build} build), {args.episodes} random games a "
        f"round, median of {args.rounds} alternating rounds (lowest-highest), same run"
    )
    for label, _ in rows:
        if label in skipped:
            print(f"  {label:<62} skipped: {skipped[label]}")
        else:
            rates = found[label]
            spread = f"{min(rates):,.0f}-{max(rates):,.0f}"
            print(
                f"  {label:<62} {statistics.median(rates):>9,.0f} steps/s ({spread}; "
                f"{played[label]:,} steps a round)"
            )


if __name__ == "__main__":
    main()

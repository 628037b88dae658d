"""The cost of ``resample_from_infostate`` in the OpenSpiel game, as IS-MCTS calls it.

Run with ``python benchmarks/bench_openspiel_resample.py`` after ``pip install -e
'.[openspiel]'``; it prints figures and asserts nothing. IS-MCTS resamples the state it
searches from once per simulation, so the figure that matters is the mean time of many
resamples of one state. For fresh states in play order (random games, 2 and 4 players, every
tenth state) it times ``--resamples`` resamples of each state:

- ``new determinizer``: a clone and a ``tt.determinize`` of the view per resample, as
  ``resample_from_infostate`` did before (a ``Determinizer`` built every call);
- ``reused``: ``resample_from_infostate``, which builds the state's determinizer at its
  first resample and reuses it; the first call (which builds it) is printed apart.

Times are microseconds of this process's CPU time (``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel

import tricky_treats as tt
from tricky_treats.adapters.openspiel import GAME_NAME, resample_from_infostate


def states(players: int, games: int, seed: int) -> list[Any]:
    """Every tenth state of ``games`` random games, fresh (never resampled)."""
    game = pyspiel.load_game(GAME_NAME, {"players": players})
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        moves = 0
        while not state.is_terminal():
            if moves % 10 == 0:
                found.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            moves += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4, help="random games per player count")
    parser.add_argument("--resamples", type=int, default=50, help="resamples of each state")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.games = 1
        args.resamples = 3
    for players in (2, 4):
        found = states(players, args.games, args.seed)
        rng = random.Random(args.seed)
        start = time.process_time()
        for state in found:
            player = state.current_player()
            for _ in range(args.resamples):
                # resample_from_infostate as it was: a clone, and tt.determinize of the view.
                sampled = state.clone()
                sampled.game_state = tt.determinize(sampled.game_state.view(player), rng)
        old = (time.process_time() - start) / (len(found) * args.resamples)
        first = later = 0.0
        for state in found:
            player = state.current_player()
            start = time.process_time()
            resample_from_infostate(state, player, rng)
            middle = time.process_time()
            for _ in range(args.resamples - 1):
                resample_from_infostate(state, player, rng)
            first += middle - start
            later += time.process_time() - middle
        new = (first + later) / (len(found) * args.resamples)
        print(
            f"{players} players, {len(found)} states x {args.resamples} resamples: "
            f"new determinizer {old * 1e6:.0f} us a resample; reused {new * 1e6:.0f} us "
            f"(first {first / len(found) * 1e6:.0f} us, then "
            f"{later / (len(found) * (args.resamples - 1)) * 1e6:.0f} us)"
        )


if __name__ == "__main__":
    main()

"""The learned policy against the greedy bot: 2 players, every deal with both seatings.

    python benchmarks/bench_policy.py                  # the shipped policy, 400 games
    python benchmarks/bench_policy.py --policy FILE    # a policy file the trainer wrote

It plays ``--games`` games (``--games / 2`` deals, each twice with the seats swapped) of the
policy against ``GreedyAgent`` through the ladder (``tricky_treats.ladder.play_ladder``:
each bot chooses from its own view, as in any game), and prints the policy's wins, shared
wins and losses, its score (a win 1, a shared win 0.5) with a 95% interval, and each bot's
CPU time per move. The deals start at ``--seed`` (10**9 by default: apart from the deals
the trainer learns and validates on). The interval is the normal approximation of the mean
score, and Wilson's interval of the win rate without the shared wins is printed beside it.
"""

from __future__ import annotations

import argparse
import math
import time

from tricky_treats.ladder import play_ladder


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games, even (400)")
    parser.add_argument("--policy", help="a policy file (default: the shipped policy)")
    parser.add_argument("--seed", type=int, default=10**9, help="the seed of deal 0 (10**9)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.games = 4
        args.jobs = 1
    policy = f"policy:{args.policy}" if args.policy else "policy"
    started, cpu = time.perf_counter(), time.process_time()
    games = play_ladder([policy, "greedy"], args.games, seed=args.seed, jobs=args.jobs)
    elapsed = time.perf_counter() - started
    scores = []
    seconds = {policy: 0.0, "greedy": 0.0}
    moves = {policy: 0, "greedy": 0}
    for game in games:
        seat = game.bots.index(policy)
        scores.append(game.score if seat == 0 else 1.0 - game.score)
        for bot, taken, made in zip(game.bots, game.seconds, game.moves, strict=True):
            seconds[bot] += taken
            moves[bot] += made
    n = len(scores)
    wins = sum(1 for s in scores if s == 1.0)
    shared = sum(1 for s in scores if s == 0.5)
    losses = n - wins - shared
    mean = sum(scores) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1))
    half = 1.96 * spread / math.sqrt(n)
    decided = wins + losses
    p = wins / decided
    z = 1.96
    centre = (p + z * z / (2 * decided)) / (1 + z * z / decided)
    width = z * math.sqrt(p * (1 - p) / decided + z * z / (4 * decided**2)) / (1 + z * z / decided)
    print(f"{policy} against greedy: {n} games ({n // 2} deals, seats swapped), seed {args.seed}")
    print(f"  wins {wins}, shared {shared}, losses {losses}")
    print(f"  score {mean:.1%}, 95% interval {mean - half:.1%} to {mean + half:.1%}")
    print(
        f"  win rate of the decided games {p:.1%}, Wilson 95% interval "
        f"{centre - width:.1%} to {centre + width:.1%}"
    )
    for bot in (policy, "greedy"):
        print(f"  {bot}: {1000 * seconds[bot] / max(moves[bot], 1):.2f} ms CPU per move")
    print(
        f"  {elapsed:.0f} s on {args.jobs} process(es); this process "
        f"{time.process_time() - cpu:.0f} CPU s"
    )


if __name__ == "__main__":
    main()

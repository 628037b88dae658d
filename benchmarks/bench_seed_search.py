"""How long a brute-force search for a game's seed takes: why seeds need 63 bits.

A player record holds no seed, but it shows the public deal: the grid, the street tokens,
the tiles on the mean houses and the opening market. An attacker who deals every candidate
seed and compares finds the seed, and with it the deck order and every secret tile. This
script times that inner loop on one core, in three forms (the library's own ``new_game``; a
bare re-deal that only shuffles as the base game does; and the attacker's best case, which
shuffles only the nice neighbours and rejects almost every seed there), and extrapolates the
time to try every 31-bit and every 63-bit seed.

Run with ``python benchmarks/bench_seed_search.py``; it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

import tricky_treats as tt


def bare_deal(seed: int, sizes: tuple[int, ...]) -> list[list[int]]:
    """Shuffle lists of the base game's sizes in the base game's order, from ``seed``."""
    rng = random.Random(seed)
    dealt = []
    for size in sizes:
        items = list(range(size))
        rng.shuffle(items)
        dealt.append(items)
    return dealt


def rate(deal: object, seeds: int) -> float:
    """Seeds dealt per second by ``deal(seed)``."""
    start = time.perf_counter()
    for seed in range(seeds):
        deal(seed)  # type: ignore[operator]
    return seeds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20_000, help="seeds to time (20,000)")
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds (CI)")
    args = parser.parse_args()
    if args.quick:  # a smoke run: the script still works, the figures mean nothing
        args.seeds = 200
    box = tt.base_components()
    sizes = (
        len(box.nice_neighbours),
        len(box.house_treat_tokens),
        len(box.street_bonus_tokens),
        len(box.trick_tiles),
        len(box.cards),
    )
    forms = {
        "tt.new_game(2, seed)": lambda seed: tt.new_game(2, seed=seed),
        "bare re-deal (shuffles only)": lambda seed: bare_deal(seed, sizes),
        "first shuffle only (rejects)": lambda seed: bare_deal(seed, sizes[:1]),
    }
    print(f"One core, {args.seeds:,} seeds each:")
    for label, deal in forms.items():
        per_second = rate(deal, args.seeds)
        hours_31 = 2**31 / per_second / 3600
        years_63 = 2**63 / per_second / 3600 / 24 / 365
        print(
            f"  {label:30} {per_second:10,.0f} seeds/s; every 31-bit seed: {hours_31:7,.1f} h; "
            f"every 63-bit seed: {years_63:.1e} years"
        )


if __name__ == "__main__":
    main()

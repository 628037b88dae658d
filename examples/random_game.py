"""Play a whole seeded game between random players; print the log and the score sheets.

python examples/random_game.py --players 3 --seed 42
"""

from __future__ import annotations

import argparse
import random

import tricky_treats as tt


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3, help="2 to 4 (default 3)")
    parser.add_argument("--seed", type=int, default=42, help="deals and plays the game")
    args = parser.parse_args(argv)

    game = tt.new_game(players=args.players, seed=args.seed)
    names = game.config.players
    agent = tt.RandomAgent()
    rng = random.Random(args.seed)
    print(f"Tricky Treats, {len(names)} players, seed {args.seed}")
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        action = agent.choose(game.view(seat), game.legal_actions(), rng)
        turn = game.turn + 1
        game, events = game.apply_with_events(action)
        print(f"{turn:3}. {names[seat]}: {action}")
        for event in events:
            print(f"       {tt.describe_event(event, names)}")

    outcome = game.outcome()
    assert outcome is not None
    print()
    print(f"{'player':<10} {'pumpkins':>8} {'costumes':>16} {'tiles':>10} {'total':>6}")
    for sheet in outcome.scores:
        costumes = "+".join(str(points) for points in sheet.costumes)
        tiles = "+".join(str(tile.points) for tile in sheet.trick_tiles)
        print(
            f"{names[sheet.player]:<10} {sheet.pumpkins:>8} {costumes:>16} {tiles:>10} "
            f"{sheet.total:>6}"
        )
    winners = " and ".join(names[w] for w in outcome.winners)
    print(f"\nThe end was triggered by {outcome.termination.value}. Winner: {winners}.")


if __name__ == "__main__":
    main()

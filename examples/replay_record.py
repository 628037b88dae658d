"""Save a game, load it back, and replay its log event by event.

    python examples/replay_record.py [FILE]

Without FILE, a seeded game is played and saved to a temporary file first.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import tricky_treats as tt


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        description="Save a game, load it back, and replay its log event by event."
    )
    parser.add_argument(
        "file", nargs="?", type=Path, help="a game record; without it a seeded game is saved first"
    )
    given: Path | None = parser.parse_args(argv).file
    if given is not None:
        path = given
    else:
        game = tt.new_game(players=["Ann", "Bo"], seed=3)
        final = tt.play_game(game, [tt.GreedyAgent(), tt.RandomAgent()], seed=3)[-1]
        path = Path(tempfile.mkdtemp()) / "game.json"
        path.write_text(tt.dumps(final, indent=1), encoding="utf-8")
    game = tt.loads(path.read_text(encoding="utf-8"))  # checks log, digests and snapshot
    names = game.config.players
    print(f"{path}: {len(names)} players, seed {game.config.seed}, {len(game.history)} actions")

    state = tt.start_game(game.config, game.setup.components)  # the same deal again
    for number, action in enumerate(game.history, start=1):
        state, events = state.apply_with_events(action)
        print(f"{number:3}. {action}: " + "; ".join(tt.describe_event(e, names) for e in events))
    assert state == game
    for sheet in game.scores():
        print(f"{names[sheet.player]}: {sheet.total} points")


if __name__ == "__main__":
    main(sys.argv[1:])

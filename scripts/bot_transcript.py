"""Write the transcript of ``docs/bot-protocol.md``: a whole game of the Python example bot.

    python scripts/bot_transcript.py            # writes docs/bot-transcript.txt
    python scripts/bot_transcript.py --check    # fails if the file is not what a game sends

``examples/bots/python_bot.py`` plays seat 0 against the greedy bot, deal 7; every line the
host and the bot exchange is written, ``>`` for the host's and ``<`` for the bot's. The first
``move`` is spread over several lines with its long lists cut, the others cut to their first
keys. ``tests/test_bot_protocol.py`` runs the check.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import tricky_treats as tt
from tricky_treats.bot_protocol import ExecAgent

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPT = ROOT / "docs" / "bot-transcript.txt"
BOT = ROOT / "examples" / "bots" / "python_bot.py"
SEED = 7


def shortened(value: Any) -> Any:
    """``value`` with every list of more than 3 items cut to its first 2 and a count."""
    if isinstance(value, dict):
        return {key: shortened(item) for key, item in value.items()}
    if isinstance(value, list):
        items = [shortened(item) for item in value]
        return items if len(items) <= 3 else [*items[:2], f"… {len(items) - 2} more"]
    return value


def pretty(value: Any, indent: int) -> str:
    """JSON of ``value``: on one line where that line is short, else an item a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= 96 or not isinstance(value, dict | list) or not value:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {pretty(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [inner + pretty(item, indent + 2) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def shown(direction: str, line: str, first_move: bool) -> str:
    """A line as the transcript shows it: the first move in full but its lists, others cut."""
    command, _, argument = line.partition(" ")
    if command == "move" and first_move:
        return f"{direction} move " + pretty(shortened(json.loads(argument)), len(direction) + 6)
    if command in ("move", "end"):
        message = json.loads(argument)
        parts = [
            f'"{key}": {json.dumps(value)}'
            for key, value in message.items()
            if key in ("time_left", "game_time_left", "winners")
        ]
        if "legal_actions" in message:
            legal = message["legal_actions"]
            listed = ", ".join(json.dumps(a) for a in legal[:3])
            parts.append(f'"legal_actions": [{listed}{", …" if len(legal) > 3 else ""}]')
        return f'{direction} {command} {{{", ".join(parts)}, "view": {{…}}}}'
    return f"{direction} {line}"


def transcript() -> str:
    """The transcript of the example bot's game, as written to the docs."""
    lines: list[str] = []
    moves = 0

    def heard(direction: str, line: str) -> None:
        nonlocal moves
        lines.append(shown(direction, line, first_move=line.startswith("move") and not moves))
        moves += line.startswith("move")

    bot = ExecAgent([sys.executable, str(BOT)], transcript=heard)
    final = tt.play_game(tt.new_game(2, seed=SEED), [bot, tt.GreedyAgent()], seed=SEED)[-1]
    assert not bot.fallbacks, bot.fallbacks
    winners = " and ".join(f"seat {seat}" for seat in final.winners())
    totals = ", ".join(f"seat {s.player} {s.total}" for s in final.scores())
    return "\n".join(lines) + f"\n\n(the winner: {winners}; points: {totals})\n"


def main(argv: list[str]) -> int:
    """Write the transcript, or with ``--check`` say whether the file is still true."""
    text = transcript()
    if "--check" in argv:
        if TRANSCRIPT.read_text(encoding="utf-8") != text:
            print(f"{TRANSCRIPT} is not what a game sends now: run {Path(__file__).name}")
            return 1
        return 0
    TRANSCRIPT.write_text(text, encoding="utf-8")
    print(f"wrote {TRANSCRIPT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""A Tricky Treats bot in Python, speaking the bot protocol (docs/bot-protocol.md).

    tricky-treats ladder --bots "exec:python3 examples/bots/python_bot.py,random,greedy"

It needs Python 3 alone, not the tricky-treats package. It tricks a mean house when it can,
else visits a nice house, one whose pumpkin is still there first; else it puts the market
card on the kid it suits best (sharing the colour or theme of the kid's cards, the more of
them the better); else it refreshes or passes. It draws no random numbers, so it plays the
same way every time.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def send(line: str) -> None:
    print(line, flush=True)  # flush: a line left in the buffer is an answer never given


def choose(move: dict[str, Any]) -> str:
    """One of the move's legal actions, in notation."""
    legal: list[str] = move["legal_actions"]
    view = move["view"]["view"]
    tricks = [a for a in legal if a.startswith("m")]
    if tricks:
        return tricks[0]
    visits = [a for a in legal if a.startswith("v")]
    if visits:  # a house with its pumpkin first (2 points), then the lowest number
        return max(visits, key=lambda a: (view["pumpkin_on_house"][int(a[1:])], -int(a[1:])))
    kids = view["players"][view["player"]]["kids"]

    def suits(action: str) -> int:
        slot, kid = (int(n) for n in action[1:].split("k"))
        card, worn = view["market"][slot], kids[kid]
        theme = all(c["theme"] == card["theme"] for c in worn)
        colour = all(c["colour"] == card["colour"] for c in worn)
        return (len(worn) + 1) * (2 * theme + colour)

    takes = [a for a in legal if a.startswith("t")]
    if takes:
        return max(takes, key=suits)
    return legal[0]  # refresh or pass


def main() -> None:
    for line in sys.stdin:
        command, _, argument = line.strip().partition(" ")
        if command == "hello":
            send("name python-example 1.0")
            send("ready 1")
        elif command == "move":
            send("action " + choose(json.loads(argument)))
        elif command == "quit":
            return
        # "end" needs no answer, and any other command is ignored


if __name__ == "__main__":
    main()

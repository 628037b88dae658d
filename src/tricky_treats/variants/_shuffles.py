"""The base game's shuffles, drawing the very numbers ``random.shuffle`` draws.

The inner loop of every deal, on its own and typed precisely (no attrs class, no hook), so
that a compiled build can compile this module alone; the plain module is the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Shuffle", "fast_shuffles", "plan"]

Shuffle = tuple[list[Any], tuple[tuple[int, int], ...]]
"""What one shuffle starts from, and per draw the position it fills and the bits it draws."""


def plan(items: Sequence[Any]) -> Shuffle:
    """The plan of a shuffle of ``items``: they, and per draw ``(i, (i + 1).bit_length())``.

    ``random.shuffle`` fills each position i from the last down to 1 with the item at a
    position drawn below i + 1: ``getrandbits`` of the bit length of i + 1 until the number
    is at most i.
    """
    return list(items), tuple((i, (i + 1).bit_length()) for i in range(len(items) - 1, 0, -1))


def fast_shuffles(
    getrandbits: Callable[[int], int], shuffles: Sequence[Shuffle]
) -> list[list[Any]]:
    """Each shuffle's items in the order ``random.shuffle`` puts them, one after the other.

    The loop of ``random.shuffle`` written out with the bit lengths worked out once per box,
    which skips two method calls a draw. ``getrandbits`` is the game's
    ``random.Random(seed).getrandbits``.
    """
    shuffled: list[list[Any]] = []
    for start, draws in shuffles:
        items = start[:]
        for i, bits in draws:
            r: int = getrandbits(bits)
            while r > i:
                r = getrandbits(bits)
            items[i], items[r] = items[r], items[i]
        shuffled.append(items)
    return shuffled

"""Small pieces the candy games under ``examples/`` share, beside ``tricky_treats.protocol``.

The protocol gives them the agents, the runner, the console and the record codec; this module
gives the few lines of rules plumbing that were written once per game: the text of an action
(its word, then its fields), the seeded random source every shuffle and roll derives from, the
check of a seat number, returns shared among the winners, a tuple with one item replaced, and
the "legal now" list of a refusal. Private: the games are versioned with this repository, not
promised to anyone else.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, TypeVar

import attrs

__all__ = ["SpokenAction", "check_seat", "legal_now", "replaced", "seeded_random", "shared_returns"]

_T = TypeVar("_T")


@attrs.frozen
class SpokenAction:
    """An action written as its ``word`` then its fields in order: ``accuse 2 red``, ``pass``.

    A subclass sets ``word`` (a class variable, not a field); it overrides ``_written`` where
    a field is written otherwise than ``str()`` writes it. ``parse_action`` reads it back.
    """

    word: ClassVar[str]

    def __str__(self) -> str:
        fields = attrs.astuple(self, recurse=False)
        return " ".join([self.word, *map(self._written, fields)])

    @staticmethod
    def _written(value: object) -> str:
        return str(value)


def seeded_random(seed: int, *keys: object) -> random.Random:
    """The random source of ``seed`` for one purpose named by ``keys`` (a shuffle, a roll).

    Seeded by text, so the stream is the same in every Python process and on every platform.
    """
    return random.Random(":".join(map(str, (seed, *keys))))


def check_seat(player: object, players: int, error: type[Exception]) -> None:
    """Raise ``error`` unless ``player`` names a seat: a whole number from 0 to ``players - 1``."""
    if isinstance(player, bool) or not isinstance(player, int) or player not in range(players):
        raise error(f"no player {player!r:.40}; players are 0 to {players - 1}")


def shared_returns(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """Each seat's share of the result: the winners share 1.0; 0.0 for everybody before the end."""
    return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(players))


def replaced(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """``items`` with the one at ``index`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def legal_now(legal: Sequence[object], most: int | None = None, none: str = "nothing") -> str:
    """The legal actions as a refusal lists them: at most ``most`` of them, or ``none``."""
    shown = legal if most is None else legal[:most]
    listed = ", ".join(map(str, shown)) + (", ..." if len(shown) < len(legal) else "")
    return listed or none

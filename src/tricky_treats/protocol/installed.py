"""Games on the protocol that installed distributions declare: the ladder's other games.

A distribution that builds a game on ``tricky_treats.protocol`` (the candy games under
``examples/`` are three) declares it in the entry-point group ``tricky_treats.games``, the
name players type pointing at a ``GameEntry``::

    [project.entry-points."tricky_treats.games"]
    hack-trick = "hack_trick.ladder_entry:GAME"

``tricky-treats ladder --game NAME`` and ``tricky_treats.ladder.play_ladder(game=NAME)``
find the games here; the engine names none of them. The group is read when a game is asked
for, never at ``import tricky_treats``.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from tricky_treats.errors import ConfigurationError
from tricky_treats.protocol.game import Agent, TurnBasedGame

__all__ = ["GAMES_GROUP", "GameEntry", "installed_games", "load_game"]

GAMES_GROUP = "tricky_treats.games"
"""The entry-point group of the games other distributions declare."""


@attrs.frozen
class GameEntry:
    """What a game declares for the ladder: its 2-player deal and its bots by name."""

    deal: Callable[[int], TurnBasedGame]
    """A 2-player game dealt from a seed: the same seed, the same game."""

    make_bot: Callable[[str], Agent]
    """A bot by its name (``random``, ``greedy``, ...); ``ValueError`` naming the bots if none."""


def installed_games() -> tuple[str, ...]:
    """The names of the games installed distributions declare, sorted."""
    from importlib.metadata import entry_points

    return tuple(sorted({point.name for point in entry_points(group=GAMES_GROUP)}))


def load_game(name: str, *, builtin: str = "tricky-treats") -> GameEntry:
    """The game ``name`` declares; ``ConfigurationError`` if none is installed or it is broken.

    ``builtin`` is named among the choices of the error (the ladder's own game).
    """
    from importlib.metadata import entry_points

    points = [point for point in entry_points(group=GAMES_GROUP) if point.name == name]
    if not points:
        choices = ", ".join([builtin, *installed_games()])
        raise ConfigurationError(
            f"no game {name!r}; choose {choices} (another game is found once the "
            f"distribution that declares it in {GAMES_GROUP!r} is installed)"
        )
    point = points[0]
    try:
        entry = point.load()
    except Exception as error:  # a broken distribution: say which, keep the ladder whole
        raise ConfigurationError(
            f"the game {name!r} ({point.value}) could not be loaded: "
            f"{type(error).__name__}: {error}; reinstall its distribution"
        ) from error
    if not isinstance(entry, GameEntry):
        raise ConfigurationError(
            f"the game {name!r} ({point.value}) is a {type(entry).__name__}, "
            f"not a tricky_treats.protocol.installed.GameEntry"
        )
    return entry

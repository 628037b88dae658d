"""The library's exceptions: one hierarchy rooted in ``TrickyTreatsError``.

Every error the engine raises on bad input is one of these, so a frontend can catch
``TrickyTreatsError`` and show the message, which always names the problem. They also
derive from the matching built-in (``ValueError``, ``IndexError``) so ordinary code that
catches those keeps working.
"""

from __future__ import annotations

__all__ = [
    "ComponentDataError",
    "ConfigurationError",
    "IllegalActionError",
    "InvalidActionError",
    "PolicyFileError",
    "TrickyTreatsError",
    "UnknownPlayerError",
]


class TrickyTreatsError(Exception):
    """Base class of every error raised by tricky-treats."""


class ConfigurationError(TrickyTreatsError, ValueError):
    """A game cannot be created as asked (for example 1 or 5 players)."""


class InvalidActionError(TrickyTreatsError, ValueError):
    """An action or its text notation is malformed: it is no action of this game at all."""


class IllegalActionError(TrickyTreatsError, ValueError):
    """A well-formed action that the rules forbid in this state.

    The message names the rule (``R2``, ``R6``, ...) that forbids it. The state the action
    was applied to is unchanged, as every state is immutable.
    """


class UnknownPlayerError(TrickyTreatsError, IndexError):
    """A player index that does not name a seat of this game."""


class ComponentDataError(TrickyTreatsError, ValueError):
    """A component data file is malformed; the message names the file, entry and problem."""


class PolicyFileError(ConfigurationError):
    """A policy file (``load_policy``, ``policy:FILE``) cannot be used as a bot's policy.

    The message names the file, the problem and how to write a good one. A bot that cannot
    be made is a configuration error, so code catching ``ConfigurationError`` catches it.
    """


def brief(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about hostile input.

    A message must name the bad value without repeating megabytes of it.
    """
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    if len(text) <= limit:
        return text
    return f"{text[: limit - 20]}...({len(text)} characters)"

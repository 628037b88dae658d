"""Tricks & Treats's exceptions, rooted in ``TricksAndTreatsError``."""

from __future__ import annotations

__all__ = [
    "ConfigurationError",
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
    "TricksAndTreatsError",
]


class TricksAndTreatsError(Exception):
    """Base class of every error raised by tricks_and_treats."""


class ConfigurationError(TricksAndTreatsError, ValueError):
    """A match cannot be created as asked (for example 5 players)."""


class InvalidActionError(TricksAndTreatsError, ValueError):
    """Text that is no Tricks & Treats action at all."""


class IllegalActionError(TricksAndTreatsError, ValueError):
    """A well-formed action the rules forbid now; the message names the rule."""


class RecordError(TricksAndTreatsError, ValueError):
    """A JSON record that cannot be read: malformed, another format or an illegal action."""

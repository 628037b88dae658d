"""Candy Chaser's exceptions, rooted in ``CandyChaserError``."""

from __future__ import annotations

__all__ = [
    "CandyChaserError",
    "ConfigurationError",
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
]


class CandyChaserError(Exception):
    """Base class of every error raised by candy_chaser."""


class ConfigurationError(CandyChaserError, ValueError):
    """A match cannot be created as asked (for example 5 players)."""


class InvalidActionError(CandyChaserError, ValueError):
    """Text that is no Candy Chaser action at all."""


class IllegalActionError(CandyChaserError, ValueError):
    """A well-formed action the rules forbid now; the message names the rule."""


class RecordError(CandyChaserError, ValueError):
    """A JSON record that cannot be read: malformed, another format or an illegal action."""

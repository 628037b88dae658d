"""Hack Trick's exceptions, rooted in ``HackTrickError``."""

from __future__ import annotations

__all__ = [
    "ConfigurationError",
    "HackTrickError",
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
]


class HackTrickError(Exception):
    """Base class of every error raised by hack_trick."""


class ConfigurationError(HackTrickError, ValueError):
    """A match cannot be created as asked (for example a target of 0 points)."""


class InvalidActionError(HackTrickError, ValueError):
    """Text that is no Hack Trick action at all."""


class IllegalActionError(HackTrickError, ValueError):
    """A well-formed action the rules forbid now; the message names the rule."""


class RecordError(HackTrickError, ValueError):
    """A JSON record that cannot be read: malformed, another format or an illegal action."""

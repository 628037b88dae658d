"""What a plugin declares itself with: the ``Variant`` record, and the error of a broken plugin.

It sits below both the plugin machinery (``tricky_treats.plugins``) and the built-in variants
(``tricky_treats.variants``), which declare themselves with it: the machinery lists the
built-in variants, and they never import the machinery back.
"""

from __future__ import annotations

import attrs

from tricky_treats.errors import ConfigurationError, TrickyTreatsError

__all__ = ["BUILTIN_DISTRIBUTION", "ENTRY_POINT_GROUP", "PluginError", "Variant"]


ENTRY_POINT_GROUP = "tricky_treats"
BUILTIN_DISTRIBUTION = "tricky-treats"


class PluginError(TrickyTreatsError):
    """A variant plugin is broken: it cannot be loaded, clashes with another, or misbehaves.

    The message names the variant and the distribution it comes from. It never repeats
    what a hook or scoring function raised (its exception's text) nor what a scoring
    function returned: those may hold hidden information, and a host shows messages to
    players. That text is in ``detail``, for the plugin's developer, and the exception the
    plugin raised is the error's ``__cause__``. (A hook that returns the wrong kind of value
    when a game is created is named with that value, cut to 80 characters.)
    """

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail
        """What the plugin wrote (its exception, the value it returned), or None."""


@attrs.frozen
class Variant:
    """A named, versioned variant and the plugin object that implements its hooks.

    ``players`` are the player counts it supports; ``incompatible_with`` names variants it
    cannot be combined with (two variants that replace the same thing are refused anyway).
    ``distribution`` is filled in by the registry: the distribution that registered it.
    ``public_scoring`` declares that the lines of the variant's scoring function are computed
    from public information only (what every player's view shows); only then do other
    players see them during the game. Leave it False if the scorer reads a secret tile or the
    deck: other players' lines then stay out of views until the game is over.
    """

    name: str
    """The name games ask for, lower case without spaces, e.g. ``family``."""
    version: str
    """The variant's version, saved in game records."""
    title: str
    """A short human title."""
    description: str
    """One sentence on what the variant changes."""
    plugin: object = attrs.field(repr=False, eq=False)
    """The object (often a module) whose ``@hookimpl`` functions implement it."""
    players: tuple[int, ...] = (2, 3, 4)
    """The player counts it supports."""
    incompatible_with: tuple[str, ...] = ()
    """Names of variants it cannot be combined with."""
    distribution: str = attrs.field(default=BUILTIN_DISTRIBUTION, eq=False)
    """The distribution that registered it (filled in by the registry)."""
    public_scoring: bool = False
    """Whether its extra score lines may show in other players' views during the game: only
    when they are computed from public information (see docs/writing-a-variant.md)."""

    def __attrs_post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower() or " " in self.name:
            raise ConfigurationError(
                f"variant name {self.name!r} must be lower case without spaces, e.g. 'short-game'"
            )

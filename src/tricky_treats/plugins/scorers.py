"""Variants' scoring functions, as the engine calls them: output checked, failures named."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from tricky_treats.declaration import PluginError
from tricky_treats.plugins.messages import _exception_text, _raised, _short

__all__ = ["MAX_EXTRA_LINES", "MAX_EXTRA_POINTS", "MAX_LABEL_LENGTH"]


# -- scorers -------------------------------------------------------------------------------------

MAX_EXTRA_LINES = 16
"""The most score lines one variant's scoring function may give a player."""
MAX_LABEL_LENGTH = 80
"""The longest label of a score line, in characters."""
MAX_EXTRA_POINTS = 1_000_000
"""The most points (either way) one score line may give: a player record must stay small."""

# Control characters and lone surrogates: a label is one line of text that encodes as UTF-8
# (str.isprintable() is a quick yes; it also refuses some spaces, which the search lets pass).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class _Scorer:
    """A variant's scoring function, as the engine calls it: failures become PluginError.

    ``public`` is the variant's ``public_scoring``: whether other players may see the lines
    during the game.
    """

    __slots__ = ("function", "owner", "public", "variant")

    def __init__(
        self, function: Callable[..., Any], variant: str, owner: str, *, public: bool
    ) -> None:
        self.function = function
        self.variant = variant
        self.owner = owner
        self.public = public

    def __call__(self, state: Any, player: int) -> tuple[Any, ...]:
        try:
            lines = self.function(state, player)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too; the plugin's text stays out (detail)
            raise PluginError(
                f"{self.owner}: its scoring function failed for player {player}{_raised(exc)}",
                detail=_exception_text(exc),
            ) from exc
        extra_score: Any = _extra_score_type()
        kind = type(lines)
        if (kind is tuple or kind is list) and len(lines) <= MAX_EXTRA_LINES:
            for line in lines:
                label = line.label if type(line) is extra_score else None
                points = line.points if label is not None else None
                if (
                    type(label) is not str
                    or type(points) is not int
                    or not -MAX_EXTRA_POINTS <= points <= MAX_EXTRA_POINTS
                    or not 0 < len(label) <= MAX_LABEL_LENGTH
                    or not (label.isprintable() or _UNPRINTABLE.search(label) is None)
                ):
                    break
            else:
                return tuple(lines)
        raise PluginError(
            f"{self.owner}: its scoring function returned what is not a list of at most "
            f"{MAX_EXTRA_LINES} ExtraScore(label, points) for player {player}: each label a "
            f"string of 1 to {MAX_LABEL_LENGTH} printable characters, each points an int "
            f"from {-MAX_EXTRA_POINTS:,} to {MAX_EXTRA_POINTS:,}",
            detail=_lines_problem(lines),
        )

    def __repr__(self) -> str:
        return f"_Scorer({self.function!r}, variant={self.variant!r}, public={self.public!r})"


def _lines_problem(lines: Any) -> str:
    """What is wrong with a scoring function's result, for ``PluginError.detail``."""
    if type(lines) not in (tuple, list):
        return f"it returned {_short(lines)}"
    if len(lines) > MAX_EXTRA_LINES:
        return f"it returned {len(lines):,} lines"
    extra_score: Any = _extra_score_type()
    for i, line in enumerate(lines):
        if type(line) is not extra_score:
            return f"line {i} is {_short(line)}"
        if type(line.points) is not int:
            return f"line {i} has points {_short(line.points)}"
        if not -MAX_EXTRA_POINTS <= line.points <= MAX_EXTRA_POINTS:
            return f"line {i} has points of {line.points.bit_length()} bits"
        label = line.label
        if type(label) is not str or not 0 < len(label) <= MAX_LABEL_LENGTH:
            return f"line {i} has the label {_short(label)}"
        if _UNPRINTABLE.search(label) is not None:
            return f"line {i} has a label with a control character or a lone surrogate"
    return "no problem"  # pragma: no cover - only called for a result that was refused


@functools.cache
def _extra_score_type() -> type:
    from tricky_treats.scoring import ExtraScore  # imported late, as the model is

    return ExtraScore

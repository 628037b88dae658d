"""Actions: small immutable values with a text notation and a stable integer encoding.

| action | notation | meaning |
|---|---|---|
| ``TakeCard(2, 4)`` | ``t2k4`` | take the market card in slot 2, put it on kid 4 |
| ``VisitHouse(5)`` | ``v5`` | visit nice house 5 of the grid (row-major) |
| ``TrickHouse(1)`` | ``m1`` | trick mean house 1 |
| ``RefreshMarket()`` | ``refresh`` | discard the market and reveal a new one (R8) |
| ``Pass()`` | ``pass`` | pass the turn (R11) |

All indices count from 0. ``parse_action(str(action)) == action`` for every action.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import attrs

from tricky_treats.errors import InvalidActionError, brief

__all__ = [
    "Action",
    "ActionSpace",
    "Pass",
    "RefreshMarket",
    "TakeCard",
    "TrickHouse",
    "VisitHouse",
    "parse_action",
]


def _index(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidActionError(
            f"{type(instance).__name__}.{attribute.name} must be a whole number >= 0, "
            f"got {brief(value)}"
        )


@attrs.frozen
class TakeCard:
    """Take the market card in ``slot`` and place it on top of ``kid`` (rulebook action A)."""

    slot: int = attrs.field(validator=_index)
    """The market slot to take the card from, from 0."""
    kid: int = attrs.field(validator=_index)
    """The kid to put the card on, from 0."""

    def __str__(self) -> str:
        return f"t{self.slot}k{self.kid}"


@attrs.frozen
class VisitHouse:
    """Visit nice house ``house`` of the 3x3 grid, numbered row by row (action B1)."""

    house: int = attrs.field(validator=_index)
    """The nice house, 0 to 8, row by row."""

    def __str__(self) -> str:
        return f"v{self.house}"


@attrs.frozen
class TrickHouse:
    """Trick mean house ``house`` (action B2)."""

    house: int = attrs.field(validator=_index)
    """The mean house, 0 to 2."""

    def __str__(self) -> str:
        return f"m{self.house}"


@attrs.frozen
class RefreshMarket:
    """Discard a market whose 5 cards share a type, theme or colour and reveal 5 more (R8)."""

    def __str__(self) -> str:
        return "refresh"


@attrs.frozen
class Pass:
    """Pass the turn; only legal when no other action is (R11, R18)."""

    def __str__(self) -> str:
        return "pass"


Action = TakeCard | VisitHouse | TrickHouse | RefreshMarket | Pass
"""Any action of the game."""

# ASCII digits only (\d would take "٣"), and few of them: no game has 1000 of anything.
_NOTATION = re.compile(r"t([0-9]{1,3})k([0-9]{1,3})|v([0-9]{1,3})|m([0-9]{1,3})|(refresh)|(pass)")
_MAX_NOTATION = 32
"""The longest action text read; longer text is refused before it is parsed."""


def parse_action(text: str) -> Action:
    """Read an action from its text notation (``t2k4``, ``v5``, ``m1``, ``refresh``, ``pass``).

    Surrounding white space and letter case are ignored. Raises
    ``InvalidActionError`` for text that is no action; whether the action
    is legal in a given state is for ``GameState.apply()`` to say.

    >>> parse_action("t2k4")
    TakeCard(slot=2, kid=4)
    >>> parse_action(str(VisitHouse(5)))
    VisitHouse(house=5)
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"action notation must be a string, got {brief(text)}")
    match = _NOTATION.fullmatch(text.strip().lower()) if len(text) <= _MAX_NOTATION else None
    if match is None:
        raise InvalidActionError(
            f"{brief(text)} is not an action: expected 't<slot>k<kid>' (take a card), "
            "'v<house>' (visit), 'm<house>' (trick), 'refresh' or 'pass', with indices "
            "written in ASCII digits"
        )
    slot, kid, visit, trick, refresh, _ = match.groups()
    if slot is not None:
        return TakeCard(int(slot), int(kid))
    if visit is not None:
        return VisitHouse(int(visit))
    if trick is not None:
        return TrickHouse(int(trick))
    return RefreshMarket() if refresh else Pass()


@attrs.frozen
class ActionSpace:
    """Every action a game of one configuration can have, each with a fixed integer.

    The integers run from 0 to ``size - 1``: first the takes (slot by slot, kid by kid), then
    the nice houses, the mean houses, refresh and pass. The same order is the canonical order
    of ``GameState.legal_actions()``. Search and reinforcement-learning code can use
    ``encode()`` and ``decode()`` as the action index.

    >>> space = ActionSpace(market_size=5, kids=5)
    >>> space.size
    39
    >>> space.encode(TakeCard(2, 4)), space.decode(38)
    (14, Pass())
    """

    market_size: int = 5
    """Market slots: the takes run over slots ``0`` to ``market_size - 1``."""
    kids: int = 5
    """Kids per player: the takes run over kids ``0`` to ``kids - 1``."""
    nice_houses: int = 9
    """Nice houses in the grid (9), for the visits."""
    mean_houses: int = 3
    """Mean houses (3), for the tricks."""
    actions: tuple[Action, ...] = attrs.field(init=False, repr=False, eq=False)
    """Every action of the space, in the order of its integers."""

    def __attrs_post_init__(self) -> None:
        actions: list[Action] = [
            TakeCard(slot, kid) for slot in range(self.market_size) for kid in range(self.kids)
        ]
        actions += [VisitHouse(h) for h in range(self.nice_houses)]
        actions += [TrickHouse(h) for h in range(self.mean_houses)]
        actions += [RefreshMarket(), Pass()]
        object.__setattr__(self, "actions", tuple(actions))

    @functools.cached_property
    def _codes(self) -> dict[Action, int]:
        return {action: code for code, action in enumerate(self.actions)}

    @property
    def size(self) -> int:
        """How many actions there are; their integers are ``range(size)``."""
        return len(self.actions)

    def encode(self, action: Action) -> int:
        """The integer of ``action``; raises InvalidActionError if it is outside this space."""
        try:
            return self._codes[action]
        except (KeyError, TypeError):
            raise InvalidActionError(
                f"{action!r} is not an action of a game with {self.market_size} market slots, "
                f"{self.kids} kids, {self.nice_houses} nice and {self.mean_houses} mean houses"
            ) from None

    def decode(self, code: int) -> Action:
        """The action with integer ``code``; raises InvalidActionError if out of range."""
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < self.size:
            raise InvalidActionError(
                f"action code must be a whole number from 0 to {self.size - 1}, got {brief(code)}"
            )
        return self.actions[code]

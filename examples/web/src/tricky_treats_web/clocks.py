"""A table's time and its absent players: time controls, clocks, presence and takeover.

Every web table has a ``TablePolicy``, fixed when it is made and stored with the game: its
time control (``TimeControl``: none, a time for each turn, or a bank with an increment), its
*grace* and its *takeover bot*. A seat whose player has been away (no socket open, on any
process) for the grace, or whose time has run out and the grace after it, is played by the
takeover bot; a player who comes back takes the seat again.

A turn is a seat's time to act: from the moment it is the player to act until another seat
is (a refresh, which is no turn by rule P5, does not end it). ``Clock`` is the clocks after a
move: when the turn of the seat to act began (``at``, seconds since the epoch by the server's
clock) and each seat's time left then. It is stored with each move, so that the time left is
always computed from stored times: a process that follows the move, or loads the game after a
restart, finds the same clocks.

Times are wall-clock seconds: the server processes of one store must agree on the time (NTP).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Literal

import attrs

import tricky_treats as tt

__all__ = [
    "MAX_SECONDS",
    "Clock",
    "SeatPresence",
    "TablePolicy",
    "TimeControl",
    "turn_ended",
]

MAX_SECONDS = 7 * 24 * 3600.0
"""The longest time control, grace or increment: a week (a correspondence game)."""

_SPEC = re.compile(r"(move|bank):(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?")


def _seconds(name: str, value: object, least: float) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not least <= value <= MAX_SECONDS
    ):
        raise tt.ConfigurationError(
            f"{name} must be a number of seconds from {least:g} to {MAX_SECONDS:g}, "
            f"got {tt.errors.brief(value)}"
        )
    return float(value)


@attrs.frozen
class TimeControl:
    """How long each seat may think: ``seconds`` for each turn, or a bank for the game.

    ``mode`` is ``move`` (every turn has ``seconds``) or ``bank`` (``seconds`` for the whole
    game, and ``increment`` more after each turn, as a chess clock's Fischer increment).
    Written ``move:30`` and ``bank:300+5`` (``TimeControl.parse``, ``str``).
    """

    mode: Literal["move", "bank"]
    seconds: float
    increment: float = 0.0

    def __attrs_post_init__(self) -> None:
        if self.mode not in ("move", "bank"):
            raise tt.ConfigurationError(f"a time control is 'move' or 'bank', got {self.mode!r}")
        _seconds("the time control", self.seconds, 1.0)
        _seconds("the increment", self.increment, 0.0)
        if self.mode == "move" and self.increment:
            raise tt.ConfigurationError("only a bank takes an increment ('bank:300+5')")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``move:SECONDS`` or ``bank:SECONDS[+INCREMENT]``; ``ConfigurationError`` else."""
        found = _SPEC.fullmatch(text.strip()) if isinstance(text, str) and len(text) < 40 else None
        if found is None:
            raise tt.ConfigurationError(
                "a time control is 'move:SECONDS' (each turn) or 'bank:SECONDS+INCREMENT' "
                f"(for the game, and more after each turn), got {tt.errors.brief(text)}"
            )
        seconds, increment = float(found.group(2)), float(found.group(3) or 0)
        if found.group(1) == "move":
            return cls("move", seconds, increment)
        return cls("bank", seconds, increment)

    def __str__(self) -> str:
        text = f"{self.mode}:{self.seconds:g}"
        return f"{text}+{self.increment:g}" if self.mode == "bank" else text


@attrs.frozen
class TablePolicy:
    """A table's clock and takeover rules, fixed when it is made (stored with the game)."""

    time_control: TimeControl | None
    """The clock; None: no clock (an absent seat is still taken over after the grace)."""
    grace: float
    """Seconds a seat may be away, or out of time, before the takeover bot plays it."""
    takeover: str
    """The bot that plays a seat away or out of time: a built-in bot's name (``greedy``,
    ``search:200``) or a program the host allows (``tricky-treats-web serve
    --allow-exec-bot``)."""
    started: float
    """When the table was made (seconds since the epoch): its clocks start then, and a seat
    that never connected is away since then."""

    def __attrs_post_init__(self) -> None:
        _seconds("the grace", self.grace, 0.0)
        if not isinstance(self.takeover, str) or not 0 < len(self.takeover) <= 64:
            raise tt.ConfigurationError("the takeover bot is named by a short string")

    def to_json(self) -> str:
        """The policy as the store keeps it (JSON text)."""
        return json.dumps(
            {
                "time_control": None if self.time_control is None else str(self.time_control),
                "grace": self.grace,
                "takeover": self.takeover,
                "started": self.started,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> TablePolicy:
        """A policy the store kept; ``tt.RecordError`` if the text is not one."""
        try:
            value = json.loads(text)
            control = value["time_control"]
            return cls(
                None if control is None else TimeControl.parse(control),
                value["grace"],
                value["takeover"],
                float(value["started"]),
            )
        except (ValueError, KeyError, TypeError, tt.TrickyTreatsError) as exc:
            raise tt.RecordError(f"a table's policy {text[:80]!r}: {exc}") from None

    def start(self, seats: int) -> Clock | None:
        """The clocks of a new table (None without a time control): every seat's full time."""
        if self.time_control is None:
            return None
        return Clock(self.started, (self.time_control.seconds,) * seats)

    def describe(self) -> dict[str, Any]:
        """What clients are told of the policy (``clock`` and ``takeover`` of the messages)."""
        control = self.time_control
        return {
            "mode": None if control is None else control.mode,
            "seconds": None if control is None else control.seconds,
            "increment": None if control is None else control.increment,
            "grace": self.grace,
            "takeover": self.takeover,
        }


@attrs.frozen
class Clock:
    """The clocks after a move: when the current turn began, and each seat's time left then."""

    at: float
    """When the turn of the seat to act began (seconds since the epoch)."""
    left: tuple[float, ...]
    """Each seat's time left at ``at``, in seconds (its whole time, for the seat to act)."""

    def running_left(self, seat: int, now: float) -> float:
        """``seat``'s time left at ``now`` if it is the seat to act (negative: out of time)."""
        return self.left[seat] - (now - self.at)

    def after_turn(self, control: TimeControl, seat: int | None, now: float) -> Clock:
        """The clocks once ``seat``'s turn ended at ``now``: it pays the time it took.

        With a bank, ``seat`` keeps what it had left (never below 0) and gets the increment;
        with a time per turn, its next turn has the whole time again. ``seat`` None (a bot's
        turn, no clock's) pays nothing. The next turn begins at ``now``.
        """
        left = list(self.left)
        if seat is not None:
            if control.mode == "bank":
                left[seat] = max(0.0, self.running_left(seat, now)) + control.increment
            else:
                left[seat] = control.seconds
        return Clock(now, tuple(left))

    def to_json(self) -> str:
        """The clocks as a move's row keeps them (JSON text), to the millisecond."""
        return json.dumps({"at": round(self.at, 3), "left": [round(x, 3) for x in self.left]})

    @classmethod
    def from_json(cls, text: str, seats: int) -> Clock:
        """The clocks a move's row kept; ``tt.RecordError`` if the text is not ``seats`` of them."""
        try:
            value = json.loads(text)
            left = tuple(float(x) for x in value["left"])
            if len(left) != seats or not all(math.isfinite(x) for x in left):
                raise ValueError(f"expected {seats} times")
            return cls(float(value["at"]), left)
        except (ValueError, KeyError, TypeError) as exc:
            raise tt.RecordError(f"a move's clock {text[:80]!r}: {exc}") from None


@attrs.frozen
class SeatPresence:
    """Whether a human seat's player is at the table, over every process of the store."""

    seat: int
    connected: bool
    """Some socket of the seat is open, on some process."""
    away_since: float | None
    """When its last socket closed (or the table was made, if it never had one): seconds since
    the epoch by this process's clock; None while connected."""

    def away_for(self, now: float) -> float | None:
        """How long the seat has been away at ``now``; None while connected."""
        return None if self.away_since is None else max(0.0, now - self.away_since)


def turn_ended(mover: int, actions: int, after: int | None) -> bool:
    """Whether ``mover``'s turn ended with a stored move of ``actions`` actions.

    It goes on only after one action, its own, that leaves it to act again (a refresh); a
    move of several actions holds the bots' that followed, and ended it.
    """
    return not (actions == 1 and after == mover)

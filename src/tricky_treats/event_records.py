"""Events as JSON: every event as an object with a stable ``type`` tag.

``event_to_json(event)`` gives a JSON-ready dict (``{"type": "card-placed", "player": 0,
...}``) and ``event_from_json(value)`` reads it back as an equal event; the conversion is the
library's own cattrs converter, so cards, tiles and treats look exactly as in records and
views. The format is versioned (``EVENT_FORMAT_VERSION``) and described by a JSON Schema that
ships in the package (``event_schema()``). Events only hold public facts (R16), so every
player may be sent every event.

>>> import tricky_treats as tt
>>> game = tt.new_game(players=2, seed=1)
>>> game, events = game.apply_with_events(tt.TakeCard(0, 0))
>>> event_to_json(events[0])["type"]
'card-placed'
>>> event_from_json(event_to_json(events[0])) == events[0]
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tricky_treats._json import StrictJSONError, strict_loads
from tricky_treats.components import COMPONENT_LIMITS, ComponentData
from tricky_treats.errors import brief
from tricky_treats.events import (
    CardPlaced,
    CardRevealed,
    EndTriggered,
    Event,
    GameOver,
    HouseTricked,
    HouseVisited,
    MarketRefreshed,
    Passed,
    PumpkinTaken,
    StreetBonusTaken,
)
from tricky_treats.serialization.schemas import _schema
from tricky_treats.serialization.shapes import RecordError, _converter, _structure

__all__ = [
    "EVENT_FORMAT",
    "EVENT_FORMAT_VERSION",
    "EVENT_TAGS",
    "MAX_EVENT_BYTES",
    "event_from_json",
    "event_schema",
    "event_to_json",
]

EVENT_FORMAT = "tricky-treats-event"
EVENT_FORMAT_VERSION = 1

EVENT_TAGS: Mapping[type, str] = {
    CardPlaced: "card-placed",
    CardRevealed: "card-revealed",
    MarketRefreshed: "market-refreshed",
    HouseVisited: "house-visited",
    HouseTricked: "house-tricked",
    PumpkinTaken: "pumpkin-taken",
    StreetBonusTaken: "street-bonus-taken",
    Passed: "passed",
    EndTriggered: "end-triggered",
    GameOver: "game-over",
}
"""The stable tag of each event class (the ``type`` key), as for actions in records."""

_EVENT_CLASSES = {tag: cls for cls, tag in EVENT_TAGS.items()}

MAX_EVENT_BYTES = 64 * 1024
"""The longest event text ``event_from_json`` reads (an event is a few hundred bytes)."""

_MOST_PLAYERS = COMPONENT_LIMITS["players"][1]
_MOST_CARDS_SHOWN = COMPONENT_LIMITS["market_size"][1]
# The numbers of an event: each field's highest value, from the rules' own limits (a seat of
# the largest game, a slot of the largest market, a house of the grid, ...). A hand-written
# event out of range is refused here rather than failing later, in describe_event.
_FIELD_MAXIMA: Mapping[str, int] = {
    "player": _MOST_PLAYERS - 1,
    "slot": _MOST_CARDS_SHOWN - 1,
    "kid": COMPONENT_LIMITS["kids_per_player"][1] - 1,
    "house": ComponentData.GRID_HOUSES - 1,
    "street": ComponentData.STREETS - 1,
    "matching": COMPONENT_LIMITS["tier_cards"][1],
    "treats": max(COMPONENT_LIMITS["tier_treats"][1], COMPONENT_LIMITS["street_token_treats"][1]),
}


def event_to_json(event: Event) -> dict[str, Any]:
    """``event`` as a JSON-ready dict with its ``type`` tag first."""
    tag = EVENT_TAGS.get(type(event))
    if tag is None:
        raise TypeError(f"not an event: {event!r}")
    fields: dict[str, Any] = _converter.unstructure(event)
    return {"type": tag, **fields}


def event_from_json(value: object) -> Event:
    """Read an event written by ``event_to_json`` (a dict, or its JSON text).

    Raises ``RecordError`` naming the JSON path at fault for anything malformed: an unknown
    ``type``, a missing or extra key, a value of the wrong kind, a number no game could hold
    (a seat, slot, kid, house or street beyond the rules' limits), text over
    ``MAX_EVENT_BYTES``.
    """
    if isinstance(value, str | bytes):
        try:
            value = strict_loads(value, max_bytes=MAX_EVENT_BYTES)
        except StrictJSONError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise RecordError(f"$: expected an event object, got {brief(value, 80)}")
    tag = value.get("type")
    cls = _EVENT_CLASSES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        tags = ", ".join(EVENT_TAGS.values())
        raise RecordError(f"$.type: unknown event type {_shown(tag)} (one of {tags})")
    fields = {k: v for k, v in value.items() if k != "type"}
    event: Event = _structure(fields, cls, "$")
    _check_ranges(event)
    return event


def _shown(tag: object) -> str:
    """A tag as JSON, cut short: the message must not repeat megabytes of input."""
    if tag is None:
        return "null"
    if isinstance(tag, str):
        return json.dumps(tag[:60]) + ("..." if len(tag) > 60 else "")
    return brief(tag)


def _check_ranges(event: Event) -> None:
    """Raise RecordError for a number no game of the rules' limits could put in ``event``."""
    for name, highest in _FIELD_MAXIMA.items():
        number = getattr(event, name, None)
        if type(number) is int and not 0 <= number <= highest:
            raise RecordError(f"$.{name}: expected 0 to {highest}, got {brief(number)}")
    if isinstance(event, GameOver):
        winners = event.winners
        if len(winners) > _MOST_PLAYERS or any(not 0 <= seat < _MOST_PLAYERS for seat in winners):
            raise RecordError(
                f"$.winners: expected at most {_MOST_PLAYERS} seats from 0 to "
                f"{_MOST_PLAYERS - 1}, got {brief(winners)}"
            )
    if isinstance(event, MarketRefreshed) and len(event.discarded) > _MOST_CARDS_SHOWN:
        raise RecordError(
            f"$.discarded: expected at most {_MOST_CARDS_SHOWN} cards (a market), "
            f"got {len(event.discarded):,}"
        )


def event_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one event, as shipped in the package."""
    return _schema(f"event-v{EVENT_FORMAT_VERSION}.schema.json")

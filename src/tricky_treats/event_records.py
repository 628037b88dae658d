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
from tricky_treats.serialization import RecordError, _converter, _schema, _structure

__all__ = [
    "EVENT_FORMAT",
    "EVENT_FORMAT_VERSION",
    "EVENT_TAGS",
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
    ``type``, a missing or extra key, a value of the wrong kind.
    """
    if isinstance(value, str | bytes):
        try:
            value = json.loads(value)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise RecordError(f"$: expected an event object, got {json.dumps(value)[:80]}")
    tag = value.get("type")
    cls = _EVENT_CLASSES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        tags = ", ".join(EVENT_TAGS.values())
        raise RecordError(f"$.type: unknown event type {json.dumps(tag)} (one of {tags})")
    fields = {k: v for k, v in value.items() if k != "type"}
    event: Event = _structure(fields, cls, "$")
    return event


def event_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one event, as shipped in the package."""
    return _schema(f"event-v{EVENT_FORMAT_VERSION}.schema.json")

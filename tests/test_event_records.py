"""Events as JSON: a stable type tag per event, an exact round trip, the shipped schema."""

from __future__ import annotations

import itertools
import json
import typing

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats.testing.strategies import game_specs, played_games

VARIANTS = ("family", "open-objectives", "any-mean-house")


def _events(states: list[tt.GameState]) -> list[tt.Event]:
    events: list[tt.Event] = []
    for before, after in itertools.pairwise(states):
        _, caused = before.apply_with_events(after.history[-1])
        events.extend(caused)
    return events


@given(played_games(game_specs(variants=VARIANTS), max_actions=300))
def test_every_event_round_trips_through_json_and_matches_the_schema(
    states: list[tt.GameState],
) -> None:
    validator = jsonschema.Draft202012Validator(tt.event_schema())
    for event in _events(states):
        document = tt.event_to_json(event)
        assert document["type"] == tt.event_records.EVENT_TAGS[type(event)]
        validator.validate(document)
        text = json.dumps(document)
        assert tt.event_from_json(text) == event
        assert tt.event_from_json(json.loads(text)) == event


def test_every_event_class_has_a_distinct_tag_and_a_schema_branch() -> None:
    tags = list(tt.event_records.EVENT_TAGS.values())
    assert len(set(tags)) == len(tags) == len(typing.get_args(tt.Event))
    branches = {b["properties"]["type"]["const"] for b in tt.event_schema()["oneOf"]}
    assert branches == set(tags)
    jsonschema.Draft202012Validator.check_schema(tt.event_schema())


def test_a_whole_game_shows_the_common_events_with_their_fields() -> None:
    game = tt.new_game(players=3, seed=11)
    states = tt.play_game(game, [tt.GreedyAgent()] * 3, seed=1)
    kinds = {tt.event_to_json(e)["type"] for e in _events(states)}
    assert {"card-placed", "card-revealed", "house-visited", "game-over"} <= kinds
    placed = tt.event_to_json(_events(states[:2])[0])
    assert placed == {
        "type": "card-placed",
        "player": 0,
        "slot": placed["slot"],
        "kid": placed["kid"],
        "card": {
            "id": placed["card"]["id"],
            "colour": placed["card"]["colour"],
            "theme": placed["card"]["theme"],
            "type": placed["card"]["type"],
            "icon": placed["card"]["icon"],
        },
    }


def test_end_triggered_and_game_over_read_back() -> None:
    for event in (tt.EndTriggered(1, tt.Termination.DEADLOCK), tt.GameOver((0, 2)), tt.Passed(3)):
        assert tt.event_from_json(tt.event_to_json(event)) == event


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "expected an event object"),
        ({"type": "card-stolen"}, 'unknown event type "card-stolen"'),
        ({"player": 0}, "unknown event type null"),
        ({"type": "passed"}, "required field missing @ $.player"),
        ({"type": "passed", "player": "0"}, 'expected an integer, got "0" @ $.player'),
        ({"type": "passed", "player": 0, "extra": 1}, "unknown key extra"),
        ({"type": "game-over", "winners": [True]}, "expected an integer"),
        ({"type": "end-triggered", "player": 0, "reason": "boredom"}, "boredom"),
    ],
)
def test_malformed_events_are_refused_with_the_path(value: object, message: str) -> None:
    with pytest.raises(tt.RecordError) as info:
        tt.event_from_json(value)
    assert message in str(info.value)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
)


@given(
    _JSON
    | st.fixed_dictionaries(
        {"type": st.sampled_from(list(tt.event_records.EVENT_TAGS.values()))},
        optional={"player": _JSON, "house": _JSON, "winners": _JSON},
    )
)
def test_fuzzed_values_are_refused_cleanly_or_read(value: object) -> None:
    try:
        event = tt.event_from_json(value)
    except tt.RecordError:
        return
    assert tt.event_from_json(tt.event_to_json(event)) == event

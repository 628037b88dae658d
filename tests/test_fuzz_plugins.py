"""Hostile plugin output and hostile events from Hypothesis (issue 27, items 11, 12 and 18).

Only the library's own exceptions may come out, and what the library writes must load: a
player record made with any scoring function's lines either loads with ``loads_view`` or is
refused with ``PluginError`` before it is written; an event that ``event_from_json`` accepts
can be told by ``describe_event`` for any game of the rules' limits.
"""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tests.boards import random_playout
from tests.registry import registered_variants
from tricky_treats import plugins
from tricky_treats.event_records import event_from_json, event_to_json
from tricky_treats.host import Table

# -- a scoring function returning whatever Hypothesis draws -----------------------------------------

_DRAWN: list[object] = [()]


def _drawn_lines(state: tt.GameState, player: int) -> object:
    return _DRAWN[0]


class _Scoring:
    @tt.hookimpl
    def tricky_treats_scoring(self) -> object:
        return _drawn_lines


_VARIANT = tt.Variant(
    name="drawn",
    version="0",
    title="drawn",
    description="scores what Hypothesis draws",
    plugin=_Scoring(),
    public_scoring=True,
)

_LIMIT = plugins.MAX_EXTRA_POINTS
LABELS = st.text(st.characters(codec=None, exclude_categories=()), max_size=90) | st.sampled_from(
    ["", "x" * plugins.MAX_LABEL_LENGTH, "\ud800", "\x1b[2J", "tab\there"]
)
POINTS = st.integers(-2 * _LIMIT, 2 * _LIMIT) | st.sampled_from(
    [10**5000, -(10**5000), _LIMIT, -_LIMIT, _LIMIT + 1, 2**63]
)
LINE = st.builds(tt.ExtraScore, LABELS, POINTS) | st.sampled_from(
    [None, ("label", 1), tt.ExtraScore("ok", True), tt.ExtraScore(5, 1)]  # type: ignore[arg-type]
)
OUTPUT = (
    st.lists(LINE, max_size=plugins.MAX_EXTRA_LINES + 2)
    | st.lists(LINE, max_size=3).map(tuple)
    | st.sampled_from([None, 5, "lines", {"a": 1}])
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(OUTPUT)
def test_any_scorer_output_gives_a_record_that_loads_or_plugin_error(output: object) -> None:
    _DRAWN[0] = output
    game = tt.new_game(3, seed=1, variants=[_VARIANT])
    try:
        text = tt.dumps(game, player=1)
    except tt.PluginError:
        return
    with registered_variants(_VARIANT):
        view = tt.loads_view(text)
    assert len(text.encode()) <= tt.MAX_RECORD_BYTES
    assert view.scores[0].extras == tuple(output)  # type: ignore[arg-type]
    table = Table(game)
    table.connect(table.credential(1)).text.encode()  # a Table's message encodes as UTF-8


# -- events ------------------------------------------------------------------------------------------

_STATES = random_playout(4, 5)
_EVENTS = [
    event_to_json(event)
    for before, after in itertools.pairwise(_STATES)
    for event in before.apply_with_events(after.history[-1])[1]
]
_NAMES = [f"Player {i}" for i in range(8)]  # the most players any game has

HOSTILE = st.sampled_from(
    [10**4000, -1, 8, 9, 10, 100, 101, 2**63, 1.5, True, None, "0", [0] * 9, list(range(20))]
)
VALUE = HOSTILE | st.integers() | st.lists(st.integers(-2, 12), max_size=12)


@st.composite
def mutated_events(draw: st.DrawFn) -> dict[str, Any]:
    """A real event with one to three of its values replaced."""
    event: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(_EVENTS)))
    keys = [k for k in event if k != "type"]
    for _ in range(draw(st.integers(1, 3))):
        if keys:
            event[draw(st.sampled_from(keys))] = draw(VALUE)
    return event


@given(mutated_events())
def test_mutated_events_load_only_as_events_a_game_could_hold(event: dict[str, Any]) -> None:
    for value in (event, json.dumps(event)):
        try:
            loaded = event_from_json(value)
        except tt.RecordError:
            continue
        assert event_from_json(event_to_json(loaded)) == loaded
        assert tt.describe_event(loaded, _NAMES)

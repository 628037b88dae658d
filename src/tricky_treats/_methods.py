"""Binds ``GameState``'s methods to the modules that implement them.

``model`` is the bottom of the engine and imports none of the modules above it; its state's
methods (``apply()``, ``scores()``, ``view()``, ...) call them through ``model._engine``,
which this module fills in. ``tricky_treats/__init__.py`` imports it first, so every state
ever made finds its methods bound. Not part of the public API.
"""

from __future__ import annotations

from tricky_treats import rules, scoring, views
from tricky_treats.events import Event
from tricky_treats.model import GameState, _engine

__all__: list[str] = []


def _apply(state: GameState, action: object) -> GameState:
    return rules.apply(state, action, None)  # type: ignore[arg-type]


def _apply_with_events(state: GameState, action: object) -> tuple[GameState, tuple[Event, ...]]:
    events: list[Event] = []
    after = rules.apply(state, action, events)  # type: ignore[arg-type]
    return after, tuple(events)


_engine.apply = _apply
_engine.apply_with_events = _apply_with_events
_engine.legal_actions = rules.legal_actions
_engine.outcome = scoring.outcome
_engine.player_view = views.player_view
_engine.score_sheets = scoring.score_sheets
_engine.winners = scoring.winners

"""Binds ``GameState``'s methods to the modules that implement them.

``model`` is the bottom of the engine and imports none of the modules above it; its state's
methods (``apply()``, ``scores()``, ``view()``, ...) call them through ``model._engine``,
which this module fills in. ``tricky_treats/__init__.py`` imports it first, so every state
ever made finds its methods bound. Not part of the public API.
"""

from __future__ import annotations

from tricky_treats import _boards, _core_tables, scoring, views
from tricky_treats.model import _engine

__all__: list[str] = []

_engine.apply = _boards.apply
_engine.apply_with_events = _boards.apply_with_events
_engine.legal_actions = _boards.legal_actions
_engine.looked_at = _core_tables.looked_at
_engine.outcome = scoring.outcome
_engine.player_view = views.player_view
_engine.score_sheets = scoring.score_sheets
_engine.winners = scoring.winners

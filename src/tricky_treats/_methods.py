"""Binds ``GameState``'s methods to the modules that implement them.

``model`` is the bottom of the engine and imports none of the modules above it; its state's
methods (``apply()``, ``scores()``, ``view()``, ...) call them through ``model._engine``,
which this module fills in. ``tricky_treats/__init__.py`` imports it first, so every state
ever made finds its methods bound. Not part of the public API.
"""

from __future__ import annotations

from tricky_treats import rules, scoring, views
from tricky_treats.actions import Action
from tricky_treats.events import Event
from tricky_treats.model import GameState, _engine, _setup_memo

__all__: list[str] = []


def _apply(state: GameState, action: object) -> GameState:
    return rules.apply(state, action, None)  # type: ignore[arg-type]


def _apply_with_events(state: GameState, action: object) -> tuple[GameState, tuple[Event, ...]]:
    events: list[Event] = []
    after = rules.apply(state, action, events)  # type: ignore[arg-type]
    return after, tuple(events)


def _legal_actions(state: GameState) -> tuple[Action, ...]:
    """``rules.legal_actions``, kept in the game's memo for the last state asked about.

    A frontend lists a state's legal actions, then views it or applies one (a refresh or a
    pass asks again): each is worked out once. The entry is keyed by what the legal actions
    depend on, compared by identity (the log names the game's history), and holds no state,
    so it makes no reference cycle; nothing is set on the state itself.
    """
    setup = state.setup
    memo = getattr(setup, "_memo", None)
    log, players, market = state.log, state.players, state.market
    current, position = state.current_player, state.deck_position
    if memo is not None:
        entry = memo.get("legal")
        if (
            entry is not None
            and entry[0] is log
            and entry[1] is players
            and entry[2] is market
            and entry[3] == current
            and entry[4] == position
        ):
            legal: tuple[Action, ...] = entry[5]
            return legal
    else:
        memo = _setup_memo(setup)
    legal = rules.legal_actions(state)
    memo["legal"] = (log, players, market, current, position, legal)
    return legal


_engine.apply = _apply
_engine.apply_with_events = _apply_with_events
_engine.legal_actions = _legal_actions
_engine.outcome = scoring.outcome
_engine.player_view = views.player_view
_engine.score_sheets = scoring.score_sheets
_engine.winners = scoring.winners

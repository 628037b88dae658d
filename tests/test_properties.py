"""Property-based tests: a stateful machine that plays games and checks every invariant."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import tricky_treats as tt
from tricky_treats.testing import check_state, turns_taken
from tricky_treats.testing.strategies import GameSpec, game_specs, played_games

VARIANTS = ("family", "open-objectives", "any-mean-house")


class TrickyTreatsMachine(RuleBasedStateMachine):
    """Plays a game step by step, keeping every state, and checks the invariants each step."""

    def __init__(self) -> None:
        super().__init__()
        self.states: list[tt.GameState] = []
        self.spec: GameSpec | None = None

    @property
    def state(self) -> tt.GameState:
        return self.states[-1]

    @initialize(spec=game_specs(variants=VARIANTS))
    def deal(self, spec: GameSpec) -> None:
        self.spec = spec
        self.states = [spec.new_game()]

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        before = self.state
        legal = before.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        after = before.apply(action)
        self._check_step(before, after)
        self.states.append(after)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def illegal_action_changes_nothing(self, data: st.DataObject) -> None:
        state = self.state
        illegal = [a for a in state.action_space.actions if a not in state.legal_actions()]
        if not illegal:
            return
        action = data.draw(st.sampled_from(illegal), label="illegal action")
        snapshot = tt.dumps(state)
        with pytest.raises(tt.IllegalActionError):
            state.apply(action)
        assert tt.dumps(state) == snapshot

    @precondition(lambda self: len(self.states) > 1)
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        """Undo is going back to a kept state; playing on from it is still deterministic."""
        back = data.draw(st.integers(1, len(self.states) - 1), label="undo steps")
        redo = self.state.history[len(self.states) - 1 - back :]
        del self.states[-back:]
        replayed = self.state
        for action in redo:
            replayed = replayed.apply(action)
        assert replayed.history[: len(self.state.history)] == self.state.history

    @precondition(lambda self: not self.state.is_over)
    @rule(seed=st.integers())
    def global_random_changes_nothing(self, seed: int) -> None:
        state = self.state
        action = state.legal_actions()[0]
        first = state.apply(action)
        random.seed(seed)
        random.random()
        assert state.apply(action) == first

    @invariant()
    def core_invariants(self) -> None:
        if self.states:
            check_state(self.state, f"after {len(self.state.history)} actions")

    @invariant()
    def market_and_turns(self) -> None:
        if not self.states:
            return
        state = self.state
        size = state.setup.rules.market_size
        if state.deck_size:
            assert sum(c is not None for c in state.market) == size
        for seat in range(len(state.players)):
            view_actions = state.view(seat).legal_actions
            assert bool(view_actions) == (seat == state.current_player)
        for action in state.legal_actions():
            state.apply(action)  # every legal action applies
        if state.is_over:
            trigger = state.end_trigger
            assert trigger is not None
            last_mover = _last_turn_taker(self.states)
            assert last_mover == state.config.last_player
        else:
            assert state.current_player is not None

    @invariant()
    def scores_follow_the_rules(self) -> None:
        if not self.states:
            return
        state = self.state
        for player, sheet in zip(state.players, state.scores(), strict=True):
            assert sheet.total == (
                sheet.pumpkins
                + sum(sheet.costumes)
                + sum(t.points for t in sheet.trick_tiles)
                + sum(e.points for e in sheet.extras)
            )
            for kid, points in zip(player.kids, sheet.costumes, strict=True):
                assert points == _r12(kid)

    @invariant()
    def save_load_and_replay_reproduce(self) -> None:
        if not self.states or len(self.states) % 5:
            return  # every fifth state: a full save, load and replay is the slowest check
        state = self.state
        assert tt.loads(tt.dumps(state)) == state
        assert self.spec is not None
        replay = self.spec.new_game()
        for action in state.history:
            replay = replay.apply(action)
        assert replay == state

    def _check_step(self, before: tt.GameState, after: tt.GameState) -> None:
        for old, new in zip(before.players, after.players, strict=True):
            for old_kid, new_kid in zip(old.kids, new.kids, strict=True):
                assert new_kid[: len(old_kid)] == old_kid  # placed cards never move
            assert all(n >= o for o, n in zip(old.treats, new.treats, strict=True))
        for was, now in zip(before.street_flipped, after.street_flipped, strict=True):
            assert now >= was  # a street token flips at most once


def _r12(kid: tuple[tt.CostumeCard, ...]) -> int:
    """Costume points recomputed from R12's table, independently of the engine."""
    if len(kid) < 3:
        return 0
    colours = {c.colour for c in kid}
    themes = {c.theme for c in kid}
    return {(1, 1): 8, (2, 1): 6, (3, 1): 6, (1, 2): 4, (1, 3): 4}.get(
        (len(colours), len(themes)), 2
    )


def _last_turn_taker(states: list[tt.GameState]) -> int | None:
    """The seat that took the last turn of the game (a refresh under R8 is not a turn)."""
    for before, action in zip(reversed(states[:-1]), reversed(states[-1].history), strict=False):
        if not isinstance(action, tt.RefreshMarket) or before.setup.rules.refresh_ends_turn:
            return before.current_player
    return None


TestTrickyTreatsMachine = TrickyTreatsMachine.TestCase
# A machine run plays up to 60 steps, so it takes a quarter of the profile's examples.
TestTrickyTreatsMachine.settings = settings(
    stateful_step_count=60, max_examples=max(10, settings().max_examples // 4)
)


@given(played_games(game_specs(variants=VARIANTS)))
def test_every_played_game_keeps_the_invariants(states: list[tt.GameState]) -> None:
    for state in states[:: max(1, len(states) // 8)]:
        check_state(state)
    final = states[-1]
    if final.is_over:
        assert len(set(turns_taken(states))) == 1


@given(played_games(max_actions=60), st.data())
def test_views_hide_exactly_the_hidden_information(states: list[tt.GameState], data: Any) -> None:
    """A view is identical for two states that differ only in what its player may not see."""
    state = data.draw(st.sampled_from(states))
    viewer = data.draw(st.integers(0, len(state.players) - 1))
    setup = state.setup
    rest = list(setup.deck[state.deck_position :])
    data.draw(st.randoms(use_true_random=False)).shuffle(rest)
    tiles = list(setup.secret_tiles)
    others = [p for p in range(len(tiles)) if p != viewer]
    spare = [
        t
        for t in setup.components.trick_tiles
        if t not in tiles and t not in [m.tile for m in setup.mean_houses]
    ]
    players = list(state.players)
    if not state.is_over and not setup.secret_tiles_face_up:
        for seat in others:
            if spare:
                tiles[seat] = spare.pop()
                players[seat] = attrs.evolve(players[seat], secret_tile=tiles[seat])
    changed = attrs.evolve(
        state,
        setup=attrs.evolve(
            setup, deck=setup.deck[: state.deck_position] + tuple(rest), secret_tiles=tuple(tiles)
        ),
        players=tuple(players),
    )
    assert changed.view(viewer) == state.view(viewer)
    assert tt.loads_view(tt.dumps(changed, player=viewer)) == state.view(viewer)


def _of_type(kind: tt.CostumeType) -> list[tt.CostumeCard]:
    return [c for c in tt.base_components().cards if c.type is kind]


@given(
    st.permutations(
        [
            st.sampled_from(_of_type(tt.CostumeType.HEAD)),
            st.sampled_from(_of_type(tt.CostumeType.BODY)),
            st.sampled_from(_of_type(tt.CostumeType.LEGS)),
        ]
    ).flatmap(lambda order: st.tuples(*order)),
    st.integers(0, 3),
)
def test_costume_points_follow_r12(kid: tuple[tt.CostumeCard, ...], worn: int) -> None:
    """R12 for any costume in any order, complete or not (3 cards or fewer)."""
    assert tt.costume_points(kid[:worn]) == _r12(kid[:worn])

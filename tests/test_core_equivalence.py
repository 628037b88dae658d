"""The compact core plays exactly as the reference rules, and its lazily built states behave.

``tests/core_equivalence.py`` hashes everything random games show; here its digests through
the core and through the rules alone are compared, and the states the core makes (whose
boards are built on first read) are checked against the rules' states: fields read in any
order, equality, hashing, pickling, copying, views, score sheets and refusals.
"""

from __future__ import annotations

import copy
import gc
import pickle
import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tests import core_equivalence
from tricky_treats import _boards, _core, _core_tables
from tricky_treats.errors import TrickyTreatsError


@pytest.fixture(autouse=True)
def _on_the_core() -> Iterator[None]:
    """These tests check the core itself: every move it can play, looked at or not, in both
    builds (by default the pure build plays by the rules; see ``test_engine_choice_*``)."""
    with _core_tables.play_by("core"):
        yield


FIELDS = tuple(field.name for field in attrs.fields(tt.GameState) if field.init)
LAZY = tuple(name for name in FIELDS if name not in ("setup", "current_player"))


def test_digest_through_the_core_equals_the_reference_digest() -> None:
    games = len(core_equivalence.CONFIGURATIONS)  # one game of each configuration
    assert core_equivalence.digest(games) == core_equivalence.digest(games, reference=True)


def test_the_digest_sees_a_difference() -> None:
    """A digest that could not tell two games apart would prove nothing."""
    assert core_equivalence.digest(1) != core_equivalence.digest(2)


def play(seed: int, players: int, moves: int, *, reference: bool, **options: Any) -> tt.GameState:
    """The state after ``moves`` random moves (or the end) of a seeded game."""
    rng = random.Random(seed)
    with _core_tables.play_by("rules" if reference else "core"):
        game = tt.new_game(players, seed=seed, **options)
        for _ in range(moves):
            if game.is_over:
                break
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
    return game


is_lazy = _boards.is_lazy


games = st.tuples(
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.integers(1, 120),
    st.sampled_from(core_equivalence.CONFIGURATIONS[:-1]),  # the ones the core covers
)


@settings(max_examples=15, deadline=None)
@given(games, st.permutations(LAZY))
def test_fields_read_in_any_order_equal_the_reference(game_args: Any, order: list[str]) -> None:
    seed, players, moves, options = game_args
    core_state = play(seed, players, moves, reference=False, **options)
    reference = play(seed, players, moves, reference=True, **options)
    assert core_state._core is not None
    assert reference._core is None
    assert is_lazy(core_state)
    for name in order:
        assert getattr(core_state, name) == getattr(reference, name), name
    # Derived counts take no part in equality: compare them too.
    for mine, theirs in zip(core_state.players, reference.players, strict=True):
        assert attrs.astuple(mine, recurse=False)[:-1] == attrs.astuple(theirs, recurse=False)[:-1]
        assert (mine.feature_counts, mine.visible_icons, mine.free_kids) == (
            theirs.feature_counts,
            theirs.visible_icons,
            theirs.free_kids,
        )
        assert (mine.qualified, mine.visitable) == (theirs.qualified, theirs.visitable)


@settings(max_examples=15, deadline=None)
@given(games)
def test_equality_hash_repr_pickle_and_copies(game_args: Any) -> None:
    seed, players, moves, options = game_args
    reference = play(seed, players, moves, reference=True, **options)
    assert play(seed, players, moves, reference=False, **options) == reference
    assert hash(play(seed, players, moves, reference=False, **options)) == hash(reference)
    assert repr(play(seed, players, moves, reference=False, **options)) == repr(reference)
    lazy = play(seed, players, moves, reference=False, **options)
    public = lambda field, value: not field.name.startswith("_")  # noqa: E731
    assert attrs.asdict(lazy, recurse=False, filter=public) == attrs.asdict(
        reference, recurse=False, filter=public
    )
    lazy = play(seed, players, moves, reference=False, **options)
    assert copy.copy(lazy) is lazy
    assert copy.deepcopy(lazy) is lazy
    restored = pickle.loads(pickle.dumps(play(seed, players, moves, reference=False, **options)))
    assert restored == reference
    assert restored.legal_actions() == reference.legal_actions()
    if not reference.is_over:
        action = reference.legal_actions()[0]
        assert restored.apply(action) == reference.apply(action)
    evolved = attrs.evolve(play(seed, players, moves, reference=False, **options), turn=999)
    assert evolved._core is None
    assert evolved.turn == 999
    assert evolved.players == reference.players


@settings(max_examples=15, deadline=None)
@given(games, st.data())
def test_views_scores_and_records_equal_the_reference(game_args: Any, data: st.DataObject) -> None:
    seed, players, moves, options = game_args
    lazy = play(seed, players, moves, reference=False, **options)
    reference = play(seed, players, moves, reference=True, **options)
    seats = data.draw(st.permutations(range(players)))
    for seat in seats:  # the first read of a lazy state may be any seat's view
        assert lazy.view(seat) == reference.view(seat)
        assert tt.dumps(lazy, player=seat) == tt.dumps(reference, player=seat)
    assert lazy.scores() == reference.scores()
    assert lazy.outcome() == reference.outcome()
    assert tt.dumps(lazy) == tt.dumps(reference)


@settings(max_examples=15, deadline=None)
@given(games, st.integers(0, 10**6))
def test_refusals_name_the_same_rule_and_change_nothing(game_args: Any, pick: int) -> None:
    seed, players, moves, options = game_args
    lazy = play(seed, players, moves, reference=False, **options)
    reference = play(seed, players, moves, reference=True, **options)
    space = reference.action_space
    illegal = [a for a in space.actions if a not in reference.legal_actions()]
    if not illegal:
        return
    action = illegal[pick % len(illegal)]
    with pytest.raises(TrickyTreatsError) as expected:
        reference.apply(action)
    with pytest.raises(type(expected.value)) as refused:
        lazy.apply(action)
    assert str(refused.value) == str(expected.value)
    assert lazy == reference
    assert lazy.legal_actions() == reference.legal_actions()


def test_a_new_action_object_plays_as_the_canonical_one() -> None:
    game = tt.new_game(2, seed=5)
    canonical = game.legal_actions()[0]
    assert isinstance(canonical, tt.TakeCard)
    fresh = tt.TakeCard(canonical.slot, canonical.kid)
    assert fresh is not canonical
    assert game.apply(fresh) == game.apply(canonical)
    assert game.apply(fresh)._core is not None


def test_states_built_out_of_order_share_nothing_wrong() -> None:
    """Boards are built from the last boards built, whichever state that was."""
    rng = random.Random(1)
    states = [tt.new_game(3, seed=11)]
    while not states[-1].is_over:
        legal = states[-1].legal_actions()
        states.append(states[-1].apply(legal[rng.randrange(len(legal))]))
    order = list(range(len(states)))
    random.Random(2).shuffle(order)
    rng = random.Random(1)
    with _core_tables.reference_rules():
        expected = [tt.new_game(3, seed=11)]
        while not expected[-1].is_over:
            legal = expected[-1].legal_actions()
            expected.append(expected[-1].apply(legal[rng.randrange(len(legal))]))
    assert len(expected) == len(states)
    for index in order:
        assert states[index].players == expected[index].players
        assert states[index].view(0) == expected[index].view(0)


def test_unchanged_boards_are_shared_between_states() -> None:
    game = tt.new_game(4, seed=3)
    first = game.players
    after = game.apply(game.legal_actions()[0])
    assert is_lazy(after)
    assert after.players[1:] == first[1:]
    assert all(a is b for a, b in zip(after.players[1:], first[1:], strict=True))
    assert after.players[0] is not first[0]


def test_events_path_keeps_the_core() -> None:
    game = tt.new_game(2, seed=4)
    action = game.legal_actions()[0]
    after, events = game.apply_with_events(action)
    assert events
    assert after._core is not None
    assert after.apply(after.legal_actions()[0])._core is not None
    with _core_tables.reference_rules():
        plain = tt.new_game(2, seed=4)
        expected, expected_events = plain.apply_with_events(action)
    assert (after, events) == (expected, expected_events)


def test_configurations_outside_the_core_play_by_the_rules() -> None:
    six_kids = core_equivalence.CONFIGURATIONS[-1]
    game = tt.new_game(2, seed=1, **six_kids)
    assert game.setup.rules.kids_per_player > _core.MAX_KIDS
    assert not _core_tables.covers(game.setup)
    after = game.apply(game.legal_actions()[0])
    assert game._core is None
    assert after._core is None
    assert not is_lazy(after)


def test_reference_switch_keeps_states_off_the_core() -> None:
    with _core_tables.reference_rules():
        game = tt.new_game(2, seed=1)
        after = game.apply(game.legal_actions()[0])
    assert game._core is None
    assert after._core is None
    game = tt.new_game(2, seed=1)
    assert game.apply(game.legal_actions()[0])._core is not None


def test_a_dropped_state_is_freed_at_once() -> None:
    """No reference cycles: nothing is left for the garbage collector."""
    gc.collect()
    gc.disable()
    try:
        rng = random.Random(7)
        game = tt.new_game(4, seed=7)
        while not game.is_over:
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
            game.view(0)
            game.scores()
        del game, legal
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_boards_made_by_hand_beyond_the_core_play_by_the_rules() -> None:
    game = tt.new_game(2, seed=6)
    big = attrs.evolve(game.players[0], treats=(70_000, 0, 0))
    made = attrs.evolve(game, players=(big, game.players[1]))
    with _core_tables.reference_rules():
        expected = attrs.evolve(game, players=(big, game.players[1]))
        expected_after = expected.apply(expected.legal_actions()[0])
    assert made.legal_actions() == expected.legal_actions()
    assert made._core is None
    assert made.apply(made.legal_actions()[0]) == expected_after


def test_a_lazy_state_says_it_is_a_game_state_and_becomes_one() -> None:
    game = tt.new_game(2, seed=8)
    after = game.apply(game.legal_actions()[0])
    assert is_lazy(after)
    assert isinstance(after, tt.GameState)
    assert after.__class__ is tt.GameState
    assert after.turn == 1
    assert type(after) is tt.GameState
    assert not is_lazy(after)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        after.turn = 3  # type: ignore[misc]


# -- which engine plays by default ------------------------------------------------------------


@pytest.fixture
def auto_on_core(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The default choice as the compiled build makes it, in either build."""
    monkeypatch.setattr(_core_tables, "_core_in_auto", True)
    with _core_tables.play_by("auto"):
        yield


@pytest.mark.usefixtures("auto_on_core")
def test_engine_choice_a_state_nobody_looked_at_plays_on_the_core() -> None:
    game = tt.new_game(3, seed=5)
    after = game.apply(game.legal_actions()[0])
    assert is_lazy(after)
    assert is_lazy(after.apply(after.legal_actions()[0]))


@pytest.mark.usefixtures("auto_on_core")
@pytest.mark.parametrize("look", ["scores", "view", "field"])
def test_engine_choice_a_state_looked_at_plays_on_by_the_rules(look: str) -> None:
    """A frontend reads every state: its states keep their boards, built move by move."""
    game = tt.new_game(3, seed=5)
    state = game.apply(game.legal_actions()[0])
    if look == "scores":
        state.scores()
    elif look == "view":
        state.view(1)
    else:
        assert state.players
    assert not is_lazy(state)
    assert state._core is False
    after = state.apply(state.legal_actions()[0])
    assert not is_lazy(after)
    assert after._core is False  # and so on: made by the rules, so looked at
    with _core_tables.play_by("rules"):
        expected = tt.new_game(3, seed=5)
        for _ in range(2):
            expected = expected.apply(expected.legal_actions()[0])
    assert after == expected


@pytest.mark.usefixtures("auto_on_core")
def test_engine_choice_events_are_asked_for_by_readers() -> None:
    game = tt.new_game(3, seed=5)
    after, _ = game.apply_with_events(game.legal_actions()[0])
    assert after._core is False
    assert not is_lazy(after.apply(after.legal_actions()[0]))


def test_engine_choice_follows_the_build() -> None:
    """Plain Python plays by the rules by default (faster there); the compiled core plays."""
    with _core_tables.play_by("auto"):
        game = tt.new_game(3, seed=5)
        after = game.apply(game.legal_actions()[0])
    assert _core_tables._core_in_auto is _core_tables.COMPILED
    assert is_lazy(after) is _core_tables.COMPILED

"""``tt.Simulator`` plays exactly as ``GameState.apply()``, and every state is a plain value.

``tests/core_equivalence.py`` hashes everything random games show; here its digests through
simulators and through ``apply()`` alone are compared, and random games are played side by
side through both (a differential test): legal actions, states, scores, winners, refusals
and clones at every step.
"""

from __future__ import annotations

import copy
import gc
import hashlib
import pickle
import random
import sys
import threading
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tests import core_equivalence
from tests.boards import with_market, with_player
from tricky_treats.errors import TrickyTreatsError

FIELDS = tuple(field.name for field in attrs.fields(tt.GameState))
CORE_MOST_KIDS = 5
"""The most kids a player has in a game the compact core covers (docs/simulator.md)."""


def test_digest_through_simulators_equals_the_reference_digest() -> None:
    games = len(core_equivalence.CONFIGURATIONS)  # one game of each configuration
    assert core_equivalence.digest(games) == core_equivalence.digest(games, reference=True)


class _Sink:
    """A SHA-256 that also keeps what it is fed, piece by piece."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.pieces: list[bytes] = []

    def update(self, data: bytes) -> None:
        self.sha.update(data)
        self.pieces.append(data)


def _hash_one_game() -> tuple[int, _Sink]:
    """One game of the digest, by ``apply()``: its moves, and what it fed the hash."""
    sink = _Sink()
    moves = core_equivalence.play_and_hash(0, {}, 2, sink, reference=True)
    return moves, sink


def _nth_call(n: int, function: Any, change: Any, when: Any = lambda *a, **k: True) -> Any:
    """``function``, whose ``n``-th result (counting the calls ``when`` accepts) is changed."""
    calls = 0

    def changed(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        result = function(*args, **kwargs)
        if when(*args, **kwargs):
            calls += 1
            if calls == n:
                return change(result)
        return result

    return changed


def _refusals_reworded(n: int, apply: Any) -> Any:
    """``GameState.apply`` whose ``n``-th refusal has another message."""
    calls = 0

    def reworded(state: tt.GameState, action: tt.Action) -> tt.GameState:
        nonlocal calls
        try:
            return apply(state, action)  # type: ignore[no-any-return]
        except TrickyTreatsError as error:
            calls += 1
            if calls == n:
                raise type(error)(f"{error}!") from None
            raise

    return reworded


def _first_pumpkins_added(sheets: tuple[tt.ScoreSheet, ...]) -> tuple[tt.ScoreSheet, ...]:
    return (attrs.evolve(sheets[0], pumpkins=sheets[0].pumpkins + 2), *sheets[1:])


def _last_event_dropped(
    result: tuple[tt.GameState, tuple[tt.Event, ...]],
) -> tuple[tt.GameState, tuple[tt.Event, ...]]:
    return result[0], result[1][:-1]


def _is_view(game: tt.GameState, player: int | None = None, **_: Any) -> bool:
    return player is not None


def _is_record(game: tt.GameState, player: int | None = None, **_: Any) -> bool:
    return player is None


def _differ_in_one_place(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    """Make the hashed ``part`` of one step of the game differ, and nothing else."""
    dumps, state = tt.dumps, tt.GameState
    if part == "legal":  # the text of the first action of the first list of legal actions
        monkeypatch.setattr(tt.TakeCard, "__str__", _nth_call(1, tt.TakeCard.__str__, "X".__add__))
    elif part == "totals":  # winners, read with the totals, then with the score sheets
        monkeypatch.setattr(state, "winners", _nth_call(5, state.winners, lambda w: (*w, 9)))
    elif part == "view":
        monkeypatch.setattr(tt, "dumps", _nth_call(7, dumps, " ".__add__, when=_is_view))
    elif part == "scores":  # read for the totals, then as score sheets
        monkeypatch.setattr(state, "scores", _nth_call(8, state.scores, _first_pumpkins_added))
    elif part == "record":
        monkeypatch.setattr(tt, "dumps", _nth_call(3, dumps, " ".__add__, when=_is_record))
    elif part == "events":
        changed = _nth_call(4, state.apply_with_events, _last_event_dropped)
        monkeypatch.setattr(state, "apply_with_events", changed)
    elif part == "refused":
        monkeypatch.setattr(state, "apply", _refusals_reworded(2, state.apply))
    else:
        raise AssertionError(part)


PARTS = ("legal", "totals", "view", "scores", "record", "events", "refused")
"""The parts of a step the digest hashes (``core_equivalence.play_and_hash``)."""


@pytest.mark.parametrize("part", PARTS)
def test_the_digest_sees_a_difference_in_every_part_it_hashes(
    monkeypatch: pytest.MonkeyPatch, part: str
) -> None:
    """A digest that could not tell two games apart would prove nothing: the same game, as
    long, with one part of one step changed (a legal action's text, a total, a view, a score
    sheet, a record, an event, a refusal's message), hashes differently."""
    moves, original = _hash_one_game()
    with monkeypatch.context() as patch:
        _differ_in_one_place(patch, part)
        changed_moves, changed = _hash_one_game()
    assert changed_moves == moves
    assert len(changed.pieces) == len(original.pieces)
    pairs = zip(original.pieces, changed.pieces, strict=True)
    differ = [i for i, (was, now) in enumerate(pairs) if was != now]
    assert len(differ) == 1, f"{len(differ)} pieces differ, not one"
    labels = {repr(core_equivalence.canonical(name)).encode(): name for name in PARTS}
    label = next(labels[p] for p in reversed(original.pieces[: differ[0]]) if p in labels)
    assert label == part
    assert changed.sha.hexdigest() != original.sha.hexdigest()
    # ``digest()`` hashes what the game feeds it, not only which games it played.
    reference = core_equivalence.digest(1, reference=True)
    with monkeypatch.context() as patch:
        _differ_in_one_place(patch, part)
        assert core_equivalence.digest(1, reference=True) != reference


def test_the_digest_sees_every_field_of_a_board() -> None:
    """Boards are hashed through ``canonical``: a board that differs in one field only, of
    any field, gives another value; equal sets give one value, whatever their order."""
    game = tt.new_game(2, seed=0)
    card = game.setup.deck[0]
    board = attrs.evolve(
        game.players[0],
        kids=((card,), (), (), (), ()),
        visited=frozenset({3, 1, 2}),
        tricked=frozenset({0}),
    )
    changes: dict[str, Any] = {
        "name": "Zoe",
        "kids": ((), (card,), (), (), ()),
        "treats": (*board.treats[:-1], board.treats[-1] + 1),
        "pumpkins": board.pumpkins + 1,
        "visited": board.visited | {4},
        "tricked": frozenset({1}),
        "footprints": board.footprints - 1,
        "secret_tile": next(t for t in tt.base_components().trick_tiles if t != board.secret_tile),
    }
    public = [f.name for f in attrs.fields(tt.PlayerState) if not f.name.startswith("_")]
    assert sorted(changes) == sorted(public)
    for name, value in changes.items():
        other = attrs.evolve(board, **{name: value})
        assert getattr(other, name) != getattr(board, name)
        assert core_equivalence.canonical(other) != core_equivalence.canonical(board), name
    same = attrs.evolve(board, visited=frozenset([2, 1, 3]))
    assert core_equivalence.canonical(same) == core_equivalence.canonical(board)


games = st.tuples(
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.sampled_from(core_equivalence.CONFIGURATIONS),
)


def _options(players: int, configuration: dict[str, Any]) -> dict[str, Any]:
    options = dict(configuration)
    if options.get("first_player", 0) >= players:
        options["first_player"] = players - 1
    return options


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 2**32))
def test_random_games_through_the_simulator_and_apply_side_by_side(
    game_args: Any, draws: int
) -> None:
    seed, players, configuration = game_args
    state = tt.new_game(players, seed=seed, **_options(players, configuration))
    sim = tt.Simulator(state)
    # docs/simulator.md: the core covers these configurations but for 6 kids a player
    assert sim.fast is (state.setup.rules.kids_per_player <= CORE_MOST_KIDS)
    space = state.action_space
    rng = random.Random(draws)
    clones: list[tuple[tt.Simulator, tt.GameState]] = []
    while True:
        assert sim.state() == state
        assert type(sim.state()) is tt.GameState
        assert sim.legal_codes() == [space.encode(a) for a in state.legal_actions()]
        assert sim.legal_actions() == state.legal_actions()
        assert (sim.is_over, sim.current_player, sim.turn) == (
            state.is_over,
            state.current_player,
            state.turn,
        )
        assert sim.scores() == tuple(sheet.total for sheet in state.scores())
        assert sim.winners() == state.winners()
        if state.is_over:
            break
        if rng.random() < 0.1:
            clones.append((sim.clone(), state))
        code = rng.randrange(space.size)
        if space.decode(code) not in state.legal_actions():
            with pytest.raises(TrickyTreatsError) as expected:
                state.apply(space.decode(code))
            with pytest.raises(type(expected.value)) as refused:
                sim.play(code)
            assert str(refused.value) == str(expected.value)
            assert sim.state() == state  # unchanged
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        sim.play(space.encode(action))
        state = state.apply(action)
    # Clones were left where they were made, and play on as that state does.
    for clone, at in clones:
        assert clone.state() == at
        if not at.is_over:
            first = at.legal_actions()[0]
            clone.play(space.encode(first))
            assert clone.state() == at.apply(first)


def test_a_simulator_of_any_state_stands_at_it() -> None:
    rng = random.Random(3)
    state = tt.new_game(3, seed=3)
    for _ in range(20):
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    loaded = tt.loads(tt.dumps(state))
    sim = tt.Simulator(loaded)
    assert sim.state() == state
    assert tt.dumps(sim.state()) == tt.dumps(state)


def test_the_core_scores_every_complete_costume_of_the_box_as_the_rules_do() -> None:
    """R12 on the core (which compares the cards' looks, a colour and a theme in one int):
    all 24 x 24 x 24 complete costumes, five kids a board, in two stacking orders."""
    cards = tt.base_components().cards
    by_type = [[c for c in cards if c.type is kind] for kind in tt.CostumeType]
    costumes = [
        [head, body, legs] for head in by_type[0] for body in by_type[1] for legs in by_type[2]
    ]
    game = tt.new_game(2, seed=5)
    for start in range(0, len(costumes), CORE_MOST_KIDS):
        kids = costumes[start : start + CORE_MOST_KIDS]
        kids += [[]] * (CORE_MOST_KIDS - len(kids))  # 13,824 is no multiple of 5
        state = with_player(game, 0, kids=kids)
        state = with_player(state, 1, kids=[kid[::-1] for kid in kids])
        sim = tt.Simulator(state)
        assert sim.fast
        assert sim.scores() == tuple(sheet.total for sheet in state.scores())


def test_empty_market_slots_offer_no_take_and_no_refresh() -> None:
    """R19: a slot the deck could not refill lists no take, and breaks a refresh (R18)."""
    game = tt.new_game(2, seed=4)
    for empty in ([0], [4], [1, 3], [0, 1, 2, 3]):
        market = [None if slot in empty else c for slot, c in enumerate(game.market)]
        state = with_market(game, market)
        sim = tt.Simulator(state)
        assert sim.fast
        encode = state.action_space.encode
        assert sim.legal_codes() == [encode(action) for action in state.legal_actions()]
    same = [c for c in tt.base_components().cards if c.type is tt.CostumeType.HEAD][:5]
    state = with_market(game, same)  # five heads: a refresh is legal (R18)
    refresh = state.action_space.encode(tt.RefreshMarket())
    assert refresh in tt.Simulator(state).legal_codes()
    state = with_market(game, [*same[:4], None])
    assert refresh not in tt.Simulator(state).legal_codes()
    assert tt.Simulator(state).legal_codes() == [
        state.action_space.encode(action) for action in state.legal_actions()
    ]


def test_a_deck_of_equal_copies_of_the_boxs_cards_plays_on_the_core_as_the_rules() -> None:
    # Usually a deck is the box's own card objects; a state made of copies (as one built by
    # hand or by another program) takes the core's other way to its cards, and still plays.
    game = tt.new_game(2, seed=3)
    copies = tuple(attrs.evolve(card) for card in game.setup.deck)
    market = game.setup.rules.market_size
    state = attrs.evolve(game, setup=attrs.evolve(game.setup, deck=copies), market=copies[:market])
    sim = tt.Simulator(state)
    assert sim.fast
    rng = random.Random(5)
    while not state.is_over:
        assert sim.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        state = state.apply(action)
        sim.play_action(action)
        assert sim.state() == state
    assert sim.scores() == tuple(sheet.total for sheet in state.scores())


@pytest.mark.parametrize("code", [-1, 10**6, 1.0, True, "t0k0", None])
def test_a_code_that_is_no_action_is_refused_and_changes_nothing(code: Any) -> None:
    sim = tt.Simulator(tt.new_game(2, seed=1))
    before = sim.state()
    with pytest.raises(tt.InvalidActionError, match="action code must be a whole number"):
        sim.play(code)
    assert sim.state() == before


def test_an_illegal_code_names_the_rule_as_apply_does() -> None:
    game = tt.new_game(2, seed=1)
    sim = tt.Simulator(game)
    visit = game.action_space.encode(tt.VisitHouse(4))
    with pytest.raises(tt.IllegalActionError, match=r"R1, R5"):
        sim.play(visit)
    assert sim.state() == game


def test_a_simulator_is_made_from_a_game_state_only() -> None:
    with pytest.raises(tt.TrickyTreatsError, match="made from a GameState"):
        tt.Simulator("not a state")  # type: ignore[arg-type]


def test_a_game_over_refuses_every_code() -> None:
    sim = tt.Simulator(tt.new_game(2, seed=2))
    rng = random.Random(2)
    while not sim.is_over:
        codes = sim.legal_codes()
        sim.play(codes[rng.randrange(len(codes))])
    assert sim.legal_codes() == []
    assert sim.current_player is None
    with pytest.raises(tt.IllegalActionError, match="the game is over"):
        sim.play(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_finished_games_scores_and_winners_in_any_order_and_on_clones(players: int) -> None:
    """A finished game's totals are worked out once and kept: every read gives the rules'."""
    for seed in range(12):
        sim = tt.Simulator.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not sim.is_over:
            assert sim.winners() == ()
            sim.scores()  # read while the game goes on: nothing kept until it is over
            codes = sim.legal_codes()
            sim.play(codes[rng.randrange(len(codes))])
        final = sim.state()
        expected = (tuple(sheet.total for sheet in final.scores()), final.winners())
        assert sim.clone().winners() == expected[1]  # winners first, on a clone
        twin = sim.clone()
        assert (sim.winners(), sim.scores(), sim.winners()) == (expected[1], *expected)
        assert (twin.scores(), twin.winners()) == expected
        assert sim.clone().scores() == expected[0]  # a clone of a game scored already


def test_configurations_outside_the_core_play_by_the_rules_behind_the_same_interface() -> None:
    six_kids = core_equivalence.CONFIGURATIONS[-1]
    game = tt.new_game(2, seed=1, **six_kids)
    assert game.setup.rules.kids_per_player > CORE_MOST_KIDS
    sim = tt.Simulator(game)
    assert not sim.fast
    first = game.legal_actions()[0]
    sim.play(game.action_space.encode(first))
    assert sim.state() == game.apply(first)
    assert sim.clone().state() == sim.state()


def test_boards_made_by_hand_beyond_the_core_play_by_the_rules() -> None:
    game = tt.new_game(2, seed=6)
    big = attrs.evolve(game.players[0], treats=(70_000, 0, 0))
    made = attrs.evolve(game, players=(big, game.players[1]))
    sim = tt.Simulator(made)
    assert not sim.fast
    assert sim.legal_actions() == made.legal_actions()
    assert sim.scores() == tuple(sheet.total for sheet in made.scores())


def _lists_for_tuples(game: tt.GameState, part: str) -> tt.GameState:
    """``game`` with one of its tuples given as a list, as a program building states might."""
    player = game.players[0]
    wrong: dict[str, Any]  # deliberately not the model's types
    if part in ("treats", "kids"):
        wrong = {part: [list(item) if part == "kids" else item for item in getattr(player, part)]}
        return attrs.evolve(game, players=(attrs.evolve(player, **wrong), *game.players[1:]))
    if part == "market":
        wrong = {"market": list(game.market)}
        return attrs.evolve(game, **wrong)
    wrong = {part: list(getattr(game.setup, part))}
    return attrs.evolve(game, setup=attrs.evolve(game.setup, **wrong))


@pytest.mark.parametrize("part", ["treats", "kids", "market", "deck", "street_tokens"])
@pytest.mark.parametrize("moves", [0, 12])
def test_a_state_made_by_hand_with_lists_for_tuples_still_makes_a_simulator(
    part: str, moves: int
) -> None:
    # The compiled core reads the state's fields typed: a list where the model has a tuple
    # must not stop it (nothing checks a state made by hand that far).
    game = tt.new_game(2, seed=8)
    rng = random.Random(8)
    for _ in range(moves):
        game = game.apply(rng.choice(game.legal_actions()))
    made = _lists_for_tuples(game, part)
    sim = tt.Simulator(made)
    assert sim.legal_actions() == made.legal_actions()
    assert sim.scores() == tuple(sheet.total for sheet in made.scores())


def test_a_variant_scorer_counts_in_the_simulators_scores() -> None:
    """Scores go through the game's scorers, as ``GameState.scores()`` does."""
    game = tt.new_game(2, seed=9, variants=["open-objectives"])
    sim = tt.Simulator(game)
    rng = random.Random(9)
    while not sim.is_over:
        codes = sim.legal_codes()
        sim.play(codes[rng.randrange(len(codes))])
    assert sim.scores() == tuple(sheet.total for sheet in sim.state().scores())


def test_unchanged_boards_are_shared_between_the_states_of_a_simulator() -> None:
    sim = tt.Simulator(tt.new_game(4, seed=3))
    first = sim.state().players
    sim.play(sim.legal_codes()[0])
    after = sim.state().players
    assert all(a is b for a, b in zip(after[1:], first[1:], strict=True))
    assert after[0] is not first[0]


# -- every state is a plain immutable value ------------------------------------------------------


def _played(seed: int, players: int, moves: int) -> tt.GameState:
    rng = random.Random(seed)
    state = tt.new_game(players, seed=seed)
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


def test_every_state_a_public_function_returns_is_exactly_a_game_state() -> None:
    game = tt.new_game(3, seed=4)
    after = game.apply(game.legal_actions()[0])
    with_events, _ = game.apply_with_events(game.legal_actions()[0])
    sim = tt.Simulator(game)
    sim.play(sim.legal_codes()[0])
    for state in (
        game,
        after,
        with_events,
        tt.loads(tt.dumps(after)),
        sim.state(),
        tt.determinize(after.view(1), random.Random(1)),
        *tt.play_game(game, [tt.RandomAgent()] * 3, seed=1)[:5],
    ):
        assert type(state) is tt.GameState
        assert {field.name for field in attrs.fields(type(state))} == set(FIELDS)
        assert not hasattr(state, "__dict__")


def test_reading_a_state_never_changes_it() -> None:
    """Nothing is set after construction: asdict before and after every read is the same."""
    state = _played(5, 3, 17)
    public = lambda field, value: field.name != "setup"  # noqa: E731
    before = attrs.asdict(state, recurse=False)
    deep_before = repr(attrs.asdict(state, filter=public))
    state.legal_actions()
    state.view(0)
    state.view(2)
    state.scores()
    state.outcome()
    tt.dumps(state)
    assert attrs.asdict(state, recurse=False) == before
    assert repr(attrs.asdict(state, filter=public)) == deep_before
    for field in attrs.fields(tt.GameState):
        assert field.__class__ is attrs.Attribute
        assert tt.GameState.__dict__[field.name].__get__(state) is getattr(state, field.name)


def test_a_state_is_frozen() -> None:
    state = _played(1, 2, 3)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.turn = 3  # type: ignore[misc]


def test_equality_hash_pickle_and_copies() -> None:
    state = _played(8, 4, 30)
    again = _played(8, 4, 30)
    assert state == again
    assert hash(state) == hash(again)
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state
    restored = pickle.loads(pickle.dumps(state))
    assert restored == state
    assert restored.legal_actions() == state.legal_actions()


def test_eight_threads_read_one_fresh_state_at_a_one_microsecond_switch_interval() -> None:
    """An immutable value is safe to read from any thread (the issue's reproduction)."""
    errors: list[BaseException] = []
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for round_number in range(60):
            state = _played(round_number, 2 + round_number % 3, 25)
            expected = (
                state.legal_actions(),
                [state.view(p) for p in range(len(state.players))],
                state.scores(),
                tt.dumps(state),
            )
            fresh = _played(round_number, 2 + round_number % 3, 25)  # nobody has read it
            barrier = threading.Barrier(8)

            def read(
                state: tt.GameState = fresh,
                expected: Any = expected,
                barrier: threading.Barrier = barrier,
            ) -> None:
                barrier.wait()
                try:
                    for _ in range(3):
                        seen = (
                            state.legal_actions(),
                            [state.view(p) for p in range(len(state.players))],
                            state.scores(),
                            tt.dumps(state),
                        )
                        assert seen == expected
                        assert type(state) is tt.GameState
                except BaseException as error:  # every error is a failure
                    errors.append(error)

            threads = [threading.Thread(target=read) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        sys.setswitchinterval(saved)
    assert errors == []


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


def test_an_action_field_set_past_its_validator_is_refused_as_malformed() -> None:
    game = tt.new_game(2, seed=1)
    visit = tt.VisitHouse(1)
    object.__setattr__(visit, "house", 1.0)
    with pytest.raises(tt.InvalidActionError):
        game.apply(visit)
    take = tt.TakeCard(0, 0)
    object.__setattr__(take, "kid", 10**9)
    with pytest.raises(tt.TrickyTreatsError):
        game.apply(take)

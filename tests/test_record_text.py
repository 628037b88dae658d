"""The fast record writers and the fast verified load agree with the general ones.

``dumps`` writes records from pieces kept per object, and the verified ``loads`` of a record
exactly as ``dumps`` writes it checks it by writing the replayed game's record again. These
tests compare both with the general code (the converter, one check after another), for
random games with and without variants, options and unusual player names, at every stage.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tests.boards import random_playout
from tricky_treats import serialization

VARIANTS = [[], ["family"], ["open-objectives"], ["any-mean-house"], ["family", "open-objectives"]]
NAMES = ["Ann, the Great", 'Bo "B": ü', "Ča\\t", "Dee 🎃"]
OPTIONS = st.dictionaries(
    st.text(max_size=3),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=6,
    ),
    max_size=3,
)


@st.composite
def games(draw: st.DrawFn) -> tt.GameState:
    """A random game at a random point, with random variants, options and names."""
    players = draw(st.integers(2, 4))
    variants = draw(st.sampled_from(VARIANTS))
    options = {name: draw(OPTIONS) for name in variants if draw(st.booleans())}
    names: int | list[str] = NAMES[:players] if draw(st.booleans()) else players
    game = tt.new_game(
        players=names,
        seed=draw(st.integers(0, 2**64)),
        first_player=draw(st.integers(0, players - 1)),
        any_mean_house=draw(st.booleans()),
        refresh_ends_turn=draw(st.booleans()),
        variants=variants,
        variant_options=options,
    )
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 300))):
        if game.is_over:
            break
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
    return game


def _strict_json(value: object) -> str:
    """JSON as the engine writes it: UTF-8 text as is, never ``NaN``."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _reference_record(game: tt.GameState) -> str:
    return serialization._canonical_record(serialization._record_document(game))


def _reference_view(game: tt.GameState, player: int) -> str:
    record = serialization._view_record(game, game.view(player))
    return _strict_json(serialization._converter.unstructure(record))


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_records_are_written_as_the_converter_writes_them(game: tt.GameState) -> None:
    text = tt.dumps(game)
    assert text == _reference_record(game)
    assert json.loads(text)["digest"] == serialization._digest(json.loads(text))
    assert json.loads(tt.dumps(game, indent=1)) == json.loads(text)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 3))
def test_player_records_are_written_as_the_converter_writes_them(
    game: tt.GameState, player: int
) -> None:
    player %= len(game.players)
    text = tt.dumps(game, player=player)
    assert text == _reference_view(game, player)
    assert json.loads(tt.dumps(game, player=player, indent=2)) == json.loads(text)
    assert tt.loads_view(text) == game.view(player)


def test_a_view_is_written_with_the_record_of_the_game_it_was_told_of() -> None:
    """Issue 44: ``ExecAgent`` wrote a view with ``player_records._view_text`` (private);
    ``serialization.dumps_view(start, view)`` is the record ``dumps(state, player=p)`` of
    the state the view is of, with ``start`` any state of that game."""
    start = tt.new_game(3, seed=5, variants=["family"])
    states = tt.play_game(start, [tt.RandomAgent()] * 3, seed=5)
    for state in states[:: max(1, len(states) // 7)]:
        for seat in range(3):
            text = serialization.dumps_view(start, state.view(seat))
            assert text == tt.dumps(state, player=seat)
    with pytest.raises(tt.ConfigurationError, match="a view of a GameState, got"):
        serialization.dumps_view(start.view(0), start.view(0))  # type: ignore[arg-type]
    with pytest.raises(tt.ConfigurationError, match="one of the game's 3 seats"):
        serialization.dumps_view(start, tt.new_game(2, seed=5).view(0))


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_fast_load_and_the_general_load_agree(game: tt.GameState) -> None:
    text = tt.dumps(game)
    fast = serialization._load_exact(text)
    assert fast is not None  # a record as dumps writes it takes the fast path
    assert fast == game
    assert serialization._load_checked(text, verify=True) == game
    assert serialization._load_exact(text.encode()) == game
    assert fast.history == game.history
    assert fast.legal_actions() == game.legal_actions()


def test_saving_after_every_move_writes_every_record_whole() -> None:
    """The text of a log is extended move by move; in any order, each record is whole."""
    states = random_playout(4, 12, variants=["open-objectives"])
    for state in [*states, *reversed(states), *states[::3]]:
        assert tt.dumps(state) == _reference_record(state)


@pytest.mark.parametrize(
    ("players", "variants"), [(4, []), (3, ["family"]), (2, ["open-objectives"])]
)
def test_player_records_after_every_move_are_written_whole(
    players: int, variants: list[str]
) -> None:
    """Every seat's record after every move, as a server sends them, in any order.

    The views of one state share most of their parts, and consecutive states share what a
    move left alone: each part's text is kept, and must never leak into another seat's or
    another state's record.
    """
    states = random_playout(players, 31, variants=variants)
    fresh = random_playout(players, 31, variants=variants)  # the same game, nothing kept yet
    for state in [*fresh, *reversed(states), *states[::3]]:
        for player in range(players):
            assert tt.dumps(state, player=player) == _reference_view(state, player)


class _Name(str):
    __slots__ = ()


def test_player_records_of_hand_built_boards_are_written_by_the_converter() -> None:
    """A board whose parts are not the plain values play makes is still written right."""
    game = random_playout(3, 5)[20]
    board = attrs.evolve(game.players[1], name=_Name("Bo"), visited=frozenset({True}))
    odd = attrs.evolve(game, players=(game.players[0], board, game.players[2]))
    for player in range(3):
        assert tt.dumps(odd, player=player) == _reference_view(odd, player)


def test_records_in_the_layout_of_earlier_versions_load_through_the_general_path() -> None:
    for game in random_playout(3, 5, variants=["family"])[::9]:
        text = _strict_json(serialization._record_document(game))  # insertion order, spaces
        assert serialization._load_exact(text) is None
        assert tt.loads(text) == game
        assert tt.loads(text, verify=False) == game


def test_a_game_with_its_own_components_loads_through_the_general_path() -> None:
    box = tt.base_components()
    cards = tuple(attrs.evolve(c, id=i) for i, c in enumerate(box.cards[:60]))
    game = tt.new_game(2, seed=4, components=attrs.evolve(box, name="small", cards=cards))
    game = game.apply(game.legal_actions()[0])
    text = tt.dumps(game)
    assert text == _reference_record(game)
    assert serialization._load_exact(text) is None
    assert tt.loads(text) == game


FINISHED = random_playout(4, 8)[-1]
TEXT = tt.dumps(FINISHED)


def _signed(document: dict[str, Any]) -> str:
    """``document`` with its digest recomputed, written in the layout dumps uses."""
    document = {k: v for k, v in document.items() if k != "digest"}
    document["digest"] = serialization._digest(document)
    return serialization._canonical(document)


def _edited(path: tuple[Any, ...], value: Any) -> str:
    document = json.loads(TEXT)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return _signed(document)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        # Python's == takes these for the right value: the fast load must not.
        (("actions", 0, "slot"), True, r"expected an integer, got true @ \$\.actions\[0\]\.slot"),
        (("config", "seed"), 8.0, r"expected an integer, got 8\.0 @ \$\.config\.seed"),
        (("config", "first_player"), False, r"got false @ \$\.config\.first_player"),
        (
            ("snapshot", "turn"),
            float(FINISHED.turn),
            r"expected an integer, got .* @ \$\.snapshot\.turn",
        ),
        (
            ("snapshot", "pumpkin_on_house", 0),
            0,
            r"expected true or false, got 0 @ \$\.snapshot\.pumpkin_on_house\[0\]",
        ),
        (("written_by",), 3, r"expected a string, got 3 @ \$\.written_by"),
        # Careful edits the replay or the comparison with the snapshot refuses.
        (("snapshot", "turn"), FINISHED.turn + 4, r"\$\.snapshot\.turn: the snapshot disagrees"),
        (("setup", "deck", 0), 79, r"\$\.setup\.deck"),
        (("config", "seed"), 9, r"\$\.setup\.grid: the setup in the record is not"),
        (("actions", 5), {"type": "pass"}, r"\$\.actions\[5\] \(pass\): cannot pass"),
        (
            ("variants",),
            [{"name": "family", "version": "0"}],
            r"\$\.variants\[0\]: .* version '0' of variant 'family'",
        ),
    ],
)
def test_careful_edits_in_the_layout_dumps_writes_are_refused(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    text = _edited(path, value)
    assert serialization._load_exact(text) is None
    with pytest.raises(tt.RecordError, match=message):
        tt.loads(text)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"turn":', '"turn":0,"turn":', r"duplicate key 'turn'"),
        ('"seed":8', '"seed":8.0', r"\$\.digest"),
        ('"seed":8', '"seed":NaN', r"NaN is not JSON"),
        ('"format_version":2', '"format_version":2.0', r"format_version: expected a whole number"),
        ('"digest":"sha256:', '"digest":"sha256:0', r"\$\.digest"),
    ],
)
def test_text_edits_in_the_layout_dumps_writes_are_refused(
    old: str, new: str, message: str
) -> None:
    assert old in TEXT
    text = TEXT.replace(old, new, 1)
    assert serialization._load_exact(text) is None
    with pytest.raises(tt.RecordError, match=message):
        tt.loads(text)


def test_a_record_read_fast_is_the_game_saved() -> None:
    assert serialization._load_exact(TEXT) == FINISHED
    assert serialization._load_exact(TEXT[:-1]) is None
    assert serialization._load_exact(TEXT + " ") is None
    assert serialization._load_exact(TEXT.replace(",", ", ", 1)) is None
    assert tt.loads(TEXT.replace(",", ", ", 1)) == FINISHED  # a JSON tool's layout loads too


RECORD = json.loads(TEXT)
PATHS = [
    ("actions", 3, "slot"),
    ("actions", 3, "kid"),
    ("actions", 10),
    ("config", "seed"),
    ("config", "players", 1),
    ("config", "first_player"),
    ("config", "variant_options"),
    ("snapshot", "turn"),
    ("snapshot", "players", 0, "pumpkins"),
    ("snapshot", "players", 2, "kids", 1),
    ("snapshot", "market", 0),
    ("setup", "secret_tiles", 0),
    ("setup", "grid", 4, "treat"),
    ("components",),
    ("custom_components",),
    ("variants",),
    ("rules", "market_size"),
    ("written_by",),
]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 90),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=4),
    st.sampled_from(["base", "take-card", "Player 2", {"type": "pass"}, [], {}]),
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), VALUES)
def test_the_fast_load_never_accepts_what_the_general_load_refuses(
    path: tuple[Any, ...], value: Any
) -> None:
    text = _edited(path, value)
    expected: tt.GameState | str
    try:
        expected = serialization._load_checked(text, verify=True)
    except tt.RecordError as error:
        expected = str(error)
    if isinstance(expected, str):  # refused, and by loads with the same message
        assert serialization._load_exact(text) is None
        with pytest.raises(tt.RecordError) as raised:
            tt.loads(text)
        assert str(raised.value) == expected
    else:
        assert tt.loads(text) == expected

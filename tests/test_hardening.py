"""Hostile arguments get the library's own errors, quickly, with short messages (issues 10, 16)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tricky_treats as tt
from tests.boards import random_playout
from tests.requirements import install_hint
from tricky_treats import serialization
from tricky_treats.host import Table
from tricky_treats.rules import build_player


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("t" + "0" * 5000 + "k1", r"is not an action"),
        ("t٣k٢", r"ASCII digits"),
        ("v²", r"is not an action"),
        ("v1000", r"is not an action"),
        ("x" * 10**6, r"\(1000002 characters\)"),
    ],
)
def test_action_notation_is_short_ascii(text: str, problem: str) -> None:
    with pytest.raises(tt.InvalidActionError, match=problem) as caught:
        tt.parse_action(text)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"players": 10**7}, r"at most 8 players .* got 10000000"),
        ({"players": 10**5000}, r"at most 8 players"),
        ({"players": ["x"] * 100}, r"at most 8 players .* got 100"),
        ({"players": ["a" * 10**6, "b"]}, r"at most 64 printable characters"),
        ({"players": ["Ann", "B\x1bo"]}, r"printable"),
        ({"players": 3, "variants": [5]}, r"variants are given by name .* got 5"),
        ({"players": 3, "variants": 5}, r"variants must be a list of variant names"),
        ({"players": 3, "variants": ["family"] * 100}, r"at most 16 variants"),
        ({"players": 3, "variant_options": "x"}, r"variant_options must map variant names"),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": None}},
            r"variant_options must map variant names",
        ),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": {"x": 1e999}}},
            r"is inf, which JSON cannot hold",
        ),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": {"x": {1: 2}}}},
            r"keys are strings",
        ),
        (
            {"players": 3, "variants": ["family"], "variant_options": {"family": {"x": object()}}},
            r"is a object, not a JSON value",
        ),
        ({"players": 3, "seed": 2**200}, r"seed must be a whole number from 0 to 2\*\*128 - 1"),
        ({"players": 3, "seed": -1}, r"seed must be a whole number"),
        ({"players": 3, "seed": "42"}, r"seed must be a whole number"),
        (
            {"players": 2, "components": "x"},
            r"components must be a ComponentData \(from tt.load_components\(\) .*got 'x'",
        ),
        ({"players": 2, "components": {"a": 1} | {str(i): i for i in range(10**5)}}, r"\.\.\."),
    ],
)
def test_new_game_refuses_hostile_arguments(arguments: dict[str, Any], problem: str) -> None:
    with pytest.raises(tt.ConfigurationError, match=problem) as caught:
        tt.new_game(**arguments)
    assert len(str(caught.value)) < 400


def test_components_that_are_no_component_data_are_refused_everywhere() -> None:
    """Before: new_game, start_game and the vector env raised AttributeError ('str' object
    has no attribute 'rules') for components='x' (issue 46, item 4)."""
    problem = r"components must be a ComponentData .* got 'x'"
    with pytest.raises(tt.ConfigurationError, match=problem):
        tt.start_game(tt.new_game(2, seed=1).config, components="x")  # type: ignore[arg-type]
    pytest.importorskip("numpy", reason=install_hint("pettingzoo"))
    from tricky_treats.adapters.vector import TrickyTreatsVectorEnv

    with pytest.raises(tt.ConfigurationError, match=problem):
        TrickyTreatsVectorEnv(2, components="x")  # type: ignore[arg-type]


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def test_deeply_nested_variant_options_are_refused_before_they_can_break_saving() -> None:
    with pytest.raises(tt.ConfigurationError, match=r"nested deeper than"):
        tt.new_game(players=3, variants=["family"], variant_options={"family": _nested(5000)})
    game = tt.new_game(players=3, variants=["family"], variant_options={"family": _nested(6)})
    assert tt.loads(tt.dumps(game)) == game


# -- records ------------------------------------------------------------------------------------


def _resigned(record: dict[str, Any]) -> str:
    """A record edited with care: its digest recomputed, as an attacker would."""
    record["digest"] = serialization._digest(record)
    return json.dumps(record)


@pytest.fixture(scope="module")
def middle() -> tt.GameState:
    return random_playout(3, 7)[24]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"format": "tricky-treats-record", "format": "x"}', r"duplicate key 'format'"),
        ('{"format": NaN}', r"NaN is not JSON"),
        ('{"format": -Infinity}', r"-Infinity is not JSON"),
        ('{"format": 1e999}', r"out of range"),
        ('{"format": ' + "9" * 5000 + "}", r"a number too long to read"),
        ("[" * 100_000 + "]" * 100_000, r"nested too deeply"),
        (" " * (serialization.MAX_RECORD_BYTES + 1), r"more than the limit of 2,097,152"),
        (b"\xff{}", r"not UTF-8"),
    ],
)
def test_records_are_strict_bounded_json(text: str | bytes, problem: str) -> None:
    for load in (tt.loads, tt.loads_view):
        with pytest.raises(tt.RecordError, match=problem) as caught:
            load(text)
        assert len(str(caught.value)) < 400


FLOAT_OPTIONS = {"weight": 0.1, "tiny": 5e-324, "huge": 1.7976931348623157e308, "list": [-2.5]}
"""Variant options are JSON values, so they may hold floats: these reach every record."""

WRITERS: dict[str, Callable[[tt.GameState], str]] = {
    "game-record": tt.dumps,
    "game-record-indented": lambda game: tt.dumps(game, indent=2),
    "player-record": lambda game: tt.dumps(game, player=0),
    "player-record-indented": lambda game: tt.dumps(game, player=1, indent=2),
}
"""Every way of saving a game: both records, compact (the fast writers) and indented."""


@pytest.mark.parametrize("writer", WRITERS)
def test_floats_in_variant_options_are_written_as_json_and_read_back(writer: str) -> None:
    game = tt.new_game(players=3, variants=["family"], variant_options={"family": FLOAT_OPTIONS})
    text = WRITERS[writer](game)
    record = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} written"))
    if writer.startswith("player"):
        assert record["view"]["variant_options"] == {"family": FLOAT_OPTIONS}
        assert tt.loads_view(text).variant_options == {"family": FLOAT_OPTIONS}
    else:
        assert record["config"]["variant_options"] == {"family": FLOAT_OPTIONS}
        assert tt.loads(text) == game


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf], ids=str)
def test_new_game_refuses_nan_and_infinity_in_variant_options(value: float) -> None:
    """JSON has no NaN nor infinity, so a game whose options hold one could not be saved."""
    with pytest.raises(tt.ConfigurationError, match=r"\['x'\] is -?(nan|inf), which JSON"):
        tt.new_game(players=3, variants=["family"], variant_options={"family": {"x": value}})


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf], ids=str)
def test_no_writer_writes_nan_or_infinity(value: float, writer: str) -> None:
    """A state that holds NaN or infinity all the same (its config evolved by hand, past
    ``new_game``) is not saved: the writer raises rather than write ``NaN`` or ``Infinity``,
    which are not JSON and which strict readers refuse."""
    game = tt.new_game(players=3, variants=["family"], variant_options={"family": {"x": 0.5}})
    config = attrs.evolve(game.config, variant_options={"family": {"x": value}})
    game = attrs.evolve(game, setup=attrs.evolve(game.setup, config=config))
    with pytest.raises(ValueError, match=r"not JSON compliant"):
        WRITERS[writer](game)


def test_a_log_of_many_bad_entries_gives_a_short_message(middle: tt.GameState) -> None:
    record = json.loads(tt.dumps(middle))
    record["actions"] = [{"type": "steal"}] * serialization.MAX_ACTIONS
    with pytest.raises(tt.RecordError, match=r"and 9990 more problems") as caught:
        tt.loads(_resigned(record))
    assert len(str(caught.value)) < 2000
    record["actions"] = [{"type": "pass"}] * (serialization.MAX_ACTIONS + 1)
    with pytest.raises(tt.RecordError, match=r"10,001 actions, more than the 10,000"):
        tt.loads(_resigned(record))


def test_a_variant_appended_to_a_record_is_refused(middle: tt.GameState) -> None:
    """Issue 16: open-objectives appended to a mid-game record would show every secret tile."""
    record = json.loads(tt.dumps(middle))
    version = tt.get_variant("open-objectives").version
    record["variants"].append({"name": "open-objectives", "version": version})
    with pytest.raises(tt.RecordError, match=r"\$\.setup\.secret_tiles_face_up"):
        tt.loads(_resigned(record))


def test_edited_component_data_are_refused() -> None:
    """Issue 16: every trick tile worth 1000 points changed the totals of a verified load."""
    game = tt.play_game(tt.new_game(3, seed=4, variants=["family"]), [tt.RandomAgent()] * 3)[-1]
    record = json.loads(tt.dumps(game))
    for tile in record["components"]["trick_tiles"]["tiles"]:
        tile["points"] = 100
    with pytest.raises(tt.RecordError, match=r"\$\.components: the component data in the record"):
        tt.loads(_resigned(record))


def test_a_record_names_the_variant_versions_it_needs(middle: tt.GameState) -> None:
    game = tt.new_game(3, seed=1, variants=["family"])
    record = json.loads(tt.dumps(game))
    record["variants"][0]["version"] = "999"
    with pytest.raises(tt.RecordError, match=r"version '999' of variant 'family', but version"):
        tt.loads(_resigned(record), verify=False)


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (
            lambda r: r["snapshot"]["players"][0]["kids"][4].append(
                r["snapshot"]["players"][0]["kids"][4][0]
                if r["snapshot"]["players"][0]["kids"][4]
                else r["snapshot"]["market"][0]
            ),
            r"two|not conserved",
        ),
        (
            lambda r: r["snapshot"]["players"][1]["visited"].extend([0, 1, 2, 3, 4, 5, 6, 7, 8]),
            r"footprints|R5|R6|at most 9 entries",
        ),
        (
            lambda r: r["snapshot"]["discarded"].append(r["setup"]["deck"][-1]),
            r"cards are not conserved",
        ),
        (lambda r: r["snapshot"]["players"][0].update(pumpkins=5), r"pumpkins, but"),
        (lambda r: r["snapshot"].update(current_player=None), r"nothing triggered its end"),
        (lambda r: r["snapshot"].update(passes_in_a_row=40), r"passes in a row"),
    ],
)
def test_an_unverified_load_still_refuses_a_broken_snapshot(
    middle: tt.GameState, edit: Any, problem: str
) -> None:
    record = json.loads(tt.dumps(middle))
    edit(record)
    with pytest.raises(tt.RecordError, match=problem):
        tt.loads(_resigned(record), verify=False)


# -- player records -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda v: v.update(player=7), r"view\.player: no seat 7 among 3 players"),
        (lambda v: v.update(current_player=-1), r"view\.current_player: no seat -1"),
        (lambda v: v["secret_tiles"].__setitem__(1, None), r"own secret tile is missing"),
        (
            lambda v: v["secret_tiles"].__setitem__(2, v["secret_tiles"][1]),
            r"another player's secret tile",
        ),
        (lambda v: v["market"].pop(), r"view\.market: 4 entries, expected 5"),
        (lambda v: v["grid"].pop(), r"view\.grid: 8 entries, expected 9"),
        (lambda v: v["deck_cards"].pop(), r"view\.deck_cards: .* entries, expected"),
        (lambda v: v["players"][0]["kids"].pop(), r"expected 5 kids"),
        (
            lambda v: v["players"][0].update(footprints=8 - len(v["players"][0]["visited"]) - 1),
            r"not what the visits leave",
        ),
        (lambda v: v["deck_cards"].__setitem__(0, v["market"][0]), r"a card is in two places"),
        (
            lambda v: v["market"][0].update(
                colour="red" if v["market"][0]["colour"] != "red" else "green"
            ),
            r"not the card of that id in the base game's box",
        ),
        (
            lambda v: v.update(legal_actions=[{"type": "pass"}], current_player=0),
            r"only in their turn",
        ),
    ],
)
def test_a_view_that_loads_is_one_the_engine_could_produce(
    middle: tt.GameState, edit: Any, problem: str
) -> None:
    record = json.loads(tt.dumps(middle, player=1))
    edit(record["view"])
    with pytest.raises(tt.RecordError, match=problem):
        tt.loads_view(json.dumps(record))


def test_a_version_1_player_record_is_migrated(middle: tt.GameState) -> None:
    """Version 1 wrote treat tracks as a list; version 2 by treat name."""
    record = json.loads(tt.dumps(middle, player=2))
    assert isinstance(record["view"]["players"][0]["treats"], dict)
    for player in record["view"]["players"]:
        player["treats"] = [player["treats"][t.value] for t in tt.Treat]
    record["format_version"] = 1
    jsonschema.validate(record, tt.view_schema(1))
    assert tt.loads_view(json.dumps(record)) == middle.view(2)


def test_dumps_of_a_view_says_how_a_view_is_saved(middle: tt.GameState) -> None:
    """Before: AttributeError ('PlayerView' object has no attribute 'setup'); a view lacks
    the name of its component data, which its record holds, so only its game can write it
    (issue 46, item 12)."""
    view = middle.view(1)
    with pytest.raises(tt.ConfigurationError, match=r"dumps\(game, player=view.player\)"):
        tt.dumps(view)  # type: ignore[arg-type]
    with pytest.raises(tt.ConfigurationError, match=r"not a PlayerView"):
        tt.dumps(view, player=1)  # type: ignore[arg-type]
    with pytest.raises(tt.ConfigurationError, match=r"got 'xxx.*\(1000002 characters\)$"):
        tt.dumps("x" * 10**6)  # type: ignore[arg-type]
    assert tt.loads_view(tt.dumps(middle, player=1)) == view


def test_a_record_with_huge_player_names_is_refused(middle: tt.GameState) -> None:
    record = json.loads(tt.dumps(middle))
    record["config"]["players"][0] = "A" * 100_000
    with pytest.raises(tt.RecordError, match=r"at most 64 printable characters") as caught:
        tt.loads(_resigned(record))
    assert len(str(caught.value)) < 400


# -- hand-built states ----------------------------------------------------------------------------


@st.composite
def hand_built_states(draw: st.DrawFn) -> tt.GameState:
    """A state whose boards were built by hand with build_player: any kids, any visits."""
    game = tt.new_game(players=draw(st.integers(2, 4)), seed=draw(st.integers(0, 2**32)))
    cards = list(game.setup.deck[game.deck_position :])
    players = []
    for player in game.players:
        kids: list[list[tt.CostumeCard]] = [[] for _ in range(5)]
        for _ in range(draw(st.integers(0, 8))):
            card = cards.pop(draw(st.integers(0, len(cards) - 1)))
            kid = kids[draw(st.integers(0, 4))]
            if all(c.type is not card.type for c in kid):
                kid.append(card)
        houses = draw(st.lists(st.integers(0, 8), max_size=5, unique=True))
        players.append(
            build_player(
                game.setup,
                name=player.name,
                secret_tile=player.secret_tile,
                kids=kids,
                visited=houses,
                treats=draw(st.lists(st.integers(0, 6), min_size=3, max_size=3)),
            )
        )
    return attrs.evolve(game, players=tuple(players))


@given(hand_built_states(), st.data())
def test_legal_actions_and_apply_agree_on_hand_built_states(
    state: tt.GameState, data: st.DataObject
) -> None:
    """Issue 10: legal_actions() and apply() agree on every state the public API can produce,
    before and after further moves."""
    for _ in range(data.draw(st.integers(1, 6))):
        legal = state.legal_actions()
        for action in state.action_space.actions:
            if action in legal:
                state.apply(action)
            else:
                with pytest.raises(tt.IllegalActionError):
                    state.apply(action)
        if state.is_over:
            return
        state = state.apply(data.draw(st.sampled_from(legal)))


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (
            lambda r: r["rules"].update(kids_per_player=10**20),
            r"kids_per_player: must be between 1 and 8",
        ),
        (
            lambda r: r["rules"].update(kids_per_player=16),
            r"kids_per_player: must be between 1 and 8",
        ),
        (lambda r: r["rules"].update(market_size=10**6), r"market_size: must be between 1 and 10"),
    ],
)
def test_absurd_numbers_in_a_record_are_refused_before_anything_is_built(
    middle: tt.GameState, edit: Any, problem: str
) -> None:
    """Issue 10: kids_per_player of 10**20 made loads run for minutes or run out of memory."""
    record = json.loads(tt.dumps(middle))
    edit(record)
    with pytest.raises(tt.RecordError, match=problem):
        tt.loads(_resigned(record))


def test_absurd_numbers_in_embedded_component_data_are_refused() -> None:
    box = attrs.evolve(tt.base_components(), name="my-box")
    game = tt.new_game(3, seed=4, components=box)
    record = json.loads(tt.dumps(game))
    assert isinstance(record["components"], dict)
    record["components"]["rules"]["kids_per_player"] = 16
    with pytest.raises(tt.RecordError, match=r"kids_per_player: must be between 1 and 8, got 16"):
        tt.loads(_resigned(record))


@pytest.mark.parametrize(
    "variants", [["family"], ["open-objectives"], ["family", "any-mean-house"]]
)
def test_player_records_of_games_with_variants_load(variants: list[str]) -> None:
    """A variant may edit the base box under its name (family plays 36 cards)."""
    states = tt.play_game(tt.new_game(3, seed=8, variants=variants), [tt.RandomAgent()] * 3)
    for state in (states[0], states[len(states) // 2], states[-1]):
        for player in range(3):
            assert tt.loads_view(tt.dumps(state, player=player)) == state.view(player)


# -- issue 37: a saved table is read like a record -------------------------------------------------


def _saved_table() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(Table(tt.new_game(2, seed=3)).save())
    return document


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (lambda: "[" * 100_000 + "]" * 100_000, r"^not a saved table: nested too deeply"),
        (
            lambda: '{"a": ' * 100_000 + "1" + "}" * 100_000,
            r"^not a saved table: nested too deeply",
        ),
        (
            lambda: json.dumps({**_saved_table(), "padding": "x" * 48_000_000}),
            r"^not a saved table: 48,00\d,\d{3} characters, more than the limit of 2,162,688",
        ),
        (lambda: json.dumps({**_saved_table(), "padding": 1}), r"^\$: unknown key 'padding'"),
        (lambda: '{"format": NaN}', r"^not a saved table: NaN is not JSON"),
        (lambda: '{"format": 1, "format": 2}', r"^not a saved table: duplicate key 'format'"),
    ],
    ids=["deep-arrays", "deep-objects", "48-MB", "unknown-key", "nan", "duplicate-key"],
)
def test_a_saved_table_is_strict_bounded_json(text: Callable[[], str], problem: str) -> None:
    """``Table.resume`` gave RecursionError for JSON nested 100,000 deep and accepted a 48 MB
    save with an unknown key."""
    with pytest.raises(tt.RecordError, match=problem) as caught:
        Table.resume(text())
    assert len(str(caught.value)) < 300


def test_a_saved_table_still_resumes() -> None:
    table = Table(tt.new_game(2, seed=3), bots={1: "greedy"})
    again = Table.resume(table.save())
    assert again.game == table.game
    assert again.save() == table.save()


# -- messages quote hostile input short; limits have upper bounds (issue 46, item 9) ----------


def test_a_hostile_language_is_quoted_short() -> None:
    """Before: a 100,000-character --lang value was echoed whole; a number raised
    AttributeError."""
    with pytest.raises(tt.ConfigurationError, match=r"\(100002 characters\); the languages") as c:
        tt.describe_event(tt.Passed(0), ["Ann", "Bo"], language="x" * 100_000)
    assert len(str(c.value)) < 200
    with pytest.raises(tt.ConfigurationError, match=r"a language is a code like 'nl', got 5"):
        tt.describe_event(tt.Passed(0), ["Ann", "Bo"], language=5)  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [4 * 1024 * 1024, 10**100, 63, "big", True])
def test_a_table_message_limit_has_an_upper_bound(limit: object) -> None:
    """Before: max_message_bytes=10**100 (or 4 MB) was accepted and "big" raised TypeError."""
    game = tt.new_game(2, seed=3)
    with pytest.raises(tt.ConfigurationError, match=r"from 64 to 65,536, got ") as caught:
        Table(game, max_message_bytes=limit)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 200
    saved = json.loads(Table(game).save())
    with pytest.raises(tt.RecordError, match=r"^\$.max_message_bytes: expected a whole number"):
        Table.resume(json.dumps({**saved, "max_message_bytes": limit}))


@pytest.mark.parametrize(
    "extra",
    [
        {"k" * 60_000: 1},  # an unknown key
        {f"key{i}": 1 for i in range(3_000)},  # many unknown keys
        {"action": list(range(10_000))},
        {"moves_played": 10**4000},
    ],
    ids=["long-key", "many-keys", "long-action", "huge-moves-played"],
)
def test_a_table_refusal_quotes_the_message_short(extra: dict[str, Any]) -> None:
    """Before: the refusal echoed the unknown keys, the action or moves_played whole (with a
    4 MB limit, a 1 MB key)."""
    table = Table(tt.new_game(2, seed=3), max_message_bytes=64 * 1024)
    move = {"credential": table.credential(0), "action": "pass"} | extra
    (reply,) = table.handle(json.dumps(move))
    assert reply.message["code"] in {"malformed", "invalid-action", "stale"}
    assert len(reply.message["error"]) < 200


def test_a_vector_env_seed_message_is_short() -> None:
    """Before: the message listed every seed (440,037 characters for 20,000 bad seeds)."""
    pytest.importorskip("numpy", reason=install_hint("pettingzoo"))
    from tricky_treats.adapters.vector import TrickyTreatsVectorEnv

    env = TrickyTreatsVectorEnv(2)
    with pytest.raises(tt.ConfigurationError) as caught:
        env.reset(seed=[10**4000, 0])
    assert len(str(caught.value)) < 400

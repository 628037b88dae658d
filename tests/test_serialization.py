"""Game records and player records: save, load, replay, schemas and bad input."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

import tricky_treats as tt
from tests.boards import random_playout
from tricky_treats import serialization


def _record(game: tt.GameState) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(tt.dumps(game))
    return result


@pytest.fixture(scope="module")
def games() -> list[list[tt.GameState]]:
    return [random_playout(players, seed) for players in (2, 3, 4) for seed in range(3)]


@pytest.fixture(scope="module")
def finished() -> tt.GameState:
    return random_playout(3, 11)[-1]


def test_every_state_round_trips(games: list[list[tt.GameState]]) -> None:
    for states in games:
        for state in states:
            text = tt.dumps(state)
            assert tt.loads(text) == state
            assert tt.loads(text, verify=False) == state


def test_a_loaded_game_plays_on_like_the_original(games: list[list[tt.GameState]]) -> None:
    for states in games:
        history = states[-1].history
        middle = len(states) // 2
        loaded = tt.loads(tt.dumps(states[middle]))
        for action, expected in zip(history[middle:], states[middle + 1 :], strict=True):
            assert loaded.legal_actions() == expected_legal(states, loaded)
            loaded = loaded.apply(action)
            assert loaded == expected
        assert loaded.outcome() == states[-1].outcome()


def expected_legal(states: list[tt.GameState], state: tt.GameState) -> tuple[tt.Action, ...]:
    return next(s for s in states if s == state).legal_actions()


def test_record_contents(finished: tt.GameState) -> None:
    record = _record(finished)
    assert record["format"] == tt.RECORD_FORMAT == "tricky-treats-record"
    assert record["format_version"] == tt.RECORD_FORMAT_VERSION == 2
    assert record["written_by"] == f"tricky-treats {tt.__version__}"
    assert record["config"]["seed"] == 11
    assert record["config"]["players"] == list(finished.config.players)
    assert record["variants"] == []
    assert len(record["actions"]) == len(finished.history)
    assert record["digest"] == serialization._digest(record)
    assert record["rules"]["kids_per_player"] == 5
    assert record["custom_components"] is False
    first = finished.history[0]
    assert isinstance(first, tt.TakeCard)
    assert record["actions"][0] == {"type": "take-card", "slot": first.slot, "kid": first.kid}
    assert record["setup"]["deck"] == [c.id for c in finished.setup.deck]
    assert record["snapshot"]["turn"] == finished.turn
    assert record["snapshot"]["current_player"] is None


def test_actions_are_tagged_with_a_stable_tag() -> None:
    game = tt.new_game(2, seed=1)
    for action, tag in [
        (tt.TakeCard(1, 2), {"type": "take-card", "slot": 1, "kid": 2}),
        (tt.VisitHouse(3), {"type": "visit-house", "house": 3}),
        (tt.TrickHouse(0), {"type": "trick-house", "house": 0}),
        (tt.RefreshMarket(), {"type": "refresh-market"}),
        (tt.Pass(), {"type": "pass"}),
    ]:
        assert serialization._converter.unstructure(action, tt.Action) == tag
        assert serialization._converter.structure(tag, tt.Action) == action  # type: ignore[arg-type]
    assert _record(game.apply(tt.TakeCard(1, 2)))["actions"] == [
        {"type": "take-card", "slot": 1, "kid": 2}
    ]


def test_records_and_views_match_the_shipped_schemas(games: list[list[tt.GameState]]) -> None:
    for states in games:
        for state in [*states[:: max(1, len(states) // 6)], states[-1]]:
            jsonschema.validate(_record(state), tt.record_schema())
            for player in range(len(state.players)):
                jsonschema.validate(json.loads(tt.dumps(state, player=player)), tt.view_schema())


def test_schemas_are_valid_json_schemas() -> None:
    for schema in (tt.record_schema(), tt.view_schema()):
        jsonschema.Draft202012Validator.check_schema(schema)


# -- bad input -------------------------------------------------------------------------------


def _edited(game: tt.GameState, edit: Any) -> str:
    """The game's record edited with care: its digest recomputed, so deeper checks speak."""
    record = _record(game)
    edit(record)
    record["digest"] = serialization._digest(record)
    return json.dumps(record)


def test_a_careless_edit_is_caught_by_the_digest(finished: tt.GameState) -> None:
    record = _record(finished)
    record["snapshot"]["players"][0]["pumpkins"] += 1
    with pytest.raises(
        tt.RecordError, match=r"\$\.digest: the record was changed after it was written"
    ):
        tt.loads(json.dumps(record))
    with pytest.raises(tt.RecordError, match=r"\$\.digest"):
        tt.loads(json.dumps(record), verify=False)


def _set(path: list[Any], value: Any) -> Any:
    def edit(record: dict[str, Any]) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _delete(path: list[Any]) -> Any:
    def edit(record: dict[str, Any]) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return edit


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_set(["config", "seed"], "11"), r"expected an integer, got \"11\" @ \$\.config\.seed"),
        (_set(["config", "seed"], 11.0), r"expected an integer, got 11\.0 @ \$\.config\.seed"),
        (
            _set(["config", "any_mean_house"], 0),
            r"true or false, got 0 @ \$\.config\.any_mean_house",
        ),
        (_delete(["config", "seed"]), r"required field missing @ \$\.config\.seed"),
        (_set(["config", "colour"], "red"), r"unknown key colour @ \$\.config"),
        (
            _set(["actions", 2], {"type": "steal"}),
            r"unknown action type \"steal\" .* @ \$\.actions\[2\]",
        ),
        (_set(["actions", 2], {"type": "pass", "x": 1}), r"unknown key x @ \$\.actions\[2\]"),
        (
            _set(["actions", 2], {"type": "take-card", "slot": -1, "kid": 0}),
            r"slot must be a whole number >= 0.* @ \$\.actions\[2\]",
        ),
        (
            _set(["actions", 2], "t0k0"),
            r"expected an action object, got \"t0k0\" @ \$\.actions\[2\]",
        ),
        (
            _set(["actions", 2], {"type": "take-card", "slot": 99, "kid": 0}),
            r"\$\.actions\[2\] \(t99k0\): .*market slots are 0 to 4",
        ),
        (_set(["actions", 2], {"type": "pass"}), r"\$\.actions\[2\] \(pass\): cannot pass"),
        (
            _set(["snapshot", "turn"], 3),
            r"\$\.snapshot is not one the rules can reach: the end was triggered in turn 50, after turn 3",
        ),
        (
            _set(["snapshot", "players", 0, "treats", "candy"], 99),
            r"\$\.snapshot\.players: the snapshot disagrees with the state the log gives",
        ),
        (_set(["snapshot", "market", 0], 999), r"\$\.snapshot\.market\[0\]: no card 999"),
        (
            _set(["snapshot", "players", 0, "kids", 0], [1, 1]),
            r"\$\.snapshot\.players\[0\]: kid 0 wears two",
        ),
        (
            _set(["snapshot", "players", 0, "footprints"], 8),
            r"\$\.snapshot\.players\[0\]\.footprints",
        ),
        (_set(["snapshot", "current_player"], 7), r"\$\.snapshot\.current_player: no seat 7"),
        (
            _set(["snapshot", "deck_position"], 500),
            r"\$\.snapshot\.deck_position: must be from 0 to 72",
        ),
        (
            _set(["setup", "deck", 0], 1),
            r"\$\.setup\.deck: the setup in the record is not the one its seed deals",
        ),
        (
            _set(["config", "players"], ["Solo"]),
            r"\$\.config: cannot deal this game here: Tricky Treats is for 2 to 4 players",
        ),
        (_set(["components"], "deluxe"), r"\$\.components: .* 'deluxe', which is not available"),
        (
            _set(["variants"], [{"name": "ghost", "version": "1.0"}]),
            r"\$\.variants\[0\]: the game was played with variant 'ghost' \(version '1\.0'\), which is not installed here",
        ),
        (
            _set(["variants"], [{"name": "family"}]),
            r"required field missing @ \$\.variants\[0\]\.version",
        ),
        (_set(["format"], "something-else"), r"\$\.format: expected 'tricky-treats-record'"),
        (_set(["format"], "tricky-treats-view"), r"read it with tt\.loads_view"),
        (
            _set(["format_version"], 3),
            r"version 3 of 'tricky-treats-record', but this version of tricky-treats reads versions up to 2",
        ),
        (_set(["format_version"], "1"), r"\$\.format_version: expected a whole number"),
        (_delete(["rules"]), r"required field missing @ \$\.rules"),
        (_set(["rules"], None), r"\$\.rules: required field missing"),
        (_set(["custom_components"], None), r"\$\.custom_components: required field missing"),
        (
            _set(["rules", "kids_per_player"], 4),
            r"\$\.rules: the rules in the record are not those its variants give",
        ),
        (
            _set(["setup", "secret_tiles_face_up"], True),
            r"\$\.setup\.secret_tiles_face_up: the setup in the record is not the one",
        ),
        (
            _set(["variants"], [{"name": "family", "version": "0.0.1"}]),
            r"\$\.variants\[0\]: the game was played with version '0\.0\.1' of variant 'family', but version '.*' is installed here",
        ),
    ],
)
def test_bad_records_raise_the_library_error_naming_the_place(
    finished: tt.GameState, edit: Any, message: str
) -> None:
    with pytest.raises(tt.RecordError, match=message):
        tt.loads(_edited(finished, edit))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"not valid JSON"),
        ("{", r"not valid JSON \(truncated or corrupt\?\)"),
        ("[1, 2]", r"\$: expected a JSON object, got an array of 2"),
        ("null", r"\$: expected a JSON object"),
        (b"\xff\xfe\x00", r"not"),
    ],
)
def test_malformed_json(text: str | bytes, message: str) -> None:
    with pytest.raises(tt.RecordError, match=message):
        tt.loads(text)


def test_a_truncated_file(finished: tt.GameState) -> None:
    text = tt.dumps(finished)
    for cut in (10, len(text) // 2, len(text) - 1):
        with pytest.raises(tt.RecordError, match="not valid JSON"):
            tt.loads(text[:cut])


def test_older_versions_go_through_the_migration_chain(
    finished: tt.GameState, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A version-2 record read by a reader of version 3 is migrated step by step."""
    monkeypatch.setitem(serialization._CURRENT, tt.RECORD_FORMAT, 3)
    steps: list[int] = []

    def two_to_three(document: dict[str, Any]) -> dict[str, Any]:
        steps.append(document["format_version"])
        return document

    monkeypatch.setitem(serialization._MIGRATIONS[tt.RECORD_FORMAT], 2, two_to_three)
    document, written = serialization._parse(tt.dumps(finished), tt.RECORD_FORMAT)
    assert steps == [2]
    assert (written, document["format_version"]) == (2, 3)


# -- player records ----------------------------------------------------------------------------


def test_player_record_holds_only_what_the_player_may_see(games: list[list[tt.GameState]]) -> None:
    """R16: no deck order, no seed, no other player's secret tile."""
    for states in games:
        for state in states[:-1:9]:
            for player in range(len(state.players)):
                text = tt.dumps(state, player=player)
                record = json.loads(text)
                assert "seed" not in text
                assert "deck" not in record["view"]
                assert "checks" not in record
                tiles = record["view"]["secret_tiles"]
                assert [t is not None for t in tiles] == [
                    p == player for p in range(len(state.players))
                ]
                for p, sheet in enumerate(record["view"]["scores"]):
                    secret = state.players[p].secret_tile
                    if p != player:
                        assert all(s["mean_house"] is not None for s in sheet["trick_tiles"]), (
                            secret
                        )
                undealt = {c.id for c in state.setup.deck[state.deck_position :]}
                deck = [c["id"] for c in record["view"].pop("deck_cards")]
                assert deck == sorted(undealt)  # what is in the deck, never its order
                seen = {c["id"] for c in _cards(record["view"])}
                assert not seen & undealt


def _cards(value: Any) -> list[dict[str, Any]]:
    """Every card object anywhere in a JSON value."""
    if isinstance(value, dict):
        if {"colour", "theme", "icon"} <= value.keys():
            return [value]
        return [c for v in value.values() for c in _cards(v)]
    if isinstance(value, list):
        return [c for v in value for c in _cards(v)]
    return []


def test_player_record_round_trips_to_the_view(games: list[list[tt.GameState]]) -> None:
    for states in games:
        for state in (states[0], states[len(states) // 2], states[-1]):
            for player in range(len(state.players)):
                assert tt.loads_view(tt.dumps(state, player=player)) == state.view(player)


def test_player_record_after_the_end_shows_every_secret_tile(finished: tt.GameState) -> None:
    """R16: each secret tile is hidden from the other players "until the game ends": then
    every player's record shows each seat's secret tile, the very one dealt to that seat."""
    dealt = finished.setup.secret_tiles
    assert len({tile.id for tile in dealt}) == len(dealt) == 3  # no seat could pass for another
    for player in range(3):
        text = tt.dumps(finished, player=player)
        shown = json.loads(text)["view"]["secret_tiles"]
        assert [tile["id"] for tile in shown] == [tile.id for tile in dealt]
        assert tt.loads_view(text).secret_tiles == dealt


def test_a_player_record_is_not_a_game_record(finished: tt.GameState) -> None:
    with pytest.raises(tt.RecordError, match=r"read it with tt\.loads_view"):
        tt.loads(tt.dumps(finished, player=0))
    with pytest.raises(tt.RecordError, match=r"read it with tt\.loads\b"):
        tt.loads_view(tt.dumps(finished))


def test_player_record_totals_are_checked(finished: tt.GameState) -> None:
    record = json.loads(tt.dumps(finished, player=0))
    record["view"]["scores"][0]["total"] += 1
    with pytest.raises(tt.RecordError, match=r"total is .* but the parts add up to"):
        tt.loads_view(json.dumps(record))


def test_dumps_for_an_unknown_player(finished: tt.GameState) -> None:
    with pytest.raises(tt.UnknownPlayerError):
        tt.dumps(finished, player=3)


def test_a_state_changed_by_hand_saves_but_only_loads_unverified() -> None:
    """What loads(verify=False) accepts, dumps writes, and the other way round."""
    import attrs

    from tests.boards import card, with_player

    game = tt.new_game(2, seed=1).apply(tt.TakeCard(0, 0))
    taken = game.players[0].kids[0][0]
    moved = with_player(game, 0, kids=[[], [taken], [], [], []])
    text = tt.dumps(moved)
    assert tt.loads(text, verify=False) == moved
    with pytest.raises(tt.RecordError, match=r"\$\.snapshot\.players: the snapshot disagrees"):
        tt.loads(text)
    broken = with_player(game, 0, kids=[[taken, card("red", "fable", "legs")], [], [], [], []])
    with pytest.raises(
        tt.RecordError, match=r"the state is not one the rules can reach: cards are not conserved"
    ):
        tt.dumps(broken)
    with pytest.raises(tt.RecordError, match=r"player 1 is to act in turn 4"):
        tt.dumps(attrs.evolve(game, turn=4))

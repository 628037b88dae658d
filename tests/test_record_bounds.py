"""Hostile records (issue 27, items 1 to 9): each is refused with the library's own error.

The figures of each case, before and after, come from ``benchmarks/bench_hostile_records.py``;
these tests check what is refused and how, never how fast.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import tricky_treats as tt
from tricky_treats import serialization
from tricky_treats.components import base_components, components_document

SHORT = 2000
"""The longest message any of these cases may give (they used to repeat megabytes)."""


@pytest.fixture(scope="module")
def middle() -> tt.GameState:
    game = tt.new_game(3, seed=1)
    for _ in range(10):
        game = game.apply(game.legal_actions()[0])
    return game


@pytest.fixture(scope="module")
def family() -> tt.GameState:
    game = tt.new_game(3, seed=1, variants=["family"])
    for _ in range(10):
        game = game.apply(game.legal_actions()[0])
    return game


def _document(game: tt.GameState) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(tt.dumps(game))
    return document


def _signed(document: dict[str, Any]) -> str:
    """The document with its digest computed again: a careful edit, not an accident."""
    document.pop("digest", None)
    document["digest"] = serialization._digest(document)
    return json.dumps(document, ensure_ascii=False)


def _refused(load: Callable[[], object], match: str) -> str:
    with pytest.raises(tt.RecordError, match=match) as raised:
        load()
    message = str(raised.value)
    assert len(message) < SHORT
    return message


# -- 1. lone surrogates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"written_by":"', '"written_by":"\\ud800'),
        ('"players":["', '"players":["\\udfff'),
        ('"variant_options":{}', '"variant_options":{"\\ud800":{}}'),
    ],
)
def test_a_lone_surrogate_in_a_record_is_refused(middle: tt.GameState, old: str, new: str) -> None:
    text = tt.dumps(middle).replace(old, new, 1)
    for verify in (True, False):
        _refused(partial(tt.loads, text, verify=verify), r"lone surrogate .* not Unicode text")
    raw = text.replace("\\ud800", "\ud800").replace("\\udfff", "\udfff")  # the characters
    _refused(lambda: tt.loads(raw), r"lone surrogate")


def test_a_surrogate_pair_is_text_like_any_other(middle: tt.GameState) -> None:
    named = tt.new_game(["Ann \U0001f383", "Bo"], seed=3)
    text = tt.dumps(named).replace("\U0001f383", "\\ud83c\\udf83")  # the same name, escaped
    assert tt.loads(text) == named


def test_a_lone_surrogate_in_a_player_record_is_refused(middle: tt.GameState) -> None:
    text = tt.dumps(middle, player=0).replace('"written_by": "', '"written_by": "\\ud800', 1)
    _refused(lambda: tt.loads_view(text), r"\$\.written_by holds a lone surrogate")


@pytest.mark.parametrize("options", [{"family": {"x": "\ud800"}}, {"family": {"\ud800": 1}}])
def test_a_lone_surrogate_in_variant_options_is_a_configuration_error(
    options: dict[str, Any],
) -> None:
    with pytest.raises(tt.ConfigurationError, match=r"lone surrogate"):
        tt.new_game(2, variants=["family"], variant_options=options)


# -- 2. version-1 records ------------------------------------------------------------------------


def _as_version_1(document: dict[str, Any]) -> dict[str, Any]:
    document["format_version"] = 1
    for key in ("digest", "custom_components", "rules"):
        del document[key]
    del document["setup"]["secret_tiles_face_up"]
    return document


def test_a_record_rewritten_as_version_1_meets_the_checks_of_a_current_one(
    middle: tt.GameState,
) -> None:
    document = _as_version_1(_document(middle))
    box = components_document(base_components())
    box["trick_tiles"]["tiles"][0]["points"] = 99
    box["rules"]["pumpkin_points"] = 50
    document["components"] = box
    _refused(
        lambda: tt.loads(json.dumps(document)),
        r"\$\.components: the component data in the record are not what its variants make",
    )


def test_a_version_1_record_as_it_was_written_still_loads(middle: tt.GameState) -> None:
    document = _as_version_1(_document(middle))
    assert tt.loads(json.dumps(document)) == middle


@pytest.mark.parametrize(
    "field", ["custom_components", "rules", "digest", "setup.secret_tiles_face_up"]
)
def test_a_version_1_record_cannot_carry_fields_of_version_2(
    middle: tt.GameState, field: str
) -> None:
    document = _document(middle)
    *parents, name = field.split(".")
    inner = document
    for parent in parents:
        inner = inner[parent]
    value = inner[name]
    _as_version_1(document)
    inner[name] = value
    _refused(lambda: tt.loads(json.dumps(document)), rf"\$\.{field}: not a field of version 1")


# -- 3. variant options: one check for new_game and records ----------------------------------


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"open-objectives": {"x": 1}}, r"names variants not in the game: \['open-objectives'\]"),
        ({"family": {"x": _nested(900)}}, r"nested deeper than"),
        ({"family": {"x": "x" * 1_500_000}}, r"more than 65,536"),
    ],
)
def test_records_hold_only_variant_options_that_new_game_takes(
    family: tt.GameState, options: dict[str, Any], problem: str
) -> None:
    with pytest.raises(tt.ConfigurationError, match=problem):
        tt.new_game(3, seed=1, variants=["family"], variant_options=options)
    document = _document(family)
    document["config"]["variant_options"] = options
    text = _signed(document)
    for verify in (True, False):
        _refused(
            partial(tt.loads, text, verify=verify), rf"\$\.config\.variant_options: .*{problem}"
        )


def test_player_records_hold_only_variant_options_that_new_game_takes(
    family: tt.GameState,
) -> None:
    view = json.loads(tt.dumps(family, player=0))
    view["view"]["variant_options"] = {"open-objectives": {"x": 1}}
    _refused(
        lambda: tt.loads_view(json.dumps(view)),
        r"\$\.view\.variant_options: variant_options names variants not in the game",
    )


# -- 4. bounded work -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "entry", "count", "problem"),
    [
        (["snapshot", "players"], {}, 150_000, r"at most 8 entries allowed, got 150000"),
        (["variants"], {}, 150_000, r"at most 16 entries allowed, got 150000"),
        (["config", "players"], "P", 100_000, r"at most 8 entries allowed, got 100000"),
        (["setup", "deck"], 0, 100_000, r"at most 1000 entries allowed, got 100000"),
        (["snapshot", "discarded"], 0, 100_000, r"at most 1000 entries allowed"),
        (["snapshot", "players", 0, "kids"], [], 100_000, r"at most 8 entries allowed"),
        (["snapshot", "players", 0, "kids", 0], 0, 100_000, r"at most 3 entries allowed"),
        (["snapshot", "players", 0, "visited"], 1, 300_000, r"at most 9 entries allowed"),
        (["snapshot", "street_flipped"], True, 100_000, r"at most 6 entries allowed"),
    ],
)
def test_every_array_of_a_record_is_bounded_by_the_rules(
    middle: tt.GameState, path: list[Any], entry: object, count: int, problem: str
) -> None:
    document = _document(middle)
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = [entry] * count
    _refused(lambda: tt.loads(_signed(document)), problem)


def test_objects_keyed_by_data_are_bounded_too(middle: tt.GameState) -> None:
    document = _document(middle)
    document["snapshot"]["players"][0]["treats"] = {f"t{i}": 0 for i in range(100_000)}
    _refused(lambda: tt.loads(_signed(document)), r"at most 3 treat counts allowed")
    document = _document(middle)
    document["config"]["variant_options"] = {f"v{i}": 0 for i in range(100_000)}
    _refused(lambda: tt.loads(_signed(document)), r"at most 16 variants' options allowed")


@pytest.mark.parametrize(
    ("field", "count", "problem"),
    [
        ("players", 150_000, r"players: at most 8 entries allowed, got 150000"),
        ("history", 20_000, r"history: at most 10000 entries allowed"),
        ("deck_cards", 100_000, r"deck_cards: at most 1000 entries allowed"),
        ("legal_actions", 100_000, r"legal_actions: at most \d+ entries allowed"),
    ],
)
def test_every_array_of_a_player_record_is_bounded_by_the_rules(
    middle: tt.GameState, field: str, count: int, problem: str
) -> None:
    view = json.loads(tt.dumps(middle, player=0))
    view["view"][field] = [{}] * count
    _refused(lambda: tt.loads_view(json.dumps(view)), problem)


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        (["scores", 0, "extras"], r"extras: at most 1000 entries allowed, got 150000"),
        (["scores", 0, "costumes"], r"costumes: at most 8 entries allowed"),
        (["unseen_tiles", 0, "treats"], r"treats: at most 10 entries allowed"),
        (["grid", 0, "neighbour", "tiers"], r"tiers: at most 10 entries allowed"),
    ],
)
def test_arrays_inside_a_player_records_parts_are_bounded_too(
    middle: tt.GameState, path: list[Any], problem: str
) -> None:
    view = json.loads(tt.dumps(middle, player=0))
    parent = view["view"]
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = [{}] * 150_000
    _refused(lambda: tt.loads_view(json.dumps(view)), problem)


# -- 5. no file opened by a record -----------------------------------------------------------


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every component data file opened or looked at (by ``Path.open`` or ``os.stat``)."""
    paths: list[str] = []
    real_open, real_stat = Path.open, os.stat

    def spy_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self.suffix == ".toml" and self.name != "base.toml":
            paths.append(str(self))
        return real_open(self, *args, **kwargs)

    def spy_stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith("box.toml"):
            paths.append(str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", spy_open)
    monkeypatch.setattr(os, "stat", spy_stat)
    return paths


def _card_data_game(tmp_path: Path) -> tuple[tt.GameState, Path]:
    path = tmp_path / "my-box.toml"
    base = Path(tt.__file__).parent / "data" / "base.toml"
    path.write_text(base.read_text(encoding="utf-8").replace("points = 3", "points = 5", 1))
    game = tt.new_game(
        2, seed=1, variants=["card-data"], variant_options={"card-data": {"file": str(path)}}
    )
    return game.apply(game.legal_actions()[0]), path


def test_a_record_never_makes_loads_open_a_file(tmp_path: Path, opened: list[str]) -> None:
    game, _ = _card_data_game(tmp_path)
    text = tt.dumps(game)
    opened.clear()
    assert tt.loads(text) == game  # from the record's copy of the data
    assert tt.loads(text, verify=False) == game
    assert opened == []
    assert tt.loads(text, read_files=True) == game  # asked for: read and checked
    assert opened


def test_a_record_naming_any_file_opens_nothing_even_when_files_may_be_read(
    tmp_path: Path, opened: list[str]
) -> None:
    game, _ = _card_data_game(tmp_path)
    document = _document(game)
    document["config"]["variant_options"]["card-data"]["file"] = str(tmp_path / "other-box.toml")
    changed = serialization._canonical_record(document)  # laid out as dumps writes it
    opened.clear()
    for read_files in (False, True):  # a wrong digest is refused before anything is dealt
        _refused(partial(tt.loads, changed, read_files=read_files), r"\$\.digest")
    assert opened == []
    assert tt.loads_view(tt.dumps(game, player=0)) == game.view(0)
    assert opened == []


def test_a_record_naming_a_fifo_does_not_hang(tmp_path: Path) -> None:
    game, _ = _card_data_game(tmp_path)
    fifo = tmp_path / "fifo-box.toml"
    os.mkfifo(fifo)
    document = _document(game)
    document["config"]["variant_options"]["card-data"]["file"] = str(fifo)
    text = _signed(document)
    loaded: list[tt.GameState] = []
    # A careful edit of the option: dealt from the record's copy, which its setup matches.
    reader = threading.Thread(target=lambda: loaded.append(tt.loads(text)), daemon=True)
    reader.start()
    reader.join(timeout=60)
    if reader.is_alive():  # opened the FIFO: release it, so that the test run goes on
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("loads opened the FIFO that the record names")
    assert loaded[0].config.variant_options == {"card-data": {"file": str(fifo)}}


# -- 6. short messages -------------------------------------------------------------------------


def test_messages_do_not_repeat_megabytes_of_input(middle: tt.GameState) -> None:
    document = _document(middle)
    document["snapshot"]["k" * 1_000_000] = 1
    _refused(lambda: tt.loads(_signed(document)), r"unknown key k+\.\.\.\(1,000,000 characters\)")
    document = _document(middle)
    document["snapshot"].update({f"key{i}": i for i in range(1000)})
    _refused(lambda: tt.loads(_signed(document)), r"unknown keys key0, key1, key10 and 997 more")
    view = json.loads(tt.dumps(middle, player=0))
    view["view"]["players"][0]["visited"] = [1] * 8
    _refused(lambda: tt.loads_view(json.dumps(view)), r"house 1 is listed twice")
    view["view"]["players"][0]["visited"] = [1] * 300_000
    _refused(lambda: tt.loads_view(json.dumps(view)), r"visited: at most 9 entries allowed")
    document = _document(middle)
    document["config"]["variant_options"] = {"x" * 1_000_000: {}}
    _refused(lambda: tt.loads(_signed(document)), r"names variants not in the game")


# -- 7. player records the engine could not produce ---------------------------------------------


def test_a_base_game_view_showing_every_other_tile_mid_game_is_refused(
    middle: tt.GameState,
) -> None:
    view = json.loads(tt.dumps(middle, player=0))
    tiles = [serialization._converter.unstructure(p.secret_tile) for p in middle.players]
    view["view"]["secret_tiles"] = tiles
    _refused(
        lambda: tt.loads_view(json.dumps(view)),
        r"another player's secret tile is shown while the game goes on",
    )


def test_a_view_of_a_variant_game_holds_only_the_cards_of_its_box() -> None:
    game = tt.new_game(3, seed=1, variants=["open-objectives"])
    view = json.loads(tt.dumps(game, player=0))
    card = view["view"]["market"][0]
    card["colour"] = "red" if card["colour"] != "red" else "green"
    _refused(
        lambda: tt.loads_view(json.dumps(view)),
        r"a card that is not the card of that id in the box its variants make",
    )


def test_a_view_of_a_game_with_a_variant_not_installed_is_refused(middle: tt.GameState) -> None:
    view = json.loads(tt.dumps(middle, player=0))
    for place in (view, view["view"]):
        place["variants"] = [{"name": "no-such-variant", "version": "1.0"}]
    _refused(lambda: tt.loads_view(json.dumps(view)), r"which is not installed here")


def test_views_of_variant_games_still_load(family: tt.GameState) -> None:
    for seat in range(3):
        assert tt.loads_view(tt.dumps(family, player=seat)) == family.view(seat)


# -- 8. the size limit counts bytes ---------------------------------------------------------------


def test_the_size_limit_counts_bytes_of_text(middle: tt.GameState) -> None:
    document = _document(middle)
    document["written_by"] = "\u20ac" * 2_090_000  # under the limit in characters
    text = _signed(document)
    assert len(text) < tt.MAX_RECORD_BYTES < len(text.encode())
    _refused(lambda: tt.loads(text), r"bytes as UTF-8, more than the limit of 2,097,152 bytes")


# -- 9. component files --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("x = " + "9" * 5000 + "\n", r"box\.toml: .*a number of more than 4300 digits"),
        ('"\\"".' + ".".join(["a"] * 100) + " = 1\n", r"a dotted key has more than 8 parts"),
        ('[ "a\\\\" . ' + " . ".join(["b"] * 100) + " ]\n", r"a dotted key has more than 8"),
    ],
)
def test_hostile_component_files_are_refused(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "box.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(tt.ComponentDataError, match=problem):
        tt.load_components(path)

"""Malformed input from Hypothesis: only the library's own exceptions may come out."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tests.boards import random_playout
from tricky_treats import serialization
from tricky_treats.components import parse_components
from tricky_treats.host import SPECTATORS, Table

HOSTILE_SCALARS = st.sampled_from(
    [
        *(10**20, -(10**20), 10**50, 2**63, 16, 1000, -1, float("nan"), float("inf")),
        *("x" * 5000, "٣", "\ud800", "a\udfffb", "\u20ac" * 3000, "k" * 100_000),
    ]
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | HOSTILE_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
RECORD = json.loads(tt.dumps(random_playout(3, 21)[30]))
VIEW = json.loads(tt.dumps(random_playout(3, 21)[30], player=1))
BOX = tomllib.loads((Path(tt.__file__).parent / "data" / "base.toml").read_text(encoding="utf-8"))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += _paths(item, (*prefix, index))
    return paths


RECORD_PATHS = [p for p in _paths(RECORD) if p]
BOX_FILES = ["/dev/zero", "/nonexistent/box.toml", "/etc/passwd", "/tmp", "box.toml"]
"""Files that a hostile record may name (none is ever opened or looked at by loads)."""


@st.composite
def hostile_records(draw: st.DrawFn) -> dict[str, Any]:
    """A mutated record, perhaps rewritten as version 1 or naming a file for card-data."""
    document = draw(mutated(RECORD, RECORD_PATHS))
    shape = draw(st.sampled_from(["as it is", "version 1", "card-data file"]))
    if shape == "version 1":
        document["format_version"] = 1
        for key in ("digest", "custom_components", "rules"):
            document.pop(key, None)
        setup = document.get("setup")
        if isinstance(setup, dict):
            setup.pop("secret_tiles_face_up", None)
    elif shape == "card-data file":
        document["variants"] = [{"name": "card-data", "version": "1.0"}]
        config = document.get("config")
        if isinstance(config, dict):
            config["variant_options"] = {"card-data": {"file": draw(st.sampled_from(BOX_FILES))}}
    return document


@contextmanager
def files_opened() -> Iterator[list[str]]:
    """Each of ``BOX_FILES`` opened (by ``Path.open``) or looked at (``os.stat``) inside.

    Each is refused with OSError, so that a record naming a FIFO cannot hang the run; the
    library's own files (entry points, schemas) are opened as usual.
    """
    paths: list[str] = []
    real_open, real_stat = Path.open, os.stat

    def spy_open(path: Path, *args: Any, **kwargs: Any) -> Any:
        if str(path) not in BOX_FILES:
            return real_open(path, *args, **kwargs)
        paths.append(str(path))
        raise OSError(f"the fuzz test refuses to open {path}")

    def spy_stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path) not in BOX_FILES:
            return real_stat(path, *args, **kwargs)
        paths.append(str(path))
        raise OSError(f"the fuzz test refuses to look at {path}")

    with mock.patch.object(Path, "open", spy_open), mock.patch.object(os, "stat", spy_stat):
        yield paths


MAX_MESSAGE = 4096
"""The longest error message allowed: messages must not repeat hostile input."""


def _check_message(error: tt.RecordError) -> None:
    if len(str(error)) >= MAX_MESSAGE:
        raise AssertionError(f"a message of {len(str(error)):,} characters: {str(error)[:200]}")


VIEW_PATHS = [p for p in _paths(VIEW) if p]
BOX_PATHS = [p for p in _paths(BOX) if p]


@st.composite
def mutated(
    draw: st.DrawFn, document: dict[str, Any], paths: list[tuple[Any, ...]]
) -> dict[str, Any]:
    """``document`` with one to three values replaced, removed or given an extra key."""
    result = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent = result
        try:
            for key in path[:-1]:
                parent = parent[key]
            how = draw(st.sampled_from(["replace", "delete", "add", "grow"]))
            if how == "replace":
                parent[path[-1]] = draw(JSON)
            elif how == "grow":  # an array of many entries, where one or a few belong
                parent[path[-1]] = [draw(JSON)] * draw(st.sampled_from([9, 17, 1001, 5000]))
            elif how == "delete" and isinstance(parent, dict):
                del parent[path[-1]]
            elif isinstance(parent, dict):
                parent[draw(st.text(min_size=1, max_size=5))] = draw(JSON)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed this path
    return result


@given(st.text())
def test_action_parser(text: str) -> None:
    try:
        action = tt.parse_action(text)
    except tt.InvalidActionError:
        return
    assert tt.parse_action(str(action)) == action


@given(st.one_of(st.text(), st.binary()))
def test_loads_with_arbitrary_text(text: str | bytes) -> None:
    with pytest.raises(tt.RecordError):
        tt.loads(text)


def _signed(document: dict[str, Any]) -> str:
    """The document with its digest recomputed: a careful edit, which the deeper checks face.

    A version-1 record has no digest; a lone surrogate has none (it is not UTF-8 text).
    """
    document = json.loads(json.dumps(document))  # keys as JSON has them (a mutation adds 0)
    document.pop("digest", None)
    if document.get("format_version") != 1:
        try:
            document["digest"] = serialization._digest(document)
        except UnicodeEncodeError:
            document["digest"] = "sha256:" + "0" * 64
    return json.dumps(document)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hostile_records(), st.booleans())
def test_loads_with_mutated_records(document: dict[str, Any], verify: bool) -> None:
    """Only RecordError comes out, with a short message, and no file is opened; what loads
    accepts, dumps writes and loads reads back (a version-1 record too)."""
    text = _signed(document)
    with files_opened() as opened:
        try:
            game = tt.loads(text, verify=verify)
        except tt.RecordError as error:
            _check_message(error)
            return
        finally:
            assert opened == []
    assert tt.loads(tt.dumps(game), verify=verify) == game


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hostile_records())
def test_mutated_records_laid_out_as_dumps_writes_them(document: dict[str, Any]) -> None:
    """Such records take the fast load: it must say what the general load says of the same
    record with a line end after it (as an editor saves it), which the fast load leaves to
    the general one."""
    signed = json.loads(_signed(document))
    text = json.dumps(signed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected: tt.GameState | str
    with files_opened() as opened:
        try:
            expected = tt.loads(text + "\n")
        except tt.RecordError as error:
            expected = str(error)
    assert opened == []
    if isinstance(expected, str):
        with pytest.raises(tt.RecordError) as raised:
            tt.loads(text)
        # the same problem; where it is and the text's size count the line end
        assert _sizes_aside(str(raised.value)) == _sizes_aside(expected)
    else:
        assert tt.loads(text) == expected


def _sizes_aside(message: str) -> str:
    """``message`` with its character positions and counts left out."""
    return re.sub(r"\d[\d,]* character", "N character", message)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated(RECORD, RECORD_PATHS))
def test_a_careless_edit_never_loads(document: dict[str, Any]) -> None:
    text = json.dumps(document)
    if json.loads(text) == RECORD:
        return  # the mutation changed nothing
    with pytest.raises(tt.RecordError):
        tt.loads(text, verify=False)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated(VIEW, VIEW_PATHS))
def test_loads_view_with_mutated_player_records(document: dict[str, Any]) -> None:
    try:
        tt.loads_view(json.dumps(document))
    except tt.RecordError as error:
        _check_message(error)
        return


@given(mutated(BOX, BOX_PATHS))
def test_component_parser_with_mutated_documents(document: dict[str, Any]) -> None:
    try:
        data = parse_components(document, "fuzz")
    except tt.ComponentDataError:
        return
    assert isinstance(data, tt.ComponentData)


@given(st.text())
def test_component_files_with_arbitrary_text(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    path = tmp_path_factory.mktemp("box") / "box.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(tt.ComponentDataError, match=r"box\.toml"):
        tt.load_components(path)


# -- issue 37: the attack's other targets, kept -----------------------------------------------------


@st.composite
def table_messages(draw: st.DrawFn) -> str | bytes:
    """What a client may send: any text or bytes, JSON of any shape, or a move made hostile."""
    move = {"type": "move", "credential": "guess", "action": "pass", "seat": 0}
    return draw(
        st.text()
        | st.binary()
        | JSON.map(json.dumps)
        | st.dictionaries(st.sampled_from(sorted(move)), JSON).map(json.dumps)
        | st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth)
    )


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(table_messages(), st.sampled_from([None, 0, 1, SPECTATORS, 7, "x"]))
def test_a_table_answers_any_message_with_json_and_keeps_its_game(
    message: str | bytes, sender: int | str | None
) -> None:
    """``Table.handle`` never raises on what a client sends: an error for the sender, the
    game unchanged, or the updates of a legal move."""
    table = Table(tt.new_game(2, seed=4_611_686_018_427_387_917))
    before = table.game
    answers = table.handle(message, sender=sender)
    assert answers
    for answer in answers:
        assert isinstance(json.loads(answer.text), dict)
        assert len(answer.text) < 100_000
    if json.loads(answers[0].text).get("type") == "error":
        assert table.game is before


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), st.binary(), JSON.map(json.dumps)))
def test_resuming_a_table_from_anything_gives_a_table_or_record_error(text: str | bytes) -> None:
    try:
        Table.resume(text)
    except tt.RecordError as exc:
        message = str(exc)
    else:
        return
    assert len(message) < 1000


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=40)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**128 - 1),
    steps=st.integers(0, 60),
    variants=st.lists(
        st.sampled_from(["family", "open-objectives", "any-mean-house"]), unique=True
    ),
)
def test_no_view_depends_on_the_deck_order_the_others_tiles_or_the_seed(
    players: int, seed: int, steps: int, variants: list[str]
) -> None:
    """The hidden-information differential the attack ran (225,870 comparisons, no leak):
    each seat's view, its player record and its legal actions are the same whatever the
    order of the cards left, the other seats' tiles and the seed are."""
    from tricky_treats.testing import with_hidden_changed

    try:
        game = tt.new_game(players, seed=seed, variants=variants)
    except tt.ConfigurationError:
        return  # a combination not for this many players
    states = tt.play_game(game, [tt.RandomAgent()] * players, seed=seed % 1000)
    state = states[min(steps, len(states) - 1)]
    for seat in range(players):
        view, record = state.view(seat), tt.dumps(state, player=seat)
        for hidden in with_hidden_changed(state, seat, random.Random(seed)):
            assert hidden.view(seat) == view
            assert tt.dumps(hidden, player=seat) == record
            if hidden.current_player == seat:
                assert hidden.legal_actions() == state.legal_actions()

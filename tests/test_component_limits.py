"""Component data within sane ranges (issue 10, "Unbounded work"; issue 16, "Bounded inputs").

Every number in component data and rules has a range (``COMPONENT_LIMITS``), checked by the
component classes when they are built, from a file or by a plugin; files are read up to 1 MiB;
error messages list at most 10 problems.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats.components import COMPONENT_LIMITS, parse_components

DATA_FILE = Path(tt.__file__).parent / "data" / "base.toml"
DOCS = Path(__file__).parent.parent / "docs" / "component-data.md"
BOX: dict[str, Any] = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))
MIB = 1 << 20


def _roomy() -> dict[str, Any]:
    """The base box with trick tiles enough for 8 players (3 mean houses + 8 secret tiles)."""
    doc = copy.deepcopy(BOX)
    tiles = doc["trick_tiles"]["tiles"]
    tiles += [{"id": f"extra-{i}", "treats": ["candy"], "points": 1} for i in range(3)]
    return doc


def _set(doc: dict[str, Any], path: tuple[Any, ...], value: object) -> dict[str, Any]:
    parent: Any = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


CARD = ("costume_cards", "cards", 0)
HOUSE = ("nice_neighbours", "houses", 0)
TILE = ("trick_tiles", "tiles", 0)
TOKEN = ("street_bonus_tokens", "tokens", 0)

# (path, a value at the limit, the value just past it, the message for that value)
RANGES: list[tuple[tuple[Any, ...], object, object, str]] = [
    (("rules", "min_players"), 2, 1, r"rules\.min_players: must be between 2 and 8, got 1"),
    (("rules", "max_players"), 8, 9, r"rules\.max_players: must be between 2 and 8, got 9"),
    (("rules", "kids_per_player"), 1, 0, r"rules\.kids_per_player: must be between 1 and 8, got 0"),
    (("rules", "kids_per_player"), 8, 9, r"rules\.kids_per_player: must be between 1 and 8, got 9"),
    (("rules", "footprints_per_player"), 1, 0, r"footprints_per_player: must be between 1 and 20"),
    (("rules", "footprints_per_player"), 20, 21, r"rules\.footprints_per_player: .* got 21"),
    (("rules", "market_size"), 1, 0, r"rules\.market_size: must be between 1 and 10, got 0"),
    (("rules", "market_size"), 10, 11, r"rules\.market_size: must be between 1 and 10, got 11"),
    (("rules", "pumpkin_points"), 0, -1, r"rules\.pumpkin_points: must be between 0 and 100"),
    (("rules", "pumpkin_points"), 100, 101, r"rules\.pumpkin_points: .* 0 and 100, got 101"),
    ((*CARD, "id"), 0, -1, r"costume_cards\.cards\[0\]\.id: must be between 0 and 999, got -1"),
    ((*HOUSE, "tiers"), [[1, 1]], [[0, 1]], r"houses\[0\]\.tiers\[0\]\.cards: .* 1 and 100, got 0"),
    ((*HOUSE, "tiers"), [[100, 1]], [[101, 1]], r"tiers\[0\]\.cards: must be between 1 and 100"),
    ((*HOUSE, "tiers"), [[2, 1]], [[2, 0]], r"tiers\[0\]\.treats: must be between 1 and 100"),
    ((*HOUSE, "tiers"), [[2, 100]], [[2, 101]], r"tiers\[0\]\.treats: .* 1 and 100, got 101"),
    ((*HOUSE, "tiers"), [[2, 1]], [], r"houses\[0\]\.tiers: must have between 1 and 10 tiers"),
    (
        (*HOUSE, "tiers"),
        [[n, n] for n in range(1, 11)],
        [[n, n] for n in range(1, 12)],
        r"nice_neighbours\.houses\[0\]\.tiers: at most 10 entries allowed, got 11",
    ),
    ((*TILE, "treats"), ["candy"], [], r"tiles\[0\]\.treats: must have between 1 and 10 treats"),
    (
        (*TILE, "treats"),
        ["gummy"] * 10,
        ["gummy"] * 11,
        r"trick_tiles\.tiles\[0\]\.treats: at most 10 entries allowed, got 11",
    ),
    ((*TILE, "points"), 0, -1, r"trick_tiles\.tiles\[0\]\.points: must be between 0 and 100"),
    ((*TILE, "points"), 100, 101, r"trick_tiles\.tiles\[0\]\.points: .* 0 and 100, got 101"),
    ((*TOKEN, "front"), 0, -1, r"tokens\[0\]\.front: must be between 0 and 100, got -1"),
    ((*TOKEN, "front"), 100, 101, r"tokens\[0\]\.front: must be between 0 and 100, got 101"),
    ((*TOKEN, "back"), 0, -1, r"tokens\[0\]\.back: must be between 0 and 100, got -1"),
    ((*TOKEN, "back"), 100, 101, r"tokens\[0\]\.back: must be between 0 and 100, got 101"),
    (("name",), "n" * 64, "n" * 65, r"doc: name: must have between 1 and 64 characters, got 65"),
    (("name",), "n", "", r"doc: name: must have between 1 and 64 characters, got 0"),
    ((*HOUSE, "id"), "h" * 64, "h" * 65, r"houses\[0\]\.id: must have between 1 and 64 characters"),
    ((*TILE, "id"), "t" * 64, "t" * 65, r"tiles\[0\]\.id: must have between 1 and 64 characters"),
]


@pytest.mark.parametrize(("path", "at_limit", "past_limit", "message"), RANGES)
def test_a_value_at_its_limit_loads_and_one_past_it_is_refused(
    path: tuple[Any, ...], at_limit: object, past_limit: object, message: str
) -> None:
    loaded = parse_components(_set(_roomy(), path, at_limit), "doc")
    assert isinstance(loaded, tt.ComponentData)
    with pytest.raises(tt.ComponentDataError, match=message):
        parse_components(_set(_roomy(), path, past_limit), "doc")


def test_min_players_must_not_exceed_max_players() -> None:
    doc = _set(_set(_roomy(), ("rules", "min_players"), 4), ("rules", "max_players"), 3)
    with pytest.raises(
        tt.ComponentDataError, match=r"rules\.max_players: must be at least min_players \(4\)"
    ):
        parse_components(doc, "doc")


def _cards(count: int) -> list[dict[str, Any]]:
    card = BOX["costume_cards"]["cards"][0]
    return [{**card, "id": i} for i in range(count)]


def _houses(count: int) -> list[dict[str, Any]]:
    house = BOX["nice_neighbours"]["houses"][0]
    return [{**house, "id": f"house-{i}"} for i in range(count)]


def _tiles(count: int) -> list[dict[str, Any]]:
    tile = BOX["trick_tiles"]["tiles"][0]
    return [{**tile, "id": f"tile-{i}"} for i in range(count)]


# (path of an array, entries at the limit or None, entries just past it, the message)
COUNTS: list[tuple[tuple[str, ...], list[Any] | None, list[Any], str]] = [
    (
        ("costume_cards", "cards"),
        _cards(1000),
        _cards(1001),
        r"costume_cards\.cards: at most 1000 entries allowed, got 1001",
    ),
    (
        ("nice_neighbours", "houses"),
        _houses(100),
        _houses(101),
        r"nice_neighbours\.houses: at most 100 entries allowed, got 101",
    ),
    (
        ("trick_tiles", "tiles"),
        _tiles(100),
        _tiles(101),
        r"trick_tiles\.tiles: at most 100 entries allowed, got 101",
    ),
    (
        ("mean_neighbours", "houses"),
        None,  # exactly one per icon (R4)
        [{"icon": "egg"}] * 101,
        r"mean_neighbours\.houses: at most 100 entries allowed, got 101",
    ),
    (
        ("house_treat_tokens", "tokens"),
        None,  # exactly 9
        ["candy"] * 101,
        r"house_treat_tokens\.tokens: at most 100 entries allowed, got 101",
    ),
    (
        ("street_bonus_tokens", "tokens"),
        None,  # exactly 6
        [{"treat": "candy"}] * 101,
        r"street_bonus_tokens\.tokens: at most 100 entries allowed, got 101",
    ),
]


@pytest.mark.parametrize(("path", "at_limit", "past_limit", "message"), COUNTS)
def test_an_array_at_its_limit_loads_and_one_past_it_is_refused(
    path: tuple[str, ...], at_limit: list[Any] | None, past_limit: list[Any], message: str
) -> None:
    if at_limit is not None:
        loaded = parse_components(_set(_roomy(), path, at_limit), "doc")
        field = {"costume_cards": "cards"}.get(path[0], path[0])
        assert len(getattr(loaded, field)) == len(at_limit)
    with pytest.raises(tt.ComponentDataError, match=message):
        parse_components(_set(_roomy(), path, past_limit), "doc")


def test_card_ids_reach_999_and_no_further() -> None:
    loaded = parse_components(_set(_roomy(), ("costume_cards", "cards"), _cards(1000)), "doc")
    assert loaded.cards[-1].id == 999
    with pytest.raises(
        tt.ComponentDataError, match=r"cards\[0\]\.id: must be between 0 and 999, got 1000"
    ):
        parse_components(_set(_roomy(), (*CARD, "id"), 1000), "doc")


def test_the_largest_rules_deal_and_play() -> None:
    """The limits are sane: a game at every upper limit is dealt and played quickly."""
    doc = _roomy()
    doc["rules"].update(
        min_players=8, max_players=8, kids_per_player=8, footprints_per_player=20, market_size=10
    )
    doc["rules"]["pumpkin_points"] = 100
    data = parse_components(doc, "doc")
    game = tt.new_game(8, seed=3, components=data)
    assert len(game.market) == 10
    assert all(len(p.kids) == 8 and p.footprints == 20 for p in game.players)
    for _ in range(40):
        game = game.apply(game.legal_actions()[0])
    assert game.turn == 40


def test_the_limits_table_in_the_docs_matches_the_constant() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (-?\d+) \| (\d+) \|", DOCS.read_text(encoding="utf-8"), re.M)
    assert {name: (int(low), int(high)) for name, low, high in rows} == dict(COMPONENT_LIMITS)


# -- classes built by a plugin are checked too -----------------------------------------------

ANIMAL_HEAD = (tt.Colour.RED, tt.Theme.ANIMAL, tt.CostumeType.HEAD, tt.TrickIcon.EGG)

BUILT: list[tuple[Callable[[], object], str]] = [
    (
        lambda: tt.RulesData(kids_per_player=10**20),
        r"RulesData\.kids_per_player: must be between 1 and 8, got 100000000000000000000",
    ),
    (
        lambda: tt.RulesData(kids_per_player=10**5000),
        r"RulesData\.kids_per_player: must be between 1 and 8, got a number of 5001 digits",
    ),
    (lambda: attrs.evolve(tt.RulesData(), market_size=11), r"market_size: .* 1 and 10, got 11"),
    (lambda: tt.RulesData(max_players=9), r"RulesData\.max_players: must be between 2 and 8"),
    (lambda: tt.RulesData(min_players=3, max_players=2), r"must be at least min_players \(3\)"),
    (lambda: tt.RulesData(footprints_per_player=True), r"expected an integer, got true"),
    (
        lambda: tt.RulesData(any_mean_house=1),  # type: ignore[arg-type]
        r"any_mean_house: expected true or false, got 1",
    ),
    (lambda: tt.CostumeCard(1000, *ANIMAL_HEAD), r"CostumeCard\.id: must be between 0 and 999"),
    (
        lambda: tt.CostumeCard(0, "red", *ANIMAL_HEAD[1:]),  # type: ignore[arg-type]
        r"CostumeCard\.colour: expected a Colour",
    ),
    (lambda: tt.Tier(0, 1), r"Tier\.cards: must be between 1 and 100, got 0"),
    (lambda: tt.Tier(1, 101), r"Tier\.treats: must be between 1 and 100, got 101"),
    (
        lambda: tt.NiceNeighbour("x", tt.Colour.RED, tuple(tt.Tier(n, 1) for n in range(1, 12))),
        r"NiceNeighbour\.tiers: must have between 1 and 10 tiers, got 11",
    ),
    (
        lambda: tt.NiceNeighbour("x", tt.Colour.RED, (tt.Tier(4, 1), tt.Tier(2, 2))),
        r"NiceNeighbour\.tiers: tiers must need more cards",
    ),
    (
        lambda: tt.NiceNeighbour("", tt.Colour.RED, (tt.Tier(2, 1),)),
        r"NiceNeighbour\.id: must have between 1 and 64 characters, got 0",
    ),
    (
        lambda: tt.TrickTile("x", (tt.Treat.CANDY,), 101),
        r"TrickTile\.points: must be between 0 and 100, got 101",
    ),
    (
        lambda: tt.TrickTile("x", (tt.Treat.CANDY,) * 11, 1),
        r"TrickTile\.treats: must have between 1 and 10 treats, got 11",
    ),
    (lambda: tt.StreetBonusToken(tt.Treat.GUMMY, front=101), r"front: .* 0 and 100, got 101"),
    (
        lambda: attrs.evolve(tt.base_components(), cards=tt.base_components().cards * 14),
        r"base: costume_cards\.cards: at most 1000 entries allowed, got 1008",
    ),
    (
        lambda: attrs.evolve(tt.base_components(), cards=(1, 2)),  # type: ignore[arg-type]
        r"base: costume_cards\.cards\[0\]: expected a CostumeCard, got 1",
    ),
    (
        lambda: attrs.evolve(
            tt.base_components(), trick_tiles=tt.base_components().trick_tiles[:4]
        ),
        r"base: trick_tiles: 4 tiles, but 3 mean houses and 4 players need 7",
    ),
]


@pytest.mark.parametrize(("build", "message"), BUILT)
def test_component_classes_check_their_ranges(build: Callable[[], object], message: str) -> None:
    with pytest.raises(tt.ComponentDataError, match=message):
        build()


def test_a_plugin_cannot_deal_a_game_from_absurd_rules() -> None:
    class Huge:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData) -> tt.RulesData:
            return attrs.evolve(rules, kids_per_player=10**20)

    huge = tt.Variant(name="huge", version="0", title="huge", description="huge", plugin=Huge())
    with pytest.raises(tt.PluginError, match=r"tricky_treats_rules failed") as caught:
        tt.new_game(2, seed=1, variants=[huge])
    assert "kids_per_player: must be between 1 and 8" in str(caught.value.detail)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("kids_per_player", 24),
        ("kids_per_player", 20),
        ("kids_per_player", -1),
        ("market_size", 10**6),
        ("market_size", 0),
        ("footprints_per_player", -5),
        ("pumpkin_points", 10**5000),
        ("max_players", 1),
    ],
    ids=lambda value: value if isinstance(value, str) else f"{value.bit_length()}-bits",
)
def test_rules_a_hook_makes_past_the_validators_get_the_bounds_of_a_file(
    field: str, value: int
) -> None:
    """Issue 37: a rules hook that sets a value behind the validators' back (24 kids ran for
    over a minute, -1 kids raised ValueError, 10**5000 pumpkin points broke ``dumps``) is
    refused with the range a component data file has for that value."""

    class Behind:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData) -> tt.RulesData:
            edited = attrs.evolve(rules)
            object.__setattr__(edited, field, value)
            return edited

    behind = tt.Variant(name="behind", version="0", title="b", description="b", plugin=Behind())
    low, high = COMPONENT_LIMITS["players" if field.endswith("players") else field]
    with pytest.raises(tt.PluginError) as caught:
        tt.new_game(2, seed=1, variants=[behind])
    message = str(caught.value)
    assert message.startswith("variant 'behind' from 'tricky-treats': tricky_treats_rules")
    assert f"{field}: must be" in message
    assert f"between {low} and {high}" in message or "at least min_players" in message
    assert len(message) < 400


def test_rules_a_hook_edits_must_still_deal_from_the_box() -> None:
    """A market of 10 is in range, but a box of 9 cards cannot fill it: refused at once, as a
    component data file would be, not when the game runs out of cards."""

    class Wide:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData) -> tt.RulesData:
            return attrs.evolve(rules, max_players=8)

    wide = tt.Variant(name="wide", version="0", title="w", description="w", plugin=Wide())
    with pytest.raises(tt.PluginError, match=r"tricky_treats_rules returned rules the box cannot"):
        tt.new_game(2, seed=1, variants=[wide])


# -- short messages ------------------------------------------------------------------------


def test_a_thousand_bad_cards_give_ten_problems_and_a_count() -> None:
    cards = [{**card, "colour": "blue"} for card in _cards(1000)]
    with pytest.raises(tt.ComponentDataError) as info:
        parse_components(_set(_roomy(), ("costume_cards", "cards"), cards), "my.toml")
    lines = str(info.value).splitlines()
    assert lines[0] == (
        "my.toml: costume_cards.cards[0].colour: unknown colour 'blue' (one of purple, red, green)"
    )
    assert lines[9].startswith("my.toml: costume_cards.cards[9].colour:")
    assert lines[10:] == ["my.toml: and 990 more problems"]


def test_a_million_entries_are_refused_before_any_is_read() -> None:
    cards = [{"id": "bad"}] * 1_000_000
    with pytest.raises(tt.ComponentDataError) as info:
        parse_components(_set(_roomy(), ("costume_cards", "cards"), cards), "doc")
    assert str(info.value) == "doc: costume_cards.cards: at most 1000 entries allowed, got 1000000"


def test_many_unknown_keys_give_a_short_message() -> None:
    doc = _roomy()
    doc["rules"].update({f"key{i}": i for i in range(100_000)})
    with pytest.raises(tt.ComponentDataError) as info:
        parse_components(doc, "doc")
    lines = str(info.value).splitlines()
    assert len(lines) == 11
    assert lines[0].startswith('doc: rules: unknown key "key0" (the keys are min_players, ')
    assert lines[-1] == "doc: and 99990 more problems"


def test_huge_values_are_shown_short() -> None:
    doc = _set(_roomy(), (*TILE, "id"), "x" * MIB)
    with pytest.raises(tt.ComponentDataError) as info:
        parse_components(_set(doc, ("rules", "market_size"), 10**10000), "doc")
    assert len(str(info.value)) < 300
    assert "market_size: must be between 1 and 10, got a number of 10001 digits" in str(info.value)


# -- files ---------------------------------------------------------------------------------


def test_dev_zero_is_refused_after_one_mebibyte() -> None:
    with pytest.raises(
        tt.ComponentDataError, match=r"/dev/zero: cannot read component data: .* 1048576 bytes"
    ):
        tt.load_components("/dev/zero")


def test_a_file_of_exactly_one_mebibyte_loads_and_one_byte_more_does_not(tmp_path: Path) -> None:
    text = DATA_FILE.read_text(encoding="utf-8")
    padding = MIB - len(text.encode("utf-8")) - 2
    exact = tmp_path / "exact.toml"
    exact.write_text(text + "#" + "x" * padding + "\n", encoding="utf-8")
    assert exact.stat().st_size == MIB
    assert tt.load_components(exact) == tt.base_components()
    larger = tmp_path / "larger.toml"
    larger.write_text(text + "#" + "x" * (padding + 1) + "\n", encoding="utf-8")
    with pytest.raises(tt.ComponentDataError, match=r"larger\.toml: .* larger than 1048576 bytes"):
        tt.load_components(larger)


def test_a_dotted_key_of_8_parts_is_only_an_unknown_key(tmp_path: Path) -> None:
    path = tmp_path / "box.toml"
    path.write_text(
        DATA_FILE.read_text(encoding="utf-8") + "[" + "t." * 7 + "t]\n", encoding="utf-8"
    )
    with pytest.raises(tt.ComponentDataError, match=r"box\.toml: unknown key \"t\""):
        tt.load_components(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = " + "[" * 100_000 + "]" * 100_000, r"not valid TOML: nested too deeply"),
        # 50,000 keys, which is more than a file may hold: refused before it is parsed.
        ("x = " + "{a = " * 50_000 + "1" + "}" * 50_000, r"more than 20,000 keys and tables"),
        ("a" + ".a" * 200_000 + " = 1", r"a dotted key has more than 8 parts"),
        ("[" + "t." * 8 + "t]", r"a dotted key has more than 8 parts"),
        ("x = { " + "a . " * 8 + "a = 1 }", r"a dotted key has more than 8 parts"),
    ],
)
def test_deeply_nested_toml_is_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(tt.ComponentDataError, match=rf"deep\.toml: .*{message}"):
        tt.load_components(path)


# -- fuzzing: mutated numbers and arrays ---------------------------------------------------


def _leaves(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path inside a document."""
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            paths += _leaves(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += _leaves(item, (*prefix, index))
    return paths


PATHS = _leaves(BOX)
NUMBERS = st.one_of(
    st.integers(0, 12),  # mostly in range: some boxes load and are dealt
    st.integers(-3, 1010),
    st.sampled_from([10**20, -(10**20), 2**63, 10**5000, True, 1.0, "3"]),
)


@st.composite
def mutated_box(draw: st.DrawFn) -> dict[str, Any]:
    """The base box with one to four numbers changed or arrays lengthened, cut or emptied."""
    doc = copy.deepcopy(BOX)
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(PATHS))
        parent: Any = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            value = parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed this path
        if isinstance(value, list):
            times = draw(st.sampled_from([0, 1, 2, 14, 100, 1500]))
            parent[path[-1]] = value * times if times else value[: draw(st.integers(0, 3))]
        else:
            parent[path[-1]] = draw(NUMBERS)
    return doc


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated_box())
def test_mutated_boxes_load_and_deal_or_raise_component_data_error(doc: dict[str, Any]) -> None:
    try:
        data = parse_components(doc, "fuzz")
    except tt.ComponentDataError as exc:
        message = str(exc)
    else:
        game = tt.new_game(data.rules.max_players, seed=1, components=data)
        assert game.legal_actions()
        return
    assert len(message) < 3000


@pytest.mark.parametrize(
    "entry",
    ["k{n} = 1\n", "[t{n}]\n", "[[a]]\nk{n} = 1\n", "x{n} = {{ a = 1, b = 2 }}\n"],
    ids=["keys", "tables", "arrays-of-tables", "inline-tables"],
)
def test_a_file_full_of_keys_is_refused_before_it_is_parsed(tmp_path: Path, entry: str) -> None:
    """Issue 37: 1 MiB of keys took 3.4 s to refuse (tomllib parses it all first). The
    keys are counted first: a file with more than any box needs is refused at once, so
    tomllib is never called."""
    lines, size, n = [], 0, 0
    while size < COMPONENT_LIMITS["file_bytes"][1] - 64:
        line = entry.format(n=n)
        lines.append(line)
        size += len(line)
        n += 1
    path = tmp_path / "keys.toml"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tomllib.loads", _never_parsed)
        with pytest.raises(tt.ComponentDataError, match=r"more than 20,000 keys and tables"):
            tt.load_components(path)


def _never_parsed(text: str) -> object:
    raise AssertionError("tomllib parsed a file that should have been refused before")


def test_a_file_of_the_largest_box_is_not_refused_for_its_keys(tmp_path: Path) -> None:
    """The count leaves room: a box of 1,000 cards, 100 houses and 100 tiles, every key
    written out, is read."""
    doc = _set(_roomy(), ("costume_cards", "cards"), _cards(1000))
    _set(doc, ("nice_neighbours", "houses"), _houses(100))
    _set(doc, ("trick_tiles", "tiles"), _tiles(100))
    path = tmp_path / "largest.toml"
    path.write_text(_toml(doc), encoding="utf-8")
    assert len(tt.load_components(path).cards) == 1000


def _toml(doc: dict[str, Any]) -> str:
    """``doc`` (tables of scalars and of arrays of flat tables) written as TOML."""

    def value(item: object) -> str:
        if isinstance(item, bool):
            return "true" if item else "false"
        if isinstance(item, dict):
            return "{ " + ", ".join(f"{k} = {value(v)}" for k, v in item.items()) + " }"
        if isinstance(item, list):
            return "[\n" + "".join(f"  {value(v)},\n" for v in item) + "]"
        return json.dumps(item)

    lines = [f"{k} = {value(v)}" for k, v in doc.items() if not isinstance(v, dict)]
    for name, table in doc.items():
        if isinstance(table, dict):
            lines.append(f"\n[{name}]")
            lines += [f"{k} = {value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"

"""Component data: what is in the box (rulebook "Components", RULINGS.md "Component data")."""

from __future__ import annotations

import collections
import itertools
from pathlib import Path

import pytest

import tricky_treats as tt
from tricky_treats.components import parse_components

BASE = tt.base_components()
DATA_FILE = Path(tt.__file__).parent / "data" / "base.toml"


def test_72_costume_cards_each_combination_twice() -> None:
    """Rulebook: "72x transparent costume cards"; RULINGS: each of the 36 combinations twice."""
    assert len(BASE.cards) == 72
    combos = collections.Counter((c.colour, c.theme, c.type) for c in BASE.cards)
    assert set(combos) == set(itertools.product(tt.Colour, tt.Theme, tt.CostumeType))
    assert set(combos.values()) == {2}


def test_card_ids_are_stable_positions() -> None:
    assert [c.id for c in BASE.cards] == list(range(72))


def test_trick_icon_formula_from_rulings() -> None:
    """RULINGS: icon index = (colour + theme + type + k) mod 3; each icon on 24 cards."""
    icons = list(tt.TrickIcon)
    for c in BASE.cards:
        copy = c.id % 2
        index = (
            list(tt.Colour).index(c.colour)
            + list(tt.Theme).index(c.theme)
            + list(tt.CostumeType).index(c.type)
            + copy
        ) % 3
        assert c.icon is icons[index]
    assert collections.Counter(c.icon for c in BASE.cards) == dict.fromkeys(tt.TrickIcon, 24)


def test_two_copies_of_a_combination_differ_in_icon() -> None:
    by_combo = collections.defaultdict(set)
    for c in BASE.cards:
        by_combo[c.colour, c.theme, c.type].add(c.icon)
    assert all(len(icons) == 2 for icons in by_combo.values())


def test_card_features() -> None:
    """Rulebook: colours purple, red, green; types head, body, legs; themes animal, horror,
    fable, space; tricks spiderweb, toilet paper roll, crashed egg.
    """
    assert [c.value for c in tt.Colour] == ["purple", "red", "green"]
    assert [t.value for t in tt.Theme] == ["animal", "horror", "fable", "space"]
    assert [t.value for t in tt.CostumeType] == ["head", "body", "legs"]
    assert [i.value for i in tt.TrickIcon] == ["spiderweb", "toilet-paper", "egg"]
    assert len(tt.FEATURES) == 10


def test_ten_nice_neighbours_one_per_feature_with_tiers() -> None:
    """Rulebook: "10x nice neighbor house cards"; RULINGS tiers 2/4/6 (type houses 2/4/5)."""
    assert len(BASE.nice_neighbours) == 10
    assert [n.wants for n in BASE.nice_neighbours] == list(tt.FEATURES)
    for n in BASE.nice_neighbours:
        top = 5 if isinstance(n.wants, tt.CostumeType) else 6
        assert [(t.cards, t.treats) for t in n.tiers] == [(2, 1), (4, 2), (top, 3)]


def test_nice_neighbour_tiers_give_the_highest_tier_reached() -> None:
    """R5: "You get the treats of the highest tier you reach"; below the lowest, nothing."""
    green = next(n for n in BASE.nice_neighbours if n.id == "green")
    assert [green.treats_for(n) for n in range(9)] == [0, 0, 1, 1, 2, 2, 3, 3, 3]
    assert green.minimum == 2


def test_mean_neighbours_one_per_icon() -> None:
    """Rulebook: "3x mean neighbor house cards"; RULINGS: one house per trick icon."""
    assert [m.icon for m in BASE.mean_neighbours] == list(tt.TrickIcon)


def test_tokens() -> None:
    """Rulebook: "9x house treat tokens (3x3 types of treat)", "6x street bonus tokens"."""
    assert collections.Counter(BASE.house_treat_tokens) == dict.fromkeys(tt.Treat, 3)
    assert len(BASE.street_bonus_tokens) == 6
    assert collections.Counter(t.treat for t in BASE.street_bonus_tokens) == dict.fromkeys(
        tt.Treat, 2
    )
    assert {(t.front, t.back) for t in BASE.street_bonus_tokens} == {(2, 1)}


def test_nine_trick_tiles() -> None:
    """Rulebook: "9x trick tiles"; RULINGS: pairs 3 points, two types 4, three of one 5."""
    points = {t.id: t.points for t in BASE.trick_tiles}
    assert len(points) == 9
    assert sorted(points.values()) == [3, 3, 3, 4, 4, 4, 5, 5, 5]


def test_trick_tile_counts_complete_sets_without_spending() -> None:
    """R14: "scores its points once for every complete set of its treats"."""
    tile = next(t for t in BASE.trick_tiles if t.id == "candy-lollipop")
    treats = {tt.Treat.CANDY: 5, tt.Treat.LOLLIPOP: 2, tt.Treat.GUMMY: 9}
    assert tile.sets(treats) == 2
    assert tile.score(treats) == 8
    pair = next(t for t in BASE.trick_tiles if t.id == "pair-candy")
    assert pair.score(treats) == 6
    assert treats[tt.Treat.CANDY] == 5  # nothing spent


def test_rules_numbers() -> None:
    """Rulebook: 2 to 4 players, 5 kids, 8 footprints, a market of 5, 2 VP per pumpkin."""
    assert BASE.rules == tt.RulesData(
        min_players=2,
        max_players=4,
        kids_per_player=5,
        footprints_per_player=8,
        market_size=5,
        pumpkin_points=2,
    )


def test_provenance_is_recorded_per_entry() -> None:
    assert {c.provenance for c in BASE.cards} == {tt.Provenance.ASSUMED}
    assert {t.provenance for t in BASE.trick_tiles} == {tt.Provenance.ASSUMED}
    text = DATA_FILE.read_text(encoding="utf-8")
    assert text.count('status = "assumed"') >= 72 + 10 + 9


def test_base_components_are_loaded_once() -> None:
    assert tt.base_components() is tt.base_components()


def test_load_components_reads_a_copy_of_the_package_file(tmp_path: Path) -> None:
    copy = tmp_path / "my-box.toml"
    copy.write_text(DATA_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    assert tt.load_components(copy) == BASE


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'colour = "purple"',
            'colour = "pink"',
            r"costume_cards\.cards\[0\]\.colour: unknown colour 'pink'",
        ),
        ('type = "head"', "type = 3", r"costume_cards\.cards\[0\]\.type: unknown costumetype 3"),
        ("{ id = 5,", "{ id = 6,", r"costume_cards\.cards\[5\]: id is 6, expected 5"),
        (
            "tiers = [[2, 1], [4, 2], [6, 3]]",
            "tiers = [[4, 1], [2, 2]]",
            r"nice_neighbours\.houses\[0\]\.tiers",
        ),
        ('wants = "colour:purple"', 'wants = "size:big"', r"unknown feature kind 'size'"),
        (
            "format_version = 1",
            "format_version = 99",
            r"format_version: .* reads version 1, got 99",
        ),
        ('id = "pair-gummy"', 'id = "pair-candy"', r"trick_tiles\.tiles\[2\]\.id: duplicate id"),
        (
            "market_size = 5",
            "market_size = -1",
            r"rules\.market_size: must be between 1 and 10, got -1",
        ),
        (
            'tokens = ["candy", "candy", ',
            'tokens = ["candy", ',
            r"house_treat_tokens: expected 9, got 8",
        ),
        (
            "points = 3,",
            'points = "three",',
            r"trick_tiles\.tiles\[0\]\.points: expected an integer",
        ),
        ("[mean_neighbours]", "[mean_neighbours]\nextra = 1\n[unused]", r"mean_neighbours"),
    ],
)
def test_malformed_file_names_file_entry_and_problem(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(tt.ComponentDataError, match=message) as info:
        tt.load_components(path)
    assert str(path) in str(info.value)


def test_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("cards = [", encoding="utf-8")
    with pytest.raises(tt.ComponentDataError, match=r"x\.toml: not valid TOML"):
        tt.load_components(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(tt.ComponentDataError, match="cannot read component data"):
        tt.load_components(tmp_path / "absent.toml")


def test_missing_section() -> None:
    with pytest.raises(tt.ComponentDataError, match="doc: rules: missing table"):
        parse_components({"format": "tricky-treats-components", "format_version": 1}, "doc")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "kids_per_player = 5",
            'kids_per_player = "5"',
            r'kids_per_player: expected an integer, got "5"',
        ),
        (
            "kids_per_player = 5",
            "kids_per_player = 5.0",
            r"kids_per_player: expected an integer, got 5\.0",
        ),
        (
            "kids_per_player = 5",
            "kids_per_player = true",
            r"kids_per_player: expected an integer, got true",
        ),
        (
            "market_size = 5",
            "market_size = 1979-05-27",
            r"market_size: expected an integer, got datetime",
        ),
        ("points = 3,", "points = [3],", r"tiles\[0\]\.points: expected an integer, got \[3\]"),
        ('name = "base"', "name = 1", r"broken\.toml: name: expected a string, got 1"),
        (
            "[rules]",
            "[rules]\nany_mean_house = 1",
            r"rules\.any_mean_house: expected true or false, got 1",
        ),
        (
            'status = "assumed" },',
            'status = "guessed" },',
            r"cards\[0\]\.status: unknown provenance 'guessed'",
        ),
        (
            'tokens = ["candy",',
            'tokens = "candy"\nx = [',
            r"house_treat_tokens\.tokens: expected an array",
        ),
        ("{ id = 0,", "{ idx = 0,", r"cards\[0\]\.id: missing\n.*cards\[0\]: unknown key \"idx\""),
    ],
)
def test_values_are_taken_as_written(tmp_path: Path, old: str, new: str, message: str) -> None:
    """The reader converts nothing: a string, a float or a boolean is not an integer."""
    with pytest.raises(tt.ComponentDataError, match=message):
        tt.load_components(_broken(tmp_path, old, new))


def test_rules_left_out_take_the_base_game_values() -> None:
    document = tt.components_document(BASE)
    document["rules"] = {}
    assert parse_components(document, "doc").rules == tt.RulesData()


def test_components_document_round_trips() -> None:
    assert parse_components(tt.components_document(BASE), "doc") == BASE

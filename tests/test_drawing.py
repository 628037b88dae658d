"""The board picture, ``tricky_treats.drawing.board_svg(view)`` (issue 23): well-formed, accessible, leak-free."""

from __future__ import annotations

import importlib.resources
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest

import tricky_treats as tt
from tests.boards import with_player
from tricky_treats.drawing import board_svg

SVG = "{http://www.w3.org/2000/svg}"
BUILTIN = ("any-mean-house", "card-data", "family", "open-objectives")


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def _desc(svg: str) -> str:
    desc = _parse(svg).find(f"{SVG}desc")
    assert desc is not None
    assert desc.text
    return desc.text


def _box(tmp_path: Path, **rules: int) -> str:
    """A copy of the package's component data, with some ``[rules]`` numbers changed."""
    text = importlib.resources.files("tricky_treats").joinpath("data/base.toml").read_text()
    for key, value in rules.items():
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.startswith(f"{key} ="):
                lines[i] = f"{key} = {value}"
        text = "\n".join(lines) + "\n"
    path = tmp_path / "box.toml"
    path.write_text(text)
    return str(path)


def _game(variant: str, tmp_path: Path, players: int = 3) -> tt.GameState:
    options = {"card-data": {"file": _box(tmp_path)}} if variant == "card-data" else {}
    return tt.new_game(players, seed=7, variants=[variant], variant_options=options)


@pytest.mark.parametrize("variant", BUILTIN)
def test_every_variant_draws_well_formed_accessible_pictures(variant: str, tmp_path: Path) -> None:
    states = tt.play_game(_game(variant, tmp_path), [tt.GreedyAgent()] * 3, seed=1)
    for state in [*states[::9], states[-1]]:
        for seat in range(3):
            view = state.view(seat)
            svg = board_svg(view)
            root = _parse(svg)
            assert root.get("role") == "img"
            labels = (root.get("aria-labelledby") or "").split()
            assert [e.tag for e in root if e.get("id") in labels] == [f"{SVG}title", f"{SVG}desc"]
            title = root.find(f"{SVG}title")
            assert title is not None
            assert title.text
            assert f"as {view.players[seat].name} sees it" in title.text
            desc = _desc(svg)
            assert f"Deck: {view.deck_size} cards." in desc
            for house in view.grid:
                assert f"likes {house.neighbour.wants.value} costumes" in desc
            for sheet in view.scores:
                assert f"total {sheet.total}." in desc
    final = states[-1].view(0)
    won = [final.players[w].name for w in states[-1].winners()]
    assert _desc(board_svg(final)).startswith(f"Game over: {' and '.join(won)}")


@pytest.mark.parametrize("variant", ["base", *BUILTIN])
def test_the_picture_is_the_same_when_only_hidden_information_differs(
    variant: str, tmp_path: Path
) -> None:
    """R16: deck order and the others' secret tiles never change a seat's picture."""
    game = tt.new_game(3, seed=3) if variant == "base" else _game(variant, tmp_path)
    states = tt.play_game(game, [tt.RandomAgent()] * 3, seed=4)
    for state in states[:-1:11]:
        for viewer in range(3):
            other = _hidden_variant(state, viewer)
            assert other != state
            assert board_svg(other.view(viewer)) == board_svg(state.view(viewer))


def _hidden_variant(game: tt.GameState, viewer: int) -> tt.GameState:
    """``game`` with another deck order and other secret tiles for every seat but ``viewer``.

    Under open-objectives the secret tiles lie face up: only the deck order is hidden.
    """
    setup = game.setup
    drawn = setup.deck[: game.deck_position]
    rest = tuple(reversed(setup.deck[game.deck_position :]))
    used = {t.id for t in setup.secret_tiles} | {m.tile.id for m in setup.mean_houses}
    spare = [t for t in setup.components.trick_tiles if t.id not in used]
    state = attrs.evolve(game, setup=attrs.evolve(setup, deck=drawn + rest))
    for seat in range(len(game.players)):
        if seat != viewer and not setup.secret_tiles_face_up:
            state = with_player(state, seat, secret_tile=spare.pop())
    return state


def test_others_secret_tiles_are_face_down_until_the_end() -> None:
    game = tt.new_game(3, seed=2)
    view = game.view(1)
    svg = board_svg(view)
    own = view.secret_tile
    assert own is not None
    assert svg.count("secret tile: hidden") == 2
    assert f"{own.points} points per" in svg
    final = tt.play_game(game, [tt.RandomAgent()] * 3, seed=2)[-1]
    assert "secret tile: hidden" not in board_svg(final.view(1))
    opened = tt.new_game(3, seed=2, variants=["open-objectives"])
    assert "secret tile: hidden" not in board_svg(opened.view(1))


def test_a_kids_stack_shows_every_costume_icon_and_only_the_top_trick_icon() -> None:
    """R1, R3: the cards are transparent, but only the top card's trick icon shows."""
    game = tt.new_game(2, seed=5)
    for action in ("t0k0", "t0k0", "t1k0"):  # seat 0, seat 1, seat 0
        legal = [a for a in game.legal_actions() if str(a) == action]
        game = game.apply(legal[0] if legal else game.legal_actions()[0])
    kid = game.players[0].kids[0]
    assert len(kid) == 2
    svg = board_svg(game.view(0), parts=["kids"])
    root = _parse(svg)
    stack = next(
        g for g in root.iter(f"{SVG}g") if (t := g.find(f"{SVG}title")) is not None
        and (t.text or "").startswith("kid 0:")
    )  # fmt: skip
    words = " ".join(t.text or "" for t in stack.iter(f"{SVG}text"))
    for card in kid:
        assert card.theme.value in words
        assert f"{card.colour.value} {card.type.value}" in words
    icons = list(stack.iter(f"{SVG}use"))
    assert len(icons) == 1
    assert icons[0].get("href") == "#tt-" + kid[-1].icon.value


def test_parts_draw_only_what_is_asked() -> None:
    view = tt.new_game(3, seed=1).view(0)
    market = board_svg(view, parts=["market"])
    assert "Market: take a card" in market
    assert "Nice neighbours" not in market
    assert "Score sheets" not in market
    everything = board_svg(view)
    for heading in ("Nice neighbours", "Mean neighbours", "Market", "kids", "Players", "Score"):
        assert heading in everything
    with pytest.raises(tt.ConfigurationError, match="choose parts from grid, mean-houses"):
        board_svg(view, parts=["dice"])
    with pytest.raises(tt.ConfigurationError, match="cannot draw nothing"):
        board_svg(view, parts=[])
    assert board_svg(view, parts="market") == market  # one part may be named alone


def test_a_game_state_is_refused_so_that_nothing_hidden_can_be_drawn() -> None:
    game = tt.new_game(3, seed=1)
    with pytest.raises(tt.ConfigurationError, match=r"pass game.view\(player\), never the game"):
        board_svg(game)  # type: ignore[arg-type]


def test_names_are_escaped() -> None:
    game = tt.new_game(players=["<Ann & Bo>", 'Cy "the" 3rd'], seed=1)
    svg = board_svg(game.view(0))
    _parse(svg)
    assert "&lt;Ann &amp; Bo&gt;" in svg
    assert "<Ann" not in svg


def test_bigger_boards_from_a_data_file_are_drawn_whole(tmp_path: Path) -> None:
    options = {"card-data": {"file": _box(tmp_path, kids_per_player=7, market_size=8)}}
    game = tt.new_game(4, seed=1, variants=["card-data"], variant_options=options)
    game = tt.play_game(game, [tt.RandomAgent()] * 4, seed=1)[20]
    svg = board_svg(game.view(0))
    root = _parse(svg)
    width = int(root.get("width", "0"))
    desc = _desc(svg)
    assert "slot 7:" in desc
    assert "kid 6:" in desc
    # Every kid and every market slot lies inside the picture.
    assert svg.count(">kid 6<") == 1
    assert svg.count(">slot 7<") == 1
    assert width >= 44 + 7 * 112
    assert width >= 8 * 112 + 100


def test_the_same_view_gives_the_same_picture() -> None:
    game = tt.new_game(3, seed=9)
    assert board_svg(game.view(2)) == board_svg(game.view(2))
    assert board_svg(game.view(2)) != board_svg(game.view(1))
    # Two pictures inline in one page keep their own title and description.
    ids = [_parse(board_svg(game.view(seat))).get("aria-labelledby") for seat in range(3)]
    assert len(set(ids)) == 3


@pytest.mark.parametrize("variant", ["base", "family", "open-objectives"])
def test_a_client_draws_the_same_picture_from_its_player_record(variant: str) -> None:
    """A frontend that receives ``dumps(game, player=i)`` draws what the server would."""
    variants = [] if variant == "base" else [variant]
    states = tt.play_game(tt.new_game(3, seed=8, variants=variants), [tt.RandomAgent()] * 3, seed=8)
    for state in (states[0], states[len(states) // 2], states[-1]):
        received = tt.loads_view(tt.dumps(state, player=1))
        assert board_svg(received) == board_svg(state.view(1))

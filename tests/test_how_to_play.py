"""docs/how-to-play.md (issue 23): its pictures and worked example come from real games.

``docs/hooks/how_to_play.py`` draws the page's pictures with ``tricky_treats.drawing.board_svg`` and writes its
scoring example; they are committed (issue 38: the page reads whole on a code host), and
``python docs/hooks/how_to_play.py`` writes them again. These tests check what it produces,
and that the committed files are exactly that.
"""

from __future__ import annotations

import re
import shutil
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tricky_treats.drawing import board_svg

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "how-to-play.md"


@pytest.fixture(scope="module")
def hook() -> Iterator[ModuleType]:
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        import how_to_play  # type: ignore[import-not-found]

        yield how_to_play
    finally:
        sys.path.remove(str(ROOT / "docs" / "hooks"))


def test_the_page_shows_exactly_the_pictures_the_hook_draws(hook: ModuleType) -> None:
    shown = re.findall(r"\]\(img/how-to-play/([\w-]+\.svg)\)", PAGE.read_text())
    assert sorted(shown) == sorted(hook.pictures())
    assert len(shown) == len(set(shown))


def test_every_picture_is_a_players_view_drawn_by_board_svg(hook: ModuleType) -> None:
    pictures = hook.pictures()
    for name, (state, seat, parts) in hook.positions().items():
        svg = pictures[f"{name}.svg"]
        assert svg == board_svg(state.view(seat), parts=parts)
        ET.fromstring(svg)
        assert state in hook.game()  # a position of the page's real game


def test_the_pictures_show_what_the_text_says_they_show(hook: ModuleType) -> None:
    positions = hook.positions()
    start, _, _ = positions["table"]
    assert start.turn == 0
    kids_state, seat, _ = positions["kids"]
    assert any(len(kid) == 3 for kid in kids_state.players[seat].kids)
    grid_state, _, _ = positions["grid"]
    assert any(grid_state.street_flipped)  # "one street token has been flipped"
    assert any(p.tricked for p in positions["mean-houses"][0].players)
    final, _, _ = positions["score-sheet"]
    assert final.is_over


def test_the_worked_example_adds_up_to_the_winners_sheet(hook: ModuleType) -> None:
    text = hook.worked_example()
    final = hook.game()[-1]
    (winner,) = final.winners()
    sheet = final.scores()[winner]
    points = [int(p) for p in re.findall(r"\| (\d+) \|$", text, re.MULTILINE)]
    assert sum(points) == sheet.total
    assert f"| **total** | **{sheet.total}** |" in text
    assert f"{final.players[winner].pumpkins} pumpkins, 2 points each | {sheet.pumpkins} |" in text
    for score in sheet.trick_tiles:
        assert f"{score.sets} sets | {score.points} |" in text
    assert f"{final.players[winner].name} wins." in text


def test_the_kids_sentence_names_the_pictured_cards(hook: ModuleType) -> None:
    state, seat, _ = hook.positions()["kids"]
    sentence = hook.kids_example()
    index = int(re.search(r"kid (\d+) wears three cards", sentence).group(1))  # type: ignore[union-attr]
    kid = state.players[seat].kids[index]
    for card in kid:
        assert f"{card.colour.value} {card.theme.value} {card.type.value}" in sentence
    assert f"shows the {kid[-1].icon.value.replace('-', ' ')} of the card placed last" in sentence


def test_the_committed_pictures_and_texts_are_what_the_engine_draws(hook: ModuleType) -> None:
    assert hook.stale() == [], f"run {hook.COMMAND}"
    text = PAGE.read_text()
    assert hook.worked_example().strip() in text
    assert hook.kids_example() in text
    for name, svg in hook.pictures().items():
        assert (ROOT / "docs" / "img" / "how-to-play" / name).read_text() == svg


def test_a_stale_picture_or_text_is_found_and_written_again(
    hook: ModuleType, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs" / "img", docs / "img")
    page = PAGE.read_text()
    (docs / "how-to-play.md").write_text(page.replace("scores:", "scored:", 1))
    shutil.copy(ROOT / "docs" / "how-to-play.nl.md", docs / "how-to-play.nl.md")
    (docs / "img" / "how-to-play" / "grid.svg").write_text("<svg/>")
    (docs / "img" / "how-to-play" / "old.svg").write_text("<svg/>")
    assert hook.stale(docs) == [
        "how-to-play.md",
        "img/how-to-play/grid.svg",
        "img/how-to-play/old.svg (not drawn)",
    ]
    hook.write(docs)
    assert hook.stale(docs) == []
    assert (docs / "how-to-play.md").read_text() == page


def test_the_page_keeps_its_markers_and_is_linked_first(hook: ModuleType) -> None:
    text = PAGE.read_text()
    for marker in (hook.MARKER, hook.KIDS_MARKER):
        assert marker in text
        assert marker.replace("<!-- ", "<!-- /") in text
    readme = (ROOT / "README.md").read_text()
    home = (ROOT / "docs" / "index.md").read_text()
    link = re.compile(r"\]\(([^)]+)\)|\]\[([^\]]+)\]")  # [text](target) or [text][name]
    for page, first in ((readme, "how-to-play"), (home, "how-to-play.md")):
        found = link.search(page)
        assert found is not None
        assert (found.group(1) or found.group(2)) == first


def test_the_dutch_page_shows_dutch_pictures_and_its_own_worked_example(hook: ModuleType) -> None:
    # Issue 39: the Dutch page's pictures are drawn in Dutch, from the same game.
    dutch = (ROOT / "docs" / "how-to-play.nl.md").read_text()
    for name, svg in hook.pictures("nl").items():
        assert f"](img/how-to-play/nl/{name})" in dutch
        assert (ROOT / "docs" / "img" / "how-to-play" / "nl" / name).read_text() == svg
    assert "Aardige buren: bezoek ze voor snoep" in hook.pictures("nl")["table.svg"]
    final = hook.game()[-1]
    (winner,) = final.winners()
    assert f"| **totaal** | **{final.scores()[winner].total}** |" in dutch

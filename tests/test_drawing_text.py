"""``print(state)``, ``print(view)`` and notebook pictures (issue 38): the board draws itself.

A notebook calls ``_repr_svg_()`` to show an object; these tests call it as IPython would,
without a notebook. A state is drawn as everyone at the table sees it: no secret tile in its
text or its picture until the game is over.
"""

from __future__ import annotations

import io
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tricky_treats as tt
from tricky_treats.cli import main
from tricky_treats.drawing import board_svg

NAMES = ["Ann", "Bo", "Cy"]


@pytest.fixture(scope="module")
def states() -> list[tt.GameState]:
    start = tt.new_game(players=NAMES, seed=38)
    return tt.play_game(start, [tt.GreedyAgent()] * 3, seed=38)


def test_print_view_draws_the_terminals_table_under_a_heading(
    states: list[tt.GameState],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``print(view)`` is the table ``tricky-treats replay --step`` shows after a move, as
    the player who made it sees it, under a heading."""
    view = states[8].view(1)  # Bo made the 8th move
    tile = view.secret_tile
    assert tile is not None
    lines = str(view).splitlines()
    assert lines[0] == "Tricky Treats · Round 3: Cy to play"
    kinds = {treat.value for treat in tile.treats}
    amount = (
        f"{len(tile.treats)} {kinds.pop()}"
        if len(kinds) == 1
        else "+".join(treat.value for treat in tile.treats)
    )
    assert lines[1] == f"as Bo (B) sees it · secret tile {amount}={tile.points}"
    record = tmp_path / "game.json"
    record.write_text(tt.dumps(states[-1]), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * len(states)))
    assert main(["replay", str(record), "--step"]) == 0
    shown = "\n".join(line.rstrip() for line in capsys.readouterr().out.splitlines())
    assert "\n".join(lines[2:]) in shown
    assert len(lines) > 15
    assert all(len(line) <= 80 for line in lines)
    assert "\x1b" not in str(view)  # no colour codes


def test_print_state_draws_what_everyone_sees_and_no_secret_tile(
    states: list[tt.GameState],
) -> None:
    for state in states[:-1]:
        text = str(state)
        seat = state.current_player
        assert seat is not None
        assert text.splitlines()[1] == (
            f"as everyone at the table sees it (no secret tile; the kids are {NAMES[seat]}'s)"
        )
        assert "secret tile " not in text
        # The table is the acting player's, but for the points (theirs without the tile).
        own = str(state.view(seat)).splitlines()
        assert text.splitlines()[2:-3] == own[2:-3]
        assert [line[:-7] for line in text.splitlines()[-3:]] == [line[:-7] for line in own[-3:]]


def test_a_states_points_leave_out_every_secret_tile_until_the_end(
    states: list[tt.GameState],
) -> None:
    with_points = [
        s for s in states[:-1] if any(t.mean_house is None for t in s.scores()[0].trick_tiles)
    ]
    assert with_points, "the game never scored a secret tile: choose another seed"
    state = with_points[-1]
    sheets = [state.view((p + 1) % 3).scores[p] for p in range(3)]  # as the others see them
    assert all(t.mean_house is not None for sheet in sheets for t in sheet.trick_tiles)
    assert sheets[0].total < state.scores()[0].total  # Ann's secret tile is not counted
    for sheet, line in zip(sheets, str(state).splitlines()[-3:], strict=True):
        assert line.endswith(f"{sheet.total:>3} pts")


def test_the_final_state_shows_everything_and_its_seed(states: list[tt.GameState]) -> None:
    final = states[-1]
    lines = str(final).splitlines()
    (winner,) = final.winners()
    assert lines[0] == f"Tricky Treats · Game over: {NAMES[winner]} wins"
    assert lines[-1] == "seed 38"
    for sheet, line in zip(final.scores(), lines[-4:-1], strict=True):
        assert line.endswith(f"{sheet.total:>3} pts")


def _own_tile_words(state: tt.GameState, seat: int) -> str:
    """How the picture of ``seat``'s own view says its secret tile (its owner always sees it)."""
    tiles = re.findall(r"secret tile: ([^<]+)<", board_svg(state.view(seat)))  # seat by seat
    assert len(tiles) == len(state.players)
    assert tiles[seat] != "hidden"
    return str(tiles[seat])


def test_notebooks_draw_a_view_with_board_svg(states: list[tt.GameState]) -> None:
    view = states[7].view(2)
    assert view._repr_svg_() == board_svg(view)
    ET.fromstring(view._repr_svg_())


def test_notebooks_draw_a_state_as_everyone_sees_it(states: list[tt.GameState]) -> None:
    state = states[7]
    svg = state._repr_svg_()
    root = ET.fromstring(svg)
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None
    assert title.text == "Tricky Treats, round 3: Bo to play, as everyone at the table sees it"
    assert svg.count("secret tile: hidden") == 3
    for seat in range(3):  # the picture of a player's view shows that player's own tile
        assert f"secret tile: {_own_tile_words(state, seat)}<" not in svg
    assert "(you)" not in svg


def test_the_final_states_picture_shows_every_secret_tile(states: list[tt.GameState]) -> None:
    final = states[-1]
    svg = final._repr_svg_()
    for seat in range(3):
        assert f"secret tile: {_own_tile_words(final, seat)}<" in svg


def test_repr_stays_short_and_constructor_like(states: list[tt.GameState]) -> None:
    assert repr(states[0]) == "GameState(current_player=0, turn=0, end_trigger=None)"
    assert repr(states[0].view(2)) == "PlayerView(player=2, current_player=0, turn=0)"


def test_picture_titles_keep_the_capitals_of_names(states: list[tt.GameState]) -> None:
    """Issue 38: the title screen readers announce said "ann to play, as Ann sees it"."""
    root = ET.fromstring(board_svg(states[0].view(0)))
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None
    assert title.text == "Tricky Treats, round 1: Ann to play, as Ann sees it"


def test_with_secret_tiles_dealt_face_up_a_state_shows_them_and_counts_them() -> None:
    # The open-objectives variant deals them face up: everyone sees them, so a state does.
    start = tt.new_game(players=NAMES, seed=38, variants=["open-objectives"])
    state = tt.play_game(start, [tt.GreedyAgent()] * 3, seed=38)[12]
    svg = state._repr_svg_()
    for seat in range(3):
        assert f"secret tile: {_own_tile_words(state, seat)}<" in svg
    # Each sheet, and what the state prints of it, is the one the other players see of it.
    sheets = [state.view((p + 1) % 3).scores[p] for p in range(3)]
    assert sheets == [state.view((p + 2) % 3).scores[p] for p in range(3)]
    assert [sheet.total for sheet in sheets] == [sheet.total for sheet in state.scores()]
    for sheet, line in zip(sheets, str(state).splitlines()[-3:], strict=True):
        assert line.endswith(f"{sheet.total:>3} pts")

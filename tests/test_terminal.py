"""The terminal screens of the play command, second-person events, no seed in sight (issues 10, 12)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

import tricky_treats as tt
from tests.test_cli_play import _run, _script, _stdin, _turn_screens

LONG_NAMES = ["Annabelle Montgomery", "Bo", "Cy", "Di"]


def _played(
    names: Sequence[str],
    seed: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variants: Sequence[str] = (),
    stop_after: int | None = None,
) -> tuple[list[list[str]], str, tt.GameState]:
    """A hot-seat game of ``names`` through the play command: its turn screens, all its
    output, and the last state the keyboard played to."""
    seats = ["human"] * len(names)
    lines, final = _script(seats, names, seed, stop_after=stop_after, variants=variants)
    _stdin(monkeypatch, lines)
    argv = ["play", "--seats", ",".join(seats), "--names", ",".join(names), "--seed", str(seed)]
    status, out, _ = _run(capsys, *argv, *(f"--variant={name}" for name in variants))
    assert status == 0
    return _turn_screens(out), out, final


def _games() -> list[tuple[int, tuple[str, ...], int]]:
    return [(players, variants, seed) for players in (2, 3, 4)
            for variants, seed in (((), 1), ((), 2), (("family",), 3), (("open-objectives",), 4))]  # fmt: skip


@pytest.mark.parametrize(("players", "variants", "seed"), _games())
def test_every_turn_fits_an_80x24_terminal(
    players: int,
    variants: tuple[str, ...],
    seed: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One turn is at most 23 lines of at most 80 columns; the prompt is the 24th line."""
    screens, _, final = _played(LONG_NAMES[:players], seed, capsys, monkeypatch, variants)
    assert final.is_over
    assert len(screens) == len(final.history)  # a screen before each move
    for screen in screens:
        assert len(screen) <= 23, "\n".join(screen)
        assert max(len(line) for line in screen) <= 80, "\n".join(screen)
    assert max(len(screen) for screen in screens) >= 17 + players  # board, kids, market, players
    # The final table, as replay --step and print() show it.
    assert max(len(line) for line in str(final.view(0)).splitlines()) <= 80


def test_the_turn_screen_shows_what_the_player_needs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    screens, _, game = _played(["Ann", "Bo", "Cy"], 42, capsys, monkeypatch, stop_after=0)
    screen = "\n".join(screens[0])
    view = game.view(0)
    assert screen.startswith("Round 1 · Ann (A), your turn · your secret tile ")
    for house, cell in enumerate(view.grid):
        assert f"v{house} {cell.neighbour.wants.value}(0)" in screen
    for slot in range(5):
        assert f"\n{slot} " in screen.replace("│ ", "\n")  # the market slots
    assert "Take card to kid: t0k0-4  t1k0-4" in screen
    assert "vN FEATURE(you have) cards:treats treat │ mN icon tile │ * pumpkin │ A-C went" in screen
    # the others' secret tiles are not shown (R16)
    assert screen.count("secret tile") == 1


def test_actions_are_grouped_and_every_legal_action_can_be_read_back(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["Ann", "Bo", "Cy"]
    screens, _, final = _played(names, 7, capsys, monkeypatch)
    game = tt.new_game(players=names, seed=7)
    states = [game]
    for action in final.history:
        states.append(states[-1].apply(action))
    kinds = set()
    for state, screen in zip(states, screens, strict=False):
        # The actions are the screen's last lines, before the legend.
        first = next(i for i, line in enumerate(screen) if line.startswith("Take card"))
        text = " " + " ".join(screen[first:-1])
        for action in state.legal_actions():
            kinds.add(type(action))
            if isinstance(action, tt.TakeCard):
                assert f"t{action.slot}k" in text
            else:
                assert f" {action}" in text
    assert kinds == {tt.TakeCard, tt.VisitHouse, tt.TrickHouse}  # tricks among them


def test_the_last_round_starts_at_the_players_own_last_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: the card a bot took has left the market when the screen shows the move."""
    names = ["Ann", "Bo", "Cy"]
    game = tt.new_game(players=names, seed=5)
    cards = []
    for action in ("t0k0", "t0k0", "t0k0", "t1k1"):
        game, events = game.apply_with_events(tt.parse_action(action))
        (placed,) = [e for e in events if isinstance(e, tt.CardPlaced)]
        cards.append(placed.card)
    _stdin(monkeypatch, ["t0k0", "", "t0k0", "", "t0k0", "", "t1k1", ""])
    status, out, _ = _run(capsys, "play", "--seats", "human,human,human", "--names",
                          "Ann,Bo,Cy", "--seed", "5")  # fmt: skip
    assert status == 0
    screens = _turn_screens(out)
    assert len(screens) == 5
    said = [re.findall(r"(\w+) (t\dk\d) \(([^)]+)\)", "\n".join(s[1:3])) for s in screens]
    bo_card = said[2][1][2]  # Bo's card as Cy's screen says it
    card = cards[1]
    assert bo_card.startswith(f"{card.colour.value} {card.theme.value} {card.type.value} ")
    # Bo's own turn: the last round starts at his own last turn (Bo, Cy, Ann), his in person.
    assert said[4] == [("You", "t0k0", bo_card), ("Cy", "t0k0", said[3][2][2]),
                       ("Ann", "t1k1", said[4][2][2])]  # fmt: skip
    assert said[3][1] == ("Bo", "t0k0", bo_card)  # to Ann, Bo is Bo


def test_move_text_tells_what_a_visit_gained(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["Ann", "Bo"]
    screens, _, final = _played(names, 3, capsys, monkeypatch)
    game = tt.new_game(players=names, seed=3)
    for number, action in enumerate(final.history):
        seat = game.current_player
        assert seat is not None
        game, events = game.apply_with_events(action)
        if isinstance(action, tt.VisitHouse):
            visit = next(e for e in events if isinstance(e, tt.HouseVisited))
            shown = "\n".join(screens[number + 1][1:3])  # the next player's last round
            assert f"{names[seat]} {action} +{visit.treats} " in shown
            return
    pytest.fail("the game has no visit")


@pytest.mark.parametrize(
    ("event", "third", "second"),
    [
        (tt.CardPlaced(0, 2, 4, tt.base_components().cards[0]), "Ann puts the", "You put the"),
        (tt.MarketRefreshed(0, ()), "Ann discards the market", "You discard the market"),
        (
            tt.HouseVisited(0, 5, 4, tt.Treat.CANDY, 2),
            "Ann visits nice house 5 with 4 matching cards and gets 2 candy",
            "You visit nice house 5 with 4 matching cards and get 2 candy",
        ),
        (
            tt.HouseTricked(0, 1, tt.base_components().trick_tiles[0]),
            "Ann tricks mean house 1 and gains its tile",
            "You trick mean house 1 and gain its tile",
        ),
        (tt.PumpkinTaken(0, 3, False), "Ann takes the pumpkin", "You take the pumpkin"),
        (
            tt.StreetBonusTaken(0, 4, tt.Treat.GUMMY, 2, True),
            "Ann completes column 1",
            "You complete column 1",
        ),
        (tt.Passed(0), "Ann passes", "You pass"),
        (
            tt.EndTriggered(0, tt.Termination.DECK_EMPTY),
            "Ann triggers the end",
            "You trigger the end",
        ),
        (tt.GameOver((0,)), "game over; Ann wins", "game over; you win"),
        (tt.GameOver((0, 2)), "game over; Ann and Cy share the win", "game over; you and Cy share"),
    ],
)
def test_events_of_the_human_seat_are_told_in_the_second_person(
    event: tt.Event, third: str, second: str
) -> None:
    """Issue 12: "You puts", "You visits" read wrong."""
    names = ["Ann", "Bo", "Cy"]
    assert third in tt.describe_event(event, names)
    assert second in tt.describe_event(event, names, you=0)
    assert third in tt.describe_event(event, names, you=1)  # others stay in the third person


def test_str_of_a_game_shows_the_seed_only_once_it_is_over() -> None:
    """Issue 10: the seed deals the deck and the secret tiles."""
    game = tt.new_game(players=2, seed=918_273_645)
    assert "918273645" not in str(game)
    # The table as everyone sees it (issue 38).
    assert str(game).startswith("Tricky Treats · Round 1: Player 1 to play\n")
    final = tt.play_game(game, [tt.RandomAgent()] * 2, seed=1)[-1]
    assert str(final).endswith("\nseed 918273645")

"""The terminal screens of the play command, second-person events, no seed in sight (issues 10, 12)."""

from __future__ import annotations

import itertools

import pytest

import tricky_treats as tt
from tricky_treats.dealing import start_game
from tricky_treats.drawing._terminal import (
    WIDTH,
    Move,
    action_lines,
    card_text,
    last_round,
    move_text,
    replay_screen,
    turn_screen,
)

LONG_NAMES = ["Annabelle Montgomery", "Bo", "Cyrano de Bergerac", "Di"]


def _games() -> list[tuple[int, tuple[str, ...], int]]:
    return [(players, variants, seed) for players in (2, 3, 4)
            for variants, seed in (((), 1), ((), 2), (("family",), 3), (("open-objectives",), 4))]  # fmt: skip


@pytest.mark.parametrize(("players", "variants", "seed"), _games())
def test_every_turn_fits_an_80x24_terminal(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    """One turn is at most 23 lines of at most 80 columns; the prompt is the 24th line."""
    game = tt.new_game(players=LONG_NAMES[:players], seed=seed, variants=list(variants))
    agents = [tt.GreedyAgent() if p % 2 else tt.RandomAgent() for p in range(players)]
    states = tt.play_game(game, agents, seed=seed)
    moves: list[Move] = []
    state = start_game(game.config, game.setup.components)
    tallest = 0
    for after in states[1:]:
        seat = state.current_player
        assert seat is not None
        screen = turn_screen(state.view(seat), moves, state.round)
        tallest = max(tallest, len(screen))
        assert len(screen) <= 23, "\n".join(screen)
        assert max(len(line) for line in screen) <= WIDTH, "\n".join(screen)
        action = after.history[-1]
        state, events = state.apply_with_events(action)
        moves.append(Move(seat, action, events))
    final = replay_screen(state.view(0))
    assert max(len(line) for line in final) <= WIDTH
    assert tallest >= 17 + players  # the board, the kids and market, one line per player


def test_the_turn_screen_shows_what_the_player_needs() -> None:
    game = tt.new_game(players=["Ann", "Bo", "Cy"], seed=42)
    screen = "\n".join(turn_screen(game.view(0), [], game.round))
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


def test_actions_are_grouped_and_every_legal_action_can_be_read_back() -> None:
    game = tt.new_game(players=3, seed=7)
    states = tt.play_game(game, [tt.GreedyAgent()] * 3, seed=7)
    for state in states[:-1:5]:
        view = state.view(state.current_player or 0)
        text = " ".join(action_lines(view))
        for action in view.legal_actions:
            if isinstance(action, tt.TakeCard):
                assert f"t{action.slot}k" in text
            else:
                assert f" {action}" in text


def test_the_last_round_starts_at_the_players_own_last_turn() -> None:
    game = tt.new_game(players=["Ann", "Bo", "Cy"], seed=5)
    moves = []
    for action in ("t0k0", "t0k0", "t0k0", "t1k1"):
        seat = game.current_player
        assert seat is not None
        game, events = game.apply_with_events(tt.parse_action(action))
        moves.append(Move(seat, tt.parse_action(action), events))
    assert [m.seat for m in last_round(moves, 1, 3)] == [1, 2, 0]
    (placed,) = [e for e in moves[1].events if isinstance(e, tt.CardPlaced)]
    card = card_text(placed.card)
    assert move_text(moves[1], ["Ann", "Bo", "Cy"], you=1) == f"You t0k0 ({card})"
    # Issue 38: the card a bot took has left the market when the screen shows the move.
    assert move_text(moves[1], ["Ann", "Bo", "Cy"], you=0) == f"Bo t0k0 ({card})"


def test_move_text_tells_what_a_visit_gained() -> None:
    game = tt.new_game(players=2, seed=3)
    states = tt.play_game(game, [tt.GreedyAgent()] * 2, seed=3)
    for before, after in itertools.pairwise(states):
        action = after.history[-1]
        if isinstance(action, tt.VisitHouse):
            seat = before.current_player
            assert seat is not None
            _, events = before.apply_with_events(action)
            visit = next(e for e in events if isinstance(e, tt.HouseVisited))
            text = move_text(Move(seat, action, events), ["Ann", "Bo"], None)
            assert text.startswith(f"{['Ann', 'Bo'][seat]} {action} +{visit.treats} ")
            return
    pytest.fail("the greedy game has no visit")


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

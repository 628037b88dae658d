"""The end of the game: R10, R11, R17, R20 and the rulebook's section "End Game"."""

from __future__ import annotations

import attrs
import pytest

import tricky_treats as tt
from tests.boards import card, with_deck, with_grid, with_market, with_player, with_turn
from tricky_treats.testing import turns_taken

COMPLETE = [
    card("red", "space", "head"),
    card("red", "space", "body"),
    card("red", "space", "legs"),
]


@pytest.fixture
def game() -> tt.GameState:
    return tt.new_game(players=3, seed=13)


def _finish_round(game: tt.GameState) -> tuple[tt.GameState, list[int | None]]:
    seats = []
    while not game.is_over:
        seats.append(game.current_player)
        game = game.apply(game.legal_actions()[0])
    return game, seats


def test_last_footprint_triggers_the_end_and_the_round_is_finished(game: tt.GameState) -> None:
    """R10 / "The end game is triggered: when a player places their last footprint token ...
    finish the round so that everyone has had the same number of turns".
    """
    game = with_grid(
        game, ["red", "green", "purple", "animal", "horror", "fable", "space", "head", "body"]
    )
    red_house = 0
    kids = [[COMPLETE[0]], [card("red", "fable", "legs")], [], [], []]
    game = with_player(game, 0, kids=kids, visited=range(1, 7), tricked=[0])
    after, events = game.apply_with_events(tt.VisitHouse(red_house))
    assert after.players[0].footprints == 0
    assert after.end_trigger == tt.EndTrigger(0, tt.Termination.LAST_FOOTPRINT, 0)
    assert tt.EndTriggered(0, tt.Termination.LAST_FOOTPRINT) in events
    assert (after.is_over, after.outcome(), after.winners()) == (False, None, ())  # not yet
    final, seats = _finish_round(after)
    assert seats == [1, 2]
    assert final.is_over
    assert final.outcome() == tt.Outcome(
        tt.Termination.LAST_FOOTPRINT, after.end_trigger, final.winners(), final.scores()
    )
    assert final.current_player is None
    assert final.legal_actions() == ()


def test_five_complete_costumes_trigger_the_end(game: tt.GameState) -> None:
    """R10 / "when a player has all 5 kids with a complete costume (i.e. all 3 pieces)"."""
    kids = [list(COMPLETE) for _ in range(4)] + [COMPLETE[:2]]
    legs = card("green", "animal", "legs")
    game = with_market(with_player(game, 0, kids=kids), [legs, *game.market[1:]])
    after = game.apply(tt.TakeCard(0, 4))
    assert after.end_trigger == tt.EndTrigger(0, tt.Termination.COMPLETE_COSTUMES, 0)
    assert not after.is_over


def test_an_empty_deck_triggers_the_end(game: tt.GameState) -> None:
    """R10 / "when the deck runs out of costume cards": the deck is empty after a refill."""
    game = with_deck(game, [card("purple", "horror", "head")])
    after = game.apply(tt.TakeCard(0, 0))
    assert after.deck_size == 0
    assert after.end_trigger == tt.EndTrigger(0, tt.Termination.DECK_EMPTY, 0)


def test_a_trigger_by_the_last_seat_ends_the_game_at_once(game: tt.GameState) -> None:
    """R10: play continues until the player to the right of the first player has finished."""
    game = with_turn(with_deck(game, [card("purple", "horror", "head")]), 2)
    after, events = game.apply_with_events(tt.TakeCard(0, 0))
    assert after.is_over
    assert isinstance(events[-1], tt.GameOver)
    assert events[-1].winners == after.winners()


def test_the_round_ends_with_the_seat_before_the_first_player() -> None:
    """R20: "the player to the right of the first player is then the last seat in turn order"."""
    game = tt.new_game(players=3, seed=13, first_player=2)
    game = with_deck(game, [card("purple", "horror", "head")])
    after = game.apply(tt.TakeCard(0, 0))  # seat 2 triggers
    final, seats = _finish_round(after)
    assert seats == [0, 1]
    assert final.is_over


def test_a_trigger_counts_once(game: tt.GameState) -> None:
    game = with_deck(game, [card("purple", "horror", "head")])
    after = game.apply(tt.TakeCard(0, 0))
    kids = [list(COMPLETE) for _ in range(4)] + [COMPLETE[:2]]
    later = with_market(with_player(after, 1, kids=kids), [card("green", "animal", "legs")] * 5)
    later = later.apply(tt.TakeCard(0, 4))
    assert later.end_trigger == after.end_trigger


def _stuck(game: tt.GameState) -> tt.GameState:
    """No market, no deck, no footprints: nobody has a legal action but to pass."""
    game = with_deck(with_market(game, [None] * 5), [])
    for seat in range(len(game.players)):
        game = with_player(game, seat, visited=range(8))
    return game


def test_a_player_with_no_legal_action_passes(game: tt.GameState) -> None:
    """R11: "a player with no legal action passes. A pass is a recorded action"."""
    stuck = _stuck(game)
    assert stuck.legal_actions() == (tt.Pass(),)
    after, events = stuck.apply_with_events(tt.Pass())
    assert events[0] == tt.Passed(0)
    assert after.history[-1] == tt.Pass()
    assert after.current_player == 1


def test_no_pass_while_another_action_is_legal(game: tt.GameState) -> None:
    """R11: pass only without another legal action."""
    assert tt.Pass() not in game.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"only when they have no other .*\(R11, R18\)"):
        game.apply(tt.Pass())


def test_a_whole_round_of_passes_triggers_the_end(game: tt.GameState) -> None:
    """R17: "if every player in turn passes for a whole round, the end is triggered, and the
    round is finished as in R10".
    """
    stuck = with_turn(_stuck(game), 1)
    state = stuck.apply(tt.Pass()).apply(tt.Pass())
    assert state.end_trigger is None
    state = state.apply(tt.Pass())  # seat 0: the third pass in a row
    assert state.end_trigger == tt.EndTrigger(0, tt.Termination.DEADLOCK, stuck.turn + 2)
    assert not state.is_over
    final, seats = _finish_round(state)
    assert seats == [1, 2]
    assert final.outcome() is not None
    assert final.outcome().termination is tt.Termination.DEADLOCK  # type: ignore[union-attr]


@pytest.mark.parametrize("action", [tt.TakeCard(0, 0), tt.VisitHouse(0), tt.TrickHouse(0)])
def test_passes_in_a_row_reset_on_any_other_turn(game: tt.GameState, action: tt.Action) -> None:
    """R17: "The run of passes is broken by any action that is not a pass": a take, a visit
    or a trick."""
    stuck = _stuck(game)
    after = stuck.apply(tt.Pass())
    assert after.passes_in_a_row == 1
    box = tt.base_components().cards
    if isinstance(action, tt.TakeCard):  # a card comes to the market
        revived = with_market(after, [card("red", "fable", "head"), None, None, None, None])
    elif isinstance(action, tt.VisitHouse):  # seat 1 wears what nice house 0 wants, and may visit
        wants = game.setup.grid[0].neighbour.wants
        heads = [c for c in box if wants in (c.type, c.theme, c.colour) and c.type.value == "head"]
        revived = with_player(after, 1, kids=[[c] for c in heads[:5]], visited=())
    else:  # seat 1's kids show mean house 0's icon, and seat 1 may trick it
        icon = game.setup.mean_houses[0].icon
        heads = [c for c in box if c.icon is icon and c.type.value == "head"]
        revived = with_player(after, 1, kids=[[c] for c in heads[:3]] + [[], []], visited=())
    assert action in revived.legal_actions()
    revived = revived.apply(action)
    assert revived.passes_in_a_row == 0


def test_a_refresh_breaks_the_run_of_passes(game: tt.GameState) -> None:
    """R17: "The run of passes is broken by any action that is not a pass, a refresh of the
    market included (the market changed)"."""
    heads = [c for c in tt.base_components().cards if c.type is tt.CostumeType.HEAD]
    # Seat 0's kids all wear heads, the market holds five other heads, no footprints are left:
    # seat 0 may only refresh or pass, after the two other seats passed.
    stuck = with_player(with_market(game, heads[:5]), 0, kids=[[c] for c in heads[5:10]])
    stuck = with_player(stuck, 0, kids=[[c] for c in heads[5:10]], visited=range(8))
    stuck = attrs.evolve(stuck, passes_in_a_row=2)
    assert stuck.legal_actions() == (tt.RefreshMarket(), tt.Pass())
    refreshed = stuck.apply(tt.RefreshMarket())
    assert refreshed.passes_in_a_row == 0
    assert refreshed.end_trigger is None
    # Without the refresh, seat 0's pass completes the round of passes.
    assert stuck.apply(tt.Pass()).end_trigger == tt.EndTrigger(0, tt.Termination.DEADLOCK, 0)


def test_no_action_after_the_game_is_over(game: tt.GameState) -> None:
    over = attrs.evolve(game, current_player=None)
    with pytest.raises(tt.IllegalActionError, match=r"the game is over \(R10\)"):
        over.apply(tt.TakeCard(0, 0))


def test_every_player_has_had_the_same_number_of_turns() -> None:
    """R10: "finish the round so that everyone has had the same number of turns"."""
    for seed in range(30):
        for players in (2, 3, 4):
            game = tt.new_game(players=players, seed=seed, first_player=seed % players)
            states = tt.play_game(game, [tt.RandomAgent()] * players, seed=seed)
            turns = turns_taken(states)
            assert len(set(turns)) == 1, (seed, players, turns)
            assert states[-1].turn == sum(turns)

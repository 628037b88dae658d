"""Action A, taking a costume card: R2, R3, R9, R23 and the rulebook's section "A"."""

from __future__ import annotations

import itertools

import pytest

import tricky_treats as tt
from tests.boards import card, play, with_deck, with_market, with_player

HAT = card("red", "space", "head")
SHIRT = card("red", "horror", "body")
PANTS = card("green", "space", "legs")


@pytest.fixture
def game() -> tt.GameState:
    return tt.new_game(players=2, seed=11)


def test_take_puts_the_card_on_top_of_the_kid(game: tt.GameState) -> None:
    """ "Select one of the five ... cards available in the market and place it on a kid ...
    The card must always be placed on top of any other costume card".
    """
    game = with_player(game, 0, kids=[[HAT], [], [], [], []])
    game = with_market(game, [SHIRT, *game.market[1:]])
    after = game.apply(tt.TakeCard(0, 0))
    assert after.players[0].kids[0] == (HAT, SHIRT)


def test_placed_cards_never_move(game: tt.GameState) -> None:
    """R2: "placed cards never move" / "The order ... can't be changed during the game"."""
    states = [game]
    for _ in range(40):
        state = states[-1]
        state = state.apply(state.legal_actions()[0])
        states.append(state)
    for before, after in itertools.pairwise(states):
        for old, new in zip(before.players, after.players, strict=True):
            for old_kid, new_kid in zip(old.kids, new.kids, strict=True):
                assert new_kid[: len(old_kid)] == old_kid


def test_a_kid_wears_one_card_of_each_type(game: tt.GameState) -> None:
    """R2 and the note: "A kid can't wear more than one piece of the same type of costume"."""
    other_hat = card("green", "fable", "head")
    game = with_player(game, 0, kids=[[HAT], [], [], [], []])
    game = with_market(game, [other_hat, *game.market[1:]])
    assert tt.TakeCard(0, 0) not in game.legal_actions()
    assert tt.TakeCard(0, 1) in game.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"kid 0 already wears a head .*\(R2\)"):
        game.apply(tt.TakeCard(0, 0))


def test_a_complete_kid_takes_no_more_cards(game: tt.GameState) -> None:
    game = with_player(game, 0, kids=[[HAT, SHIRT, PANTS], [], [], [], []])
    assert not any(isinstance(a, tt.TakeCard) and a.kid == 0 for a in game.legal_actions())


def test_refill_from_the_deck_into_the_same_slot(game: tt.GameState) -> None:
    """R9, R23: "Then reveal a new costume card, so that there are always 5 cards available";
    the refilled card takes the emptied slot.
    """
    next_card = game.setup.deck[game.deck_position]
    after = game.apply(tt.TakeCard(3, 0))
    assert after.market[3] is next_card
    assert after.market[:3] == game.market[:3]
    assert after.market[4] == game.market[4]
    assert after.deck_size == game.deck_size - 1


def test_no_refill_from_an_empty_deck(game: tt.GameState) -> None:
    """R9: "When the deck is empty, the market is not refilled"."""
    game = with_deck(game, [])
    after = game.apply(tt.TakeCard(1, 0))
    assert after.market[1] is None
    assert after.deck_size == 0
    assert not any(isinstance(a, tt.TakeCard) and a.slot == 1 for a in after.legal_actions())
    with pytest.raises(tt.IllegalActionError, match=r"slot 1 is empty.*\(R9\)"):
        after.apply(tt.TakeCard(1, 0))


def test_visible_icon_is_the_top_card_only(game: tt.GameState) -> None:
    """R3: "only the icon present on the last card you placed on a kid will be visible"."""
    first = card("red", "space", "head", 0)
    second = next(
        c
        for c in tt.base_components().cards
        if c.type is tt.CostumeType.BODY and c.icon is not first.icon
    )
    game = with_player(game, 0, kids=[[first], [], [], [], []])
    assert game.players[0].shown_icons()[0] is first.icon
    game = with_market(game, [second, *game.market[1:]])
    after = game.apply(tt.TakeCard(0, 0))
    shown = after.players[0].shown_icons()
    assert shown[0] is second.icon
    assert shown[1:] == (None,) * 4  # "A kid with no cards shows none"
    icon_counts = {icon: after.players[0].icon_count(icon) for icon in tt.TrickIcon}
    assert icon_counts[second.icon] == 1
    assert sum(icon_counts.values()) == 1


def test_taking_ends_the_turn(game: tt.GameState) -> None:
    """ "players will do one of these two following actions in their turn"."""
    after = game.apply(game.legal_actions()[0])
    assert after.current_player == 1
    assert after.turn == 1


def test_turns_go_clockwise_from_the_first_player() -> None:
    """ "Beginning with the 1st player and proceeding clockwise around the table"."""
    game = tt.new_game(players=4, seed=2, first_player=2)
    seats = []
    for _ in range(8):
        seats.append(game.current_player)
        game = game.apply(game.legal_actions()[0])
    assert seats == [2, 3, 0, 1, 2, 3, 0, 1]


@pytest.mark.parametrize(("slot", "kid"), [(5, 0), (0, 5), (5, 5), (99, 99)])
def test_take_with_out_of_range_indices_is_malformed(
    game: tt.GameState, slot: int, kid: int
) -> None:
    with pytest.raises(tt.InvalidActionError, match="market slots are 0 to 4 and kids 0 to 4"):
        game.apply(tt.TakeCard(slot, kid))


def test_notation_drives_the_game(game: tt.GameState) -> None:
    after = play(game, "t0k0", "t0k0")
    assert len(after.players[0].kids[0]) == 1
    assert len(after.players[1].kids[0]) == 1

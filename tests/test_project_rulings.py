"""The project's own rulings P1 to P8 (docs/rules.md): points the rulebooks and R1-R24 leave open."""

from __future__ import annotations

import pytest

import tricky_treats as tt
from tests.boards import BASE, card, with_deck, with_market, with_player, with_turn

HEADS = [c for c in BASE.cards if c.type is tt.CostumeType.HEAD]
COMPLETE = [
    card("red", "space", "head"),
    card("red", "space", "body"),
    card("red", "space", "legs"),
]


def test_mean_houses_lie_in_icon_order_with_random_tiles() -> None:
    """P1: the mean houses lie in icon order; which tile lies on each is random."""
    tiles = set()
    for seed in range(20):
        game = tt.new_game(players=2, seed=seed)
        assert [m.icon for m in game.setup.mean_houses] == list(tt.TrickIcon)
        tiles.add(tuple(m.tile.id for m in game.setup.mean_houses))
    assert len(tiles) > 10


def test_player_names_must_differ() -> None:
    """P2: player names, when given, must differ."""
    with pytest.raises(tt.ConfigurationError, match="must differ"):
        tt.new_game(players=["Ann", "Bo", "Ann"], seed=1)


def _stuck_on_heads(game: tt.GameState, seat: int) -> tt.GameState:
    """``seat``'s kids all wear a head, the market holds five heads, no footprint is left."""
    return with_player(with_market(game, HEADS[:5]), seat, kids=[[c] for c in HEADS[5:10]],
                       visited=range(8))  # fmt: skip


def test_under_refresh_ends_turn_the_pass_beside_a_refresh_is_a_pass() -> None:
    """P3: under refresh_ends_turn, the pass R18 offers beside a refresh is a turn like any
    other pass: the market stays as it is and the pass counts towards R17.
    """
    game = _stuck_on_heads(tt.new_game(players=2, seed=21, refresh_ends_turn=True), 0)
    assert game.legal_actions() == (tt.RefreshMarket(), tt.Pass())
    after = game.apply(tt.Pass())
    assert (after.current_player, after.turn, after.passes_in_a_row) == (1, 1, 1)
    assert after.market == game.market


def test_a_short_refresh_fills_the_slots_from_slot_0() -> None:
    """P4: a refresh with fewer than 5 cards left fills the slots from slot 0."""
    game = tt.new_game(players=2, seed=21)
    left = [card("green", "animal", "body"), card("purple", "fable", "legs")]
    game = with_deck(with_market(game, HEADS[:5]), left)
    after = game.apply(tt.RefreshMarket())
    assert after.market == (*left, None, None, None)


def test_a_market_with_a_gap_cannot_be_refreshed() -> None:
    """P4: a market with an empty slot cannot be refreshed, even with cards in the deck."""
    game = tt.new_game(players=2, seed=21)
    game = with_deck(with_market(game, [*HEADS[:4], None]), HEADS[10:20])
    assert tt.RefreshMarket() not in game.legal_actions()
    with pytest.raises(tt.IllegalActionError):
        game.apply(tt.RefreshMarket())


def test_a_refresh_is_not_a_turn() -> None:
    """P5: a refresh leaves the turn and the player to act as they are; a take is a turn."""
    game = with_deck(with_market(tt.new_game(players=3, seed=21), HEADS[:5]), HEADS[10:30])
    after = game.apply(tt.RefreshMarket())
    assert (after.turn, after.current_player) == (game.turn, game.current_player)
    taken = after.apply(after.legal_actions()[0])
    assert (taken.turn, taken.current_player) == (game.turn + 1, 1)


def test_passes_count_across_rounds() -> None:
    """P6: "a whole round" of R17 is as many passes in a row as players, across rounds."""
    game = tt.new_game(players=3, seed=21)
    for seat in range(3):
        game = _stuck_on_heads(game, seat)
    game = with_turn(with_deck(game, []), 2)  # the last seat of round 1 starts; no refresh
    game = game.apply(tt.Pass())  # seat 2, the end of a round
    assert (game.current_player, game.passes_in_a_row) == (0, 1)
    game = game.apply(tt.Pass())  # seat 0, in the next round
    assert (game.passes_in_a_row, game.end_trigger) == (2, None)
    game = game.apply(tt.Pass())  # seat 1: every player has passed in turn
    assert game.end_trigger == tt.EndTrigger(1, tt.Termination.DEADLOCK, game.turn - 1)


def test_simultaneous_end_conditions_record_complete_costumes_first() -> None:
    """P7: a take that completes the fifth kid and draws the last card records
    complete-costumes, the first in the order complete costumes, deck empty.
    """
    game = tt.new_game(players=2, seed=13)
    kids = [list(COMPLETE) for _ in range(4)] + [COMPLETE[:2]]
    legs = card("green", "animal", "legs")
    game = with_deck(with_player(game, 0, kids=kids), [card("purple", "horror", "head")])
    game = with_market(game, [legs, *game.market[1:]])
    after, events = game.apply_with_events(tt.TakeCard(0, 4))
    assert after.deck_size == 0  # the last card was drawn: the deck condition holds too
    assert all(len(kid) == 3 for kid in after.players[0].kids)
    assert after.end_trigger == tt.EndTrigger(0, tt.Termination.COMPLETE_COSTUMES, 0)
    assert [e for e in events if isinstance(e, tt.EndTriggered)] == [
        tt.EndTriggered(0, tt.Termination.COMPLETE_COSTUMES)
    ]


def test_the_end_is_triggered_once() -> None:
    """P7: the end is triggered once; a later condition does not move the trigger."""
    game = tt.new_game(players=2, seed=13)
    game = with_deck(game, [card("purple", "horror", "head")])
    first = game.apply(tt.TakeCard(0, 0))  # draws the last card
    assert first.end_trigger == tt.EndTrigger(0, tt.Termination.DECK_EMPTY, 0)
    kids = [list(COMPLETE) for _ in range(4)] + [COMPLETE[:2]]
    later = with_market(with_player(first, 1, kids=kids), [card("green", "animal", "legs")] * 5)
    later, events = later.apply_with_events(tt.TakeCard(0, 4))
    assert later.end_trigger == first.end_trigger
    assert not any(isinstance(e, tt.EndTriggered) for e in events)


def test_a_view_shows_the_public_record_but_no_order_and_no_owner() -> None:
    """P8: history, discards and what the deck holds are public; its order is not, nor whose
    the unseen tiles are.
    """
    game = with_deck(with_market(tt.new_game(players=3, seed=21), HEADS[:5]), HEADS[10:30])
    game = game.apply(tt.RefreshMarket()).apply(tt.TakeCard(0, 0))
    view = game.view(1)
    assert view.history == game.history
    assert view.discarded == tuple(HEADS[:5])
    remaining = game.setup.deck[game.deck_position :]
    assert view.deck_cards == tuple(sorted(remaining, key=lambda c: c.id))
    others = {game.players[0].secret_tile, game.players[2].secret_tile}
    assert others <= set(view.unseen_tiles)
    assert list(view.unseen_tiles) == sorted(view.unseen_tiles, key=lambda t: t.id)
    assert view.secret_tiles[0] is None
    assert view.secret_tiles[2] is None

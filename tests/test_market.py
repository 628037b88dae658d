"""Refreshing the market: R8, R18, R19, R23."""

from __future__ import annotations

import attrs
import pytest

import tricky_treats as tt
from tests.boards import BASE, card, with_deck, with_market, with_player

HEADS = [c for c in BASE.cards if c.type is tt.CostumeType.HEAD][:5]
MIXED = [
    card("red", "space", "head"),
    card("green", "animal", "body"),
    card("purple", "fable", "legs"),
    card("red", "horror", "legs"),
    card("green", "space", "body"),
]


def _stuck_on_heads(game: tt.GameState) -> tt.GameState:
    """Every kid wears a head, the market holds five heads and no footprint is left."""
    kids = [[c] for c in [c for c in BASE.cards if c.type is tt.CostumeType.HEAD][5:10]]
    return with_player(with_market(game, HEADS), 0, kids=kids, visited=range(8))


@pytest.fixture
def game() -> tt.GameState:
    return tt.new_game(players=2, seed=21)


FEATURES = ("type", "theme", "colour")
SHARING_ONE_FEATURE = {
    "type": [
        card("purple", "animal", "head"),
        card("red", "horror", "head"),
        card("green", "fable", "head"),
        card("purple", "space", "head"),
        card("red", "animal", "head"),
    ],
    "theme": [
        card("purple", "space", "head"),
        card("red", "space", "body"),
        card("green", "space", "legs"),
        card("purple", "space", "body"),
        card("red", "space", "head"),
    ],
    "colour": [
        card("red", "animal", "head"),
        card("red", "horror", "body"),
        card("red", "fable", "legs"),
        card("red", "space", "head"),
        card("red", "animal", "body"),
    ],
}
"""Five cards that share one feature and no other: only that feature allows the refresh."""


@pytest.mark.parametrize("feature", FEATURES)
def test_refresh_when_all_five_share_a_type_theme_or_colour(
    game: tt.GameState, feature: str
) -> None:
    """R8 / "If the 5 costume cards revealed are all either the same type or theme or color,
    you can, in your turn, discard all of them and reveal 5 new cards".
    """
    market = SHARING_ONE_FEATURE[feature]
    for other in FEATURES:  # the five share this feature, and no other
        assert (len({getattr(c, other) for c in market}) == 1) is (other == feature)
    game = with_market(game, market)
    assert tt.RefreshMarket() in game.legal_actions()
    after, events = game.apply_with_events(tt.RefreshMarket())
    assert after.discarded == tuple(market)  # "put the discarded cards away"; public (R23)
    assert after.market == game.setup.deck[game.deck_position : game.deck_position + 5]
    assert after.deck_size == game.deck_size - 5
    assert events[0] == tt.MarketRefreshed(0, tuple(market))


@pytest.mark.parametrize("odd_slot", range(5))
def test_no_refresh_when_one_card_differs(game: tt.GameState, odd_slot: int) -> None:
    """R8: "all either the same type or theme or color": four purple heads and, in any slot,
    a red body do not all share a feature."""
    market = [
        card("purple", theme, "head", copy) for theme in ("animal", "horror") for copy in (0, 1)
    ]
    market.insert(odd_slot, card("red", "space", "body"))
    game = with_market(game, market)
    assert tt.RefreshMarket() not in game.legal_actions()


def test_a_market_of_one_card_may_always_be_refreshed(game: tt.GameState) -> None:
    """R8 with a market of one card (component data may set a market of 1 to 10 cards): that
    card shares each of its features with every card of the market, so it may be refreshed
    while the deck lasts."""
    box = tt.base_components()
    box = attrs.evolve(box, rules=attrs.evolve(box.rules, market_size=1))
    game = tt.new_game(players=2, seed=21, components=box)
    assert len(game.market) == 1
    assert tt.RefreshMarket() in game.legal_actions()
    after = game.apply(tt.RefreshMarket())
    assert after.market == (game.setup.deck[game.deck_position],)


def test_no_refresh_for_a_mixed_market(game: tt.GameState) -> None:
    game = with_market(game, MIXED)
    assert tt.RefreshMarket() not in game.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"do not all share .*\(R8\)"):
        game.apply(tt.RefreshMarket())


def test_refresh_is_not_the_turns_action(game: tt.GameState) -> None:
    """R8: the refresh "does not use up the turn's action"."""
    game = with_market(game, HEADS)
    after = game.apply(tt.RefreshMarket())
    assert after.current_player == 0
    assert after.turn == 0
    after = after.apply(after.legal_actions()[0])
    assert after.current_player == 1


def test_refresh_may_be_repeated(game: tt.GameState) -> None:
    """R8: "it may be repeated if the new 5 share a feature again"."""
    legs = [c for c in BASE.cards if c.type is tt.CostumeType.LEGS][:5]
    game = with_deck(with_market(game, HEADS), [*legs, *MIXED])
    once = game.apply(tt.RefreshMarket())
    assert once.market == tuple(legs)
    twice = once.apply(tt.RefreshMarket())
    assert twice.market == tuple(MIXED)
    assert twice.discarded == (*HEADS, *legs)
    assert twice.current_player == 0


def test_refresh_ends_turn_option(game: tt.GameState) -> None:
    """R8 option: the refresh is the turn's action."""
    game = tt.new_game(players=2, seed=21, refresh_ends_turn=True)
    game = with_market(game, HEADS)
    after = game.apply(tt.RefreshMarket())
    assert after.current_player == 1
    assert after.turn == 1


def test_a_player_who_could_only_refresh_may_also_pass(game: tt.GameState) -> None:
    """R18: "a player who could only refresh is offered both the refresh and a pass"."""
    game = _stuck_on_heads(game)
    assert game.legal_actions() == (tt.RefreshMarket(), tt.Pass())


def test_under_the_option_a_player_who_could_only_refresh_may_pass_too() -> None:
    """R18: "Under the option refresh_ends_turn the same holds: a player whose only legal
    action is a refresh may pass instead"."""
    game = tt.new_game(players=2, seed=21, refresh_ends_turn=True)
    game = _stuck_on_heads(game)
    assert game.legal_actions() == (tt.RefreshMarket(), tt.Pass())
    after = game.apply(tt.Pass())
    assert after.current_player == 1
    assert after.market == game.market  # the deck was not burnt


def test_refresh_near_the_end_of_the_deck_shrinks_the_market(game: tt.GameState) -> None:
    """R19: "with fewer than 5 cards left, a refresh reveals what is left and the market
    shrinks ... Any draw that empties the deck, a refresh included, triggers the end".
    """
    game = with_deck(with_market(game, HEADS), MIXED[:3])
    after, events = game.apply_with_events(tt.RefreshMarket())
    assert after.market == (*MIXED[:3], None, None)
    assert after.deck_size == 0
    assert after.end_trigger == tt.EndTrigger(0, tt.Termination.DECK_EMPTY, 0)
    assert tt.EndTriggered(0, tt.Termination.DECK_EMPTY) in events
    assert not after.is_over
    assert after.current_player == 0  # the refresh was not the turn's action


def test_no_refresh_with_an_empty_deck(game: tt.GameState) -> None:
    """R19: "with an empty deck there is no refresh"."""
    game = with_deck(with_market(game, HEADS), [])
    assert tt.RefreshMarket() not in game.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"the deck is empty \(R19\)"):
        game.apply(tt.RefreshMarket())


@pytest.mark.parametrize("gap", [0, 4], ids=["first-slot", "last-slot"])
def test_no_refresh_of_a_market_with_a_gap(game: tt.GameState, gap: int) -> None:
    """R8: "If the 5 costume cards revealed are all either the same type or theme or color",
    P4: "A market with an empty slot cannot be refreshed": four heads and a gap are not five
    cards sharing a feature.

    Only the gap forbids the refresh here: the four cards share their type and the deck still
    holds cards (R19 allows it), which the same board with its fifth head shows. A market
    with a gap and cards in the deck is built by hand (in play a slot empties only once the
    deck has run out, R9); the rules refuse to refresh it all the same.
    """
    full = with_deck(with_market(game, HEADS), MIXED)
    assert tt.RefreshMarket() in full.legal_actions()  # the board, gap filled, may refresh
    market: list[tt.CostumeCard | None] = list(HEADS)
    market[gap] = None
    holed = with_market(full, market)
    assert holed.deck_size == len(MIXED)
    assert tt.RefreshMarket() not in holed.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"\(R8\)"):
        holed.apply(tt.RefreshMarket())

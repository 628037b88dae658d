"""Action B, visiting a house: R1, R4 to R7, R22 and the rulebook's sections B, B1, B2."""

from __future__ import annotations

import pytest

import tricky_treats as tt
from tests.boards import (
    card,
    cards_with_icon,
    play,
    with_grid,
    with_market,
    with_player,
    with_turn,
)

CANDY, LOLLIPOP, GUMMY = tt.Treat
GRID = ["green", "head", "red", "purple", "body", "legs", "animal", "horror", "fable"]
TOKENS = [CANDY, LOLLIPOP, GUMMY, CANDY, LOLLIPOP, GUMMY, CANDY, LOLLIPOP, GUMMY]
GREEN, HEAD, RED = 0, 1, 2


@pytest.fixture
def game() -> tt.GameState:
    return with_grid(tt.new_game(players=3, seed=5), GRID, TOKENS)


# Four green cards, two of them heads, one green card covered by another green card.
FOUR_GREEN = [
    [card("green", "space", "head"), card("green", "animal", "body")],
    [card("green", "fable", "legs")],
    [card("red", "horror", "head"), card("green", "horror", "body")],
    [],
    [],
]


def test_example_4_green_cards_give_2_treats(game: tt.GameState) -> None:
    """Rulebook example: "visit the nice neighbor who likes green costumes you get 2 treats,
    because you have 4 green costumes".
    """
    game = with_player(game, 0, kids=FOUR_GREEN)
    after = game.apply(tt.VisitHouse(GREEN))
    assert after.players[0].treats == (2, 0, 0)


def test_covered_cards_count(game: tt.GameState) -> None:
    """R1: count every card with the wanted feature on every kid, covered cards included."""
    game = with_player(game, 0, kids=FOUR_GREEN)
    assert game.players[0].count(tt.Colour.GREEN) == 4
    assert game.players[0].count(tt.CostumeType.HEAD) == 2


def test_example_2_hats_give_1_treat(game: tt.GameState) -> None:
    """Rulebook example: "the nice neighbor who likes hat costumes ... you get 1 treat,
    because you have only 2 hat costumes".
    """
    game = with_player(game, 0, kids=FOUR_GREEN)
    after = game.apply(tt.VisitHouse(HEAD))
    assert after.players[0].treats == (0, 1, 0)  # the head house's token is a lollipop


def test_treat_type_comes_from_the_house_token(game: tt.GameState) -> None:
    """ "The type of treats you get is determined by the house treat token"."""
    game = with_player(
        game, 0, kids=[[card("red", "space", "head")], [card("red", "fable", "legs")], [], [], []]
    )
    after = game.apply(tt.VisitHouse(RED))
    assert after.players[0].treats == (0, 0, 1)


def test_highest_tier_reached(game: tt.GameState) -> None:
    """R5: "You get the treats of the highest tier you reach" (6 green cards: 3 treats)."""
    kids = [
        [card("green", theme, kind)]
        for theme, kind in [
            ("space", "head"),
            ("animal", "body"),
            ("fable", "legs"),
            ("horror", "head"),
            ("space", "body"),
        ]
    ]
    kids[0].append(card("green", "horror", "body"))
    game = with_player(game, 0, kids=kids)
    assert game.apply(tt.VisitHouse(GREEN)).players[0].treats == (3, 0, 0)


def test_below_the_minimum_no_visit(game: tt.GameState) -> None:
    """R5 / "You must have the minimum number of icons requested by a house you want to visit,
    i.e. you can't visit a house without getting treats".
    """
    game = with_player(game, 0, kids=[[card("green", "space", "head")], [], [], [], []])
    assert tt.VisitHouse(GREEN) not in game.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"at least 2 green cards .* wear 1 \(R1, R5\)"):
        game.apply(tt.VisitHouse(GREEN))


def test_the_lowest_tier_is_enough_to_visit(game: tt.GameState) -> None:
    """R5: "you need at least the house's lowest threshold": exactly that many cards offer
    the visit, which pays the lowest tier."""
    green = game.setup.grid[GREEN].neighbour
    kids = [[card("green", "space", "head")], [card("green", "animal", "body")], [], [], []]
    game = with_player(game, 0, kids=kids)
    assert game.players[0].count(tt.Colour.GREEN) == green.minimum == 2
    assert tt.VisitHouse(GREEN) in game.legal_actions()
    assert game.apply(tt.VisitHouse(GREEN)).players[0].treats == (1, 0, 0)


def test_a_visit_places_a_footprint_and_the_first_visitor_takes_the_pumpkin(
    game: tt.GameState,
) -> None:
    """R6: "place one of your footprint tokens on top of that card. If you're the first player
    to visit that house, also collect the pumpkin token on it".
    """
    game = with_player(game, 0, kids=FOUR_GREEN)
    game = with_player(game, 1, kids=FOUR_GREEN)
    first, events = game.apply_with_events(tt.VisitHouse(GREEN))
    assert first.players[0].footprints == 7
    assert first.players[0].visited == {GREEN}
    assert first.players[0].pumpkins == 1
    assert not first.pumpkin_on_house[GREEN]
    assert tt.PumpkinTaken(0, GREEN, mean=False) in events  # a nice house's pumpkin
    second, events = first.apply_with_events(tt.VisitHouse(GREEN))
    assert not any(isinstance(event, tt.PumpkinTaken) for event in events)
    assert second.players[1].footprints == 7
    assert second.players[1].pumpkins == 0  # the pumpkin was gone
    assert second.players[1].treats == (2, 0, 0)  # "a house may be visited by more than one"


def test_each_player_visits_a_house_only_once(game: tt.GameState) -> None:
    """R6: "Each player may only visit a house once"."""
    game = with_player(game, 0, kids=FOUR_GREEN, visited=[GREEN])
    assert tt.VisitHouse(GREEN) not in game.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"already visited nice house 0.*\(R6\)"):
        game.apply(tt.VisitHouse(GREEN))


def test_no_visit_without_footprints(game: tt.GameState) -> None:
    """R6: each visit places one of the player's 8 footprints."""
    game = with_player(game, 0, kids=FOUR_GREEN, visited=range(3, 9), tricked=[0, 1])
    assert game.players[0].footprints == 0
    assert not any(isinstance(a, tt.VisitHouse | tt.TrickHouse) for a in game.legal_actions())
    with pytest.raises(tt.IllegalActionError, match=r"no footprints left \(R6\)"):
        game.apply(tt.VisitHouse(GREEN))


def test_first_to_complete_a_street_gets_the_front_then_it_flips(game: tt.GameState) -> None:
    """R7 / "If you're the first player to visit all 3 houses in the same row or column ...
    take the bonus ... (2 treats). Then flip that token ... (1 treat)".
    """
    token = game.setup.street_tokens[0]
    kids = [*FOUR_GREEN[:3], [card("red", "space", "legs")], []]
    game = with_player(game, 0, kids=kids, visited=[HEAD, RED])
    game = with_player(game, 1, kids=kids, visited=[HEAD, RED])
    before = game.players[0].treats
    first, events = game.apply_with_events(tt.VisitHouse(GREEN))
    gained = [a - b for a, b in zip(first.players[0].treats, before, strict=True)]
    expected = [0, 0, 0]
    expected[list(tt.Treat).index(CANDY)] += 2  # the green house's own treats
    expected[list(tt.Treat).index(token.treat)] += 2
    assert gained == expected
    assert first.street_flipped[0]
    assert tt.StreetBonusTaken(0, 0, token.treat, 2, first=True) in events
    second = first.apply(tt.VisitHouse(GREEN))
    expected[list(tt.Treat).index(token.treat)] -= 1
    assert [a - b for a, b in zip(second.players[1].treats, before, strict=True)] == expected


def test_a_visit_completing_a_row_and_a_column_pays_both(game: tt.GameState) -> None:
    """R22: a visit that completes a row and a column at once pays both bonuses."""
    kids = [*FOUR_GREEN[:3], [card("red", "space", "legs")], []]
    game = with_player(game, 0, kids=kids, visited=[HEAD, RED, 3, 6])
    _, events = game.apply_with_events(tt.VisitHouse(GREEN))
    streets = [e.street for e in events if isinstance(e, tt.StreetBonusTaken)]
    assert streets == [0, 3]


def _showing(icon: tt.TrickIcon, kids: int) -> list[list[tt.CostumeCard]]:
    heads = cards_with_icon(icon, "head")
    return [[heads[i]] for i in range(kids)] + [[] for _ in range(5 - kids)]


def test_three_matching_icons_trick_the_mean_house_with_that_icon(game: tt.GameState) -> None:
    """R4 / "When the kids in your group are carrying 3 of the same trick icon, you can trick
    one of the mean neighbor houses"; example: "the mean neighbor with the same icon".
    """
    icon = tt.TrickIcon.EGG
    house = [m.icon for m in game.setup.mean_houses].index(icon)
    game = with_player(game, 0, kids=_showing(icon, 3))
    tricks = [a for a in game.legal_actions() if isinstance(a, tt.TrickHouse)]
    assert tricks == [tt.TrickHouse(house)]
    after, events = game.apply_with_events(tt.TrickHouse(house))
    assert after.players[0].tricked == {house}
    assert after.players[0].footprints == 7
    assert after.players[0].pumpkins == 1  # R6: the first visitor takes the pumpkin
    assert tt.PumpkinTaken(0, house, mean=True) in events  # a mean house's pumpkin


def test_two_icons_are_not_enough(game: tt.GameState) -> None:
    icon = tt.TrickIcon.EGG
    house = [m.icon for m in game.setup.mean_houses].index(icon)
    game = with_player(game, 0, kids=_showing(icon, 2))
    with pytest.raises(tt.IllegalActionError, match=r"needs 3 kids showing egg on top, and 2 do"):
        game.apply(tt.TrickHouse(house))


def test_covered_icons_do_not_count_for_tricks(game: tt.GameState) -> None:
    """R3, NL: "Omdat alleen de bovenste kaart van elk kind zijn plaagsymbool laat zien, tellen
    alleen die kaarten mee".
    """
    icon = tt.TrickIcon.EGG
    other = list(cards_with_icon(tt.TrickIcon.SPIDERWEB, "body"))
    kids = _showing(icon, 3)
    kids[0].append(other[0])  # the egg on kid 0 is now covered
    game = with_player(game, 0, kids=kids)
    assert not any(isinstance(a, tt.TrickHouse) for a in game.legal_actions())


def test_any_mean_house_option() -> None:
    """R4 option any-mean-house: any 3 matching icons let you trick any mean house."""
    game = tt.new_game(players=2, seed=5, any_mean_house=True)
    game = with_player(game, 0, kids=_showing(tt.TrickIcon.EGG, 3))
    tricks = [a for a in game.legal_actions() if isinstance(a, tt.TrickHouse)]
    assert tricks == [tt.TrickHouse(0), tt.TrickHouse(1), tt.TrickHouse(2)]
    after = game.apply(tt.TrickHouse(0))
    assert after.players[0].tricked == {0}


def test_under_the_any_mean_house_option_three_icons_must_still_match() -> None:
    """R4 option any-mean-house: "any 3 matching icons let you trick any mean house"; two
    eggs and two spiderwebs on top are no 3 matching icons."""
    game = tt.new_game(players=2, seed=5, any_mean_house=True)
    eggs = cards_with_icon(tt.TrickIcon.EGG, "head")
    webs = cards_with_icon(tt.TrickIcon.SPIDERWEB, "head")
    game = with_player(game, 0, kids=[[eggs[0]], [eggs[1]], [webs[0]], [webs[1]], []])
    assert not any(isinstance(a, tt.TrickHouse) for a in game.legal_actions())
    with pytest.raises(tt.IllegalActionError, match=r"R4 option any-mean-house"):
        game.apply(tt.TrickHouse(0))


def test_a_mean_house_is_tricked_once_per_player_but_by_several_players(
    game: tt.GameState,
) -> None:
    """R6 for mean houses, and R14: "each player who tricks that house gains access to it"."""
    icon = tt.TrickIcon.SPIDERWEB
    house = [m.icon for m in game.setup.mean_houses].index(icon)
    game = with_player(game, 0, kids=_showing(icon, 3), tricked=[house])
    game = with_player(game, 1, kids=_showing(icon, 3))
    with pytest.raises(tt.IllegalActionError, match=r"already tricked mean house .*\(R6\)"):
        game.apply(tt.TrickHouse(house))
    after = with_turn(game, 1).apply(tt.TrickHouse(house))
    assert after.players[1].tricked == {house}
    tile = game.setup.mean_houses[house].tile
    assert tile in [s.tile for s in after.scores()[1].trick_tiles]
    assert tile in [s.tile for s in after.scores()[0].trick_tiles]


def test_visit_indices_out_of_range_are_malformed(game: tt.GameState) -> None:
    with pytest.raises(tt.InvalidActionError, match="nice houses are 0 to 8"):
        game.apply(tt.VisitHouse(9))
    with pytest.raises(tt.InvalidActionError, match="mean houses are 0 to 2"):
        game.apply(tt.TrickHouse(3))


def test_visit_ends_the_turn(game: tt.GameState) -> None:
    game = with_player(game, 0, kids=FOUR_GREEN)
    after = play(game, "v0")
    assert after.current_player == 1


def test_treat_tracks_have_no_maximum(game: tt.GameState) -> None:
    """R21: treat tracks have no maximum."""
    game = with_player(game, 0, kids=FOUR_GREEN, treats=(99, 0, 0))
    after = game.apply(tt.VisitHouse(GREEN))
    assert after.players[0].treats == (101, 0, 0)


def test_a_visited_house_is_never_offered_again_on_a_hand_built_board(game: tt.GameState) -> None:
    """R6: "a player visits a house at most once". A board built by hand may say a house was
    visited that the player's cards do not reach yet; once a card reaches it, legal_actions()
    must still leave it out, agreeing with apply()."""
    # The head house's lowest tier wants 2 heads: one is worn, the market holds the other.
    game = with_player(
        game, 0, kids=[[card("red", "fable", "head")], [], [], [], []], visited=[HEAD]
    )
    head = game.setup.grid[HEAD].neighbour
    assert game.players[0].count(head.wants) < head.minimum
    game = with_market(game, [card("green", "space", "head"), *game.market[1:]])
    after = with_turn(game.apply(tt.TakeCard(0, 1)), 0)
    assert after.players[0].count(head.wants) >= head.minimum
    assert tt.VisitHouse(HEAD) not in after.legal_actions()
    with pytest.raises(tt.IllegalActionError, match=r"R6"):
        after.apply(tt.VisitHouse(HEAD))

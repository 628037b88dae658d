"""Dealing a game: the rulebook's "Setup" section, R16 and R20."""

from __future__ import annotations

import collections
import random

import attrs
import pytest

import tricky_treats as tt
from tricky_treats.rules import build_player


@pytest.fixture(params=[2, 3, 4])
def game(request: pytest.FixtureRequest) -> tt.GameState:
    return tt.new_game(players=request.param, seed=7)


def test_nine_of_ten_nice_neighbours_in_a_grid(game: tt.GameState) -> None:
    """ "Shuffle the 10 nice neighbor house cards and make a 3x3 grid with 9 of them"."""
    grid = [h.neighbour for h in game.setup.grid]
    assert len(grid) == 9
    assert len({n.id for n in grid}) == 9
    assert set(grid) <= set(tt.base_components().nice_neighbours)


def test_a_house_treat_token_on_each_house(game: tt.GameState) -> None:
    """ "Place a random house treat token face up in the top-right corner of each of the houses"."""
    assert collections.Counter(h.treat for h in game.setup.grid) == dict.fromkeys(tt.Treat, 3)


def test_street_bonus_tokens_two_side_up(game: tt.GameState) -> None:
    """ "Place a random street bonus token at the end of each row and column, making sure the
    side with 2 treats is facing up".
    """
    assert len(game.setup.street_tokens) == 6
    assert game.street_flipped == (False,) * 6
    assert sorted(t.treat.value for t in game.setup.street_tokens) == sorted(
        t.treat.value for t in tt.base_components().street_bonus_tokens
    )


def test_mean_houses_each_with_a_trick_tile(game: tt.GameState) -> None:
    """ "Place the 3 mean neighbor house cards ... then place a random trick tile face up"."""
    assert [m.icon for m in game.setup.mean_houses] == list(tt.TrickIcon)
    tiles = [m.tile for m in game.setup.mean_houses] + list(game.setup.secret_tiles)
    assert len({t.id for t in tiles}) == len(tiles)


def test_a_pumpkin_on_each_of_the_12_houses(game: tt.GameState) -> None:
    """ "Place one pumpkin token on each of the 12 house cards"."""
    assert game.pumpkin_on_house == (True,) * 9
    assert game.pumpkin_on_mean_house == (True,) * 3


def test_market_of_five_and_the_rest_face_down(game: tt.GameState) -> None:
    """ "Shuffle the transparent costume cards and reveal 5 of them, forming the market"."""
    assert len(game.market) == 5
    assert None not in game.market
    assert game.deck_size == 72 - 5
    assert sorted(c.id for c in game.setup.deck) == list(range(72))


def test_each_player_starts_with_8_footprints_empty_tracks_and_a_secret_tile(
    game: tt.GameState,
) -> None:
    """ "Each player takes ... 3 treat markers and 8 footprint tokens ... on the space 0 of each
    track. Each player also gets one random trick tile".
    """
    for seat, player in enumerate(game.players):
        assert player.footprints == 8
        assert player.treats == (0, 0, 0)
        assert player.kids == ((),) * 5
        assert player.pumpkins == 0
        assert player.secret_tile is game.setup.secret_tiles[seat]


def test_a_board_built_from_a_name_and_a_tile_is_a_starting_board(game: tt.GameState) -> None:
    """ "Each player takes ... 3 treat markers and 8 footprint tokens ... on the space 0 of each
    track": ``build_player`` given only a name and a secret tile builds that board."""
    for player in game.players:
        built = build_player(game.setup, name=player.name, secret_tile=player.secret_tile)
        assert built == player


@pytest.mark.parametrize(
    ("board", "problem"),
    [
        ({"treats": (0, 0)}, r"expected 3 treat counts >= 0, got \(0, 0\)"),
        ({"treats": (0, -1, 0)}, r"expected 3 treat counts >= 0, got \(0, -1, 0\)"),
        ({"visited": [9]}, r"no such house among \[9\] / \[\]"),
        ({"visited": [0], "tricked": [3]}, r"no such house among \[0\] / \[3\]"),
        ({"visited": range(9)}, r"9 visits need more than 8 footprints \(R6\)"),
        ({"visited": range(6), "tricked": range(3)}, r"9 visits need more than 8 footprints"),
    ],
    ids=["two-tracks", "below-0", "no-nice-house-9", "no-mean-house-3", "9-visits", "9-in-all"],
)
def test_a_board_the_rules_cannot_produce_is_refused(
    game: tt.GameState, board: dict[str, object], problem: str
) -> None:
    """ "3 treat markers ... on the space 0 of each track" and R6: "Each visit places one of
    the player's 8 footprints": no board has other tracks, counts below 0, visits to houses
    not in the game, or more visits than footprints."""
    with pytest.raises(tt.ConfigurationError, match=problem):
        build_player(game.setup, name="Ann", secret_tile=game.players[0].secret_tile, **board)  # type: ignore[arg-type]


def test_with_enough_footprints_a_board_may_visit_every_house() -> None:
    """R6 with 12 footprints (component data may give 1 to 20): a board may have visited all
    9 nice houses and tricked all 3 mean ones."""
    box = tt.base_components()
    box = attrs.evolve(box, rules=attrs.evolve(box.rules, footprints_per_player=12))
    game = tt.new_game(players=2, seed=7, components=box)
    secret = game.players[0].secret_tile
    board = build_player(
        game.setup, name="Ann", secret_tile=secret, visited=range(9), tricked=range(3)
    )
    assert board.visited == frozenset(range(9))
    assert (board.tricked, board.footprints) == (frozenset(range(3)), 0)


def test_player_names() -> None:
    game = tt.new_game(players=["Ann", "Bo", "Cy"], seed=1)
    assert [p.name for p in game.players] == ["Ann", "Bo", "Cy"]
    assert [p.name for p in tt.new_game(players=2, seed=1).players] == ["Player 1", "Player 2"]


def test_first_player_is_seat_0_unless_configured() -> None:
    """R20: seat 0 starts unless the configuration names another seat."""
    assert tt.new_game(players=3, seed=1).current_player == 0
    game = tt.new_game(players=3, seed=1, first_player=2)
    assert game.current_player == 2
    assert game.config.last_player == 1


def test_same_seed_deals_the_same_game() -> None:
    assert tt.new_game(players=4, seed=99) == tt.new_game(players=4, seed=99)


def test_different_seeds_deal_different_games() -> None:
    decks = {tt.new_game(players=2, seed=s).setup.deck for s in range(20)}
    assert len(decks) == 20


def test_a_game_without_seed_records_the_seed_it_drew() -> None:
    game = tt.new_game(players=2)
    assert isinstance(game.config.seed, int)
    assert tt.new_game(players=2, seed=game.config.seed) == game


def test_dealing_does_not_touch_global_random_state() -> None:
    random.seed(1234)
    before = random.getstate()
    tt.new_game(players=4, seed=5)
    assert random.getstate() == before


def test_dealing_does_not_depend_on_global_random_state() -> None:
    random.seed(1)
    first = tt.new_game(players=3, seed=5)
    random.seed(2)
    assert tt.new_game(players=3, seed=5) == first


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "for 2 to 4 players, got 1"),
        ({"players": 5}, "for 2 to 4 players, got 5"),
        ({"players": ["Ann"]}, "for 2 to 4 players, got 1"),
        ({"players": ["Ann", "Ann"]}, "player names must differ"),
        ({"players": ["Ann", ""]}, "non-empty strings"),
        ({"players": "AnnBo"}, "a count or a list of names"),
        ({"players": True}, "a count or a list of names"),
        ({"players": 2, "seed": "x"}, "seed must be a whole number"),
        ({"players": 2, "seed": 1, "first_player": 2}, "first_player must be a seat from 0 to 1"),
    ],
)
def test_bad_configuration(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(tt.ConfigurationError, match=message):
        tt.new_game(**kwargs)  # type: ignore[arg-type]


def test_configuration_error_is_a_library_error_and_a_value_error() -> None:
    with pytest.raises(tt.TrickyTreatsError):
        tt.new_game(players=5, seed=1)
    with pytest.raises(ValueError, match="players"):
        tt.new_game(players=5, seed=1)

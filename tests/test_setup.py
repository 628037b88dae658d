"""Dealing a game: the rulebook's "Setup" section, R16 and R20."""

from __future__ import annotations

import collections
import random

import pytest

import tricky_treats as tt


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

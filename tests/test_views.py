"""Per-player views and hidden information: R16, R24."""

from __future__ import annotations

import attrs
import pytest

import tricky_treats as tt
from tests.boards import tile, with_player


@pytest.fixture
def game() -> tt.GameState:
    return tt.new_game(players=3, seed=8)


def _hidden_variant(game: tt.GameState, viewer: int) -> tt.GameState:
    """``game`` with everything ``viewer`` may not see changed: deck order, others' tiles."""
    setup = game.setup
    drawn = setup.deck[: game.deck_position]
    rest = tuple(reversed(setup.deck[game.deck_position :]))
    used = {t.id for t in setup.secret_tiles} | {m.tile.id for m in setup.mean_houses}
    spare = [t for t in tt.base_components().trick_tiles if t.id not in used]
    state = attrs.evolve(game, setup=attrs.evolve(setup, deck=drawn + rest))
    for seat in range(len(game.players)):
        if seat != viewer:
            state = with_player(state, seat, secret_tile=spare.pop())
    return state


def test_the_deck_order_is_hidden(game: tt.GameState) -> None:
    """R16: "the deck order is hidden from everyone"."""
    view = game.view(0)
    assert view.deck_size == 67
    assert not hasattr(view, "deck")
    assert not any(f.name == "setup" for f in attrs.fields(tt.PlayerView))


def test_secret_tiles_of_others_are_hidden_until_the_end(game: tt.GameState) -> None:
    """R16: "each secret trick tile is hidden from the other players until the game ends"."""
    view = game.view(1)
    assert view.secret_tile == game.players[1].secret_tile
    assert view.secret_tiles[0] is None
    assert view.secret_tiles[2] is None
    final = tt.play_game(game, [tt.RandomAgent()] * 3, seed=3)[-1]
    assert final.view(1).secret_tiles == tuple(p.secret_tile for p in final.players)


def test_views_are_identical_when_only_hidden_information_differs(game: tt.GameState) -> None:
    """R16: a player's view depends on nothing that player may not see."""
    states = tt.play_game(game, [tt.RandomAgent()] * 3, seed=4)
    for state in states[:-1:7]:
        for viewer in range(3):
            other = _hidden_variant(state, viewer)
            assert other != state
            assert other.view(viewer) == state.view(viewer)


def test_views_differ_when_visible_information_differs(game: tt.GameState) -> None:
    changed = with_player(game, 2, treats=(1, 0, 0))
    assert changed.view(0) != game.view(0)


def test_running_scores_in_a_view_leave_out_others_secret_tiles(game: tt.GameState) -> None:
    """R24: running scores show "secret tiles only to their owner"."""
    game = with_player(game, 0, treats=(6, 6, 6), secret_tile=tile("pair-candy"))
    game = with_player(game, 1, treats=(6, 6, 6))
    mine = game.view(0).scores
    assert mine[0] == game.scores()[0]
    assert mine[1].trick_tiles == ()
    assert game.view(1).scores[0].trick_tiles == ()


def _secret_bonus(state: tt.GameState, player: int) -> list[tt.ExtraScore]:
    """A scoring function that reads the player's secret tile (hidden information)."""
    return [tt.ExtraScore("secret bonus", state.players[player].secret_tile.points)]


def test_lines_of_a_scorer_that_may_read_hidden_information_wait_for_the_end(
    game: tt.GameState,
) -> None:
    """R16: each secret tile is hidden "from the other players until the game ends", and R24:
    running scores show "secret tiles only to their owner": the lines of a scoring function
    not declared public are in their owner's view only, until the end."""
    game = attrs.evolve(game, setup=attrs.evolve(game.setup, scorers=(_secret_bonus,)))
    line = game.scores()[0].extras
    assert line == (tt.ExtraScore("secret bonus", game.players[0].secret_tile.points),)
    assert game.view(0).scores[0].extras == line
    assert game.view(1).scores[0].extras == ()
    over = attrs.evolve(
        game, current_player=None, end_trigger=tt.EndTrigger(0, tt.Termination.DEADLOCK, 0)
    )
    assert over.view(1).scores[0].extras == line


def test_legal_actions_only_for_the_player_to_act(game: tt.GameState) -> None:
    assert game.view(0).legal_actions == game.legal_actions()
    assert game.view(1).legal_actions == ()


def test_view_shows_the_public_boards(game: tt.GameState) -> None:
    game = game.apply(game.legal_actions()[0])
    view = game.view(2)
    assert view.players[0].kids == game.players[0].kids
    assert view.market == game.market
    assert view.history == game.history
    assert view.current_player == 1


@pytest.mark.parametrize("player", [-1, 3, True, "0"])
def test_unknown_player(game: tt.GameState, player: object) -> None:
    with pytest.raises(tt.UnknownPlayerError, match=r"seats are 0 to 2"):
        game.view(player)  # type: ignore[arg-type]

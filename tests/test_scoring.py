"""Scoring: R12 to R15, R24 and the rulebook's 42-point example."""

from __future__ import annotations

import attrs
import pytest

import tricky_treats as tt
from tests.boards import card, tile, with_player, with_setup

CANDY, LOLLIPOP, GUMMY = tt.Treat


@pytest.mark.parametrize(
    ("kid", "points"),
    [
        ([("red", "space", "head"), ("green", "animal", "body"), ("purple", "fable", "legs")], 2),
        ([("red", "space", "head"), ("red", "animal", "body"), ("red", "fable", "legs")], 4),
        ([("red", "horror", "head"), ("green", "horror", "body"), ("purple", "horror", "legs")], 6),
        ([("green", "fable", "head"), ("green", "fable", "body"), ("green", "fable", "legs")], 8),
        # "share only the theme": two colours alike and one different is still 6 (R12)
        ([("red", "horror", "head"), ("red", "horror", "body"), ("green", "horror", "legs")], 6),
        # "share only the colour": two themes alike and one different is still 4 (R12)
        ([("red", "space", "head"), ("red", "space", "body"), ("red", "fable", "legs")], 4),
        # neither all one colour nor all one theme
        ([("red", "space", "head"), ("red", "space", "body"), ("green", "fable", "legs")], 2),
        ([("red", "space", "head"), ("red", "space", "body")], 0),
        ([], 0),
    ],
)
def test_costume_points(kid: list[tuple[str, str, str]], points: int) -> None:
    """R12 / rulebook: "2VP x different colors and themes, 4VP x same color, different themes,
    6VP x same theme, different color, 8VP x same color, same theme"; "VP for every kid with a
    complete costume (i.e. all 3 pieces)".
    """
    assert tt.costume_points([card(*c) for c in kid]) == points


def _example(players: int = 2) -> tt.GameState:
    """The position of the rulebook's scoring example, for player 0."""
    game = tt.new_game(players=players, seed=42)
    mean = list(game.setup.mean_houses)
    mean[0] = tt.MeanHouse(mean[0].neighbour, tile("pair-candy"))
    game = with_setup(game, mean_houses=tuple(mean))
    kids = [
        [
            card("red", "space", "head"),
            card("green", "animal", "body"),
            card("purple", "fable", "legs"),
        ],
        [
            card("red", "horror", "head"),
            card("green", "horror", "body"),
            card("purple", "horror", "legs"),
        ],
        [
            card("green", "fable", "head"),
            card("green", "fable", "body"),
            card("green", "fable", "legs"),
        ],
        [card("red", "animal", "head"), card("purple", "space", "body")],
        [
            card("purple", "animal", "head"),
            card("purple", "space", "body"),
            card("purple", "horror", "legs"),
        ],
    ]
    return with_player(
        game,
        0,
        kids=kids,
        treats=(4, 2, 0),
        pumpkins=4,
        tricked=[0],
        secret_tile=tile("candy-lollipop"),
    )


def test_the_rulebooks_42_point_example() -> None:
    """Rulebook: "You score a total of 42 VP: 8 VP because you have collected 4 pumpkin tokens,
    2 VP for the first kid ..., 6 VP for the second kid ..., 8 VP for the third kid ..., 0 VP
    for the fourth kid ..., 4 VP for the fifth kid ..., 8 VP for your personal trick tile
    because you have 2 sets of candy and lollipop, 6 VP for the trick tile on the mean house
    you visited because you have 4 candy".
    """
    sheet = _example().scores()[0]
    assert sheet.pumpkins == 8
    assert sheet.costumes == (2, 6, 8, 0, 4)
    assert [(s.mean_house, s.sets, s.points) for s in sheet.trick_tiles] == [
        (None, 2, 8),
        (0, 2, 6),
    ]
    assert sheet.treats == 14
    assert sheet.total == 42


def test_pumpkins_score_2_each() -> None:
    """R13 / "2VP x each pumpkin token you have collected"."""
    game = with_player(tt.new_game(players=2, seed=1), 1, pumpkins=3)
    assert game.scores()[1].pumpkins == 6


def test_tiles_are_scored_independently_without_spending() -> None:
    """R14: "Tiles are scored independently: no treats are spent"."""
    game = tt.new_game(players=2, seed=1)
    mean = list(game.setup.mean_houses)
    mean[1] = tt.MeanHouse(mean[1].neighbour, tile("three-candy"))
    game = with_setup(game, mean_houses=tuple(mean))
    game = with_player(game, 0, treats=(6, 0, 0), tricked=[1], secret_tile=tile("pair-candy"))
    sheet = game.scores()[0]
    assert [s.points for s in sheet.trick_tiles] == [9, 10]  # 3 pairs of candy, 2 sets of 3


def test_only_tricked_mean_houses_count() -> None:
    """R14: access to "your personal trick tile and all the mean neighbor houses you tricked"."""
    game = with_player(tt.new_game(players=2, seed=1), 0, treats=(9, 9, 9), tricked=[2])
    sheet = game.scores()[0]
    assert [s.mean_house for s in sheet.trick_tiles] == [None, 2]
    assert sheet.trick_tiles[1].tile == game.setup.mean_houses[2].tile


def _sheet(player: int, pumpkins: int, treats: int) -> tt.ScoreSheet:
    score = tt.TileScore(tile("pair-candy"), None, treats // 3, treats)
    return tt.ScoreSheet(player, pumpkins, (0,) * 5, (score,))


def test_highest_total_wins() -> None:
    """R15 / "The player with the most points is the winner"."""
    from tricky_treats.scoring import winners

    assert winners([_sheet(0, 10, 3), _sheet(1, 12, 3)]) == (1,)


def test_a_tie_goes_to_the_most_treat_points() -> None:
    """R15 / "In the case of a tie, the player with the most points for treats is the winner"."""
    from tricky_treats.scoring import winners

    assert winners([_sheet(0, 10, 6), _sheet(1, 13, 3), _sheet(2, 4, 12)]) == (2,)


def test_a_persisting_tie_is_shared() -> None:
    """R15 / "If the tie persists, the players share the sweet victory!"."""
    from tricky_treats.scoring import winners

    assert winners([_sheet(0, 10, 6), _sheet(1, 10, 6), _sheet(2, 4, 3)]) == (0, 1)


def test_running_scores_and_no_winner_before_the_end() -> None:
    """R24: "score sheets can be asked for at any time and show the points so far ... the
    winners are known only once the game is over".
    """
    game = _example()
    assert game.scores()[0].total == 42
    assert game.winners() == ()
    assert game.outcome() is None
    over = attrs.evolve(
        game,
        current_player=None,
        end_trigger=tt.EndTrigger(0, tt.Termination.DECK_EMPTY, 0),
    )
    assert over.winners() == (0,)
    outcome = over.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.scores == over.scores()


def test_sheets_of_played_games_follow_the_rules() -> None:
    """Each part of a sheet recomputed by hand from the final boards (R12 to R14)."""
    for seed in range(10):
        final = tt.play_game(tt.new_game(3, seed=seed), [tt.RandomAgent()] * 3, seed=seed)[-1]
        for player, sheet in zip(final.players, final.scores(), strict=True):
            assert sheet.pumpkins == 2 * player.pumpkins
            assert sheet.costumes == tuple(tt.costume_points(kid) for kid in player.kids)
            tiles = [player.secret_tile] + [
                final.setup.mean_houses[h].tile for h in sorted(player.tricked)
            ]
            assert [s.tile for s in sheet.trick_tiles] == tiles
            for score in sheet.trick_tiles:
                need = {t: score.tile.treats.count(t) for t in score.tile.treats}
                sets = min(player.treat_count(t) // n for t, n in need.items())
                assert score.points == sets * score.tile.points
            assert sheet.total == sheet.pumpkins + sum(sheet.costumes) + sheet.treats


def test_costume_points_for_every_complete_costume_of_the_box() -> None:
    """R12 for all 24 x 24 x 24 complete costumes: 8, 6, 4 or 2 by colours and themes alike."""
    by_type = [[c for c in tt.base_components().cards if c.type is kind] for kind in tt.CostumeType]
    counts = {2: 0, 4: 0, 6: 0, 8: 0}
    for head in by_type[0]:
        for body in by_type[1]:
            for legs in by_type[2]:
                kid = [head, body, legs]
                colours = len({c.colour for c in kid})
                themes = len({c.theme for c in kid})
                expected = (
                    8 if colours == themes == 1 else 6 if themes == 1 else 4 if colours == 1 else 2
                )
                points = tt.costume_points(kid)
                assert points == expected
                counts[points] += 1
    assert counts == {
        8: 12 * 8,
        6: 4 * 8 * (27 - 3),
        4: 3 * 8 * (64 - 4),
        2: 13824 - 96 - 768 - 1440,
    }


def _bonus(state: tt.GameState, player: int) -> list[tt.ExtraScore]:
    return [tt.ExtraScore("bonus", 10 + player)]


def test_a_score_sheet_holds_every_line_so_far() -> None:
    """R24: "score sheets can be asked for at any time and show the points so far": a player's
    sheet (``score_sheet``) and every sheet (``scores()``) hold the secret tile (R14) and the
    lines a variant's scoring adds."""
    from tricky_treats.scoring import score_sheet, score_sheets

    game = tt.new_game(players=3, seed=7)
    game = attrs.evolve(game, setup=attrs.evolve(game.setup, scorers=(_bonus,)))
    game = with_player(game, 1, treats=(6, 6, 6))
    sheets = score_sheets(game)
    assert sheets == game.scores()
    for seat, sheet in enumerate(sheets):
        assert sheet == score_sheet(game, seat)
        assert sheet.trick_tiles[0].tile == game.players[seat].secret_tile
        assert sheet.extras == (tt.ExtraScore("bonus", 10 + seat),)
    assert sheets[1].trick_tiles[0].points > 0
    assert sheets[1].total == sheets[1].treats + 11

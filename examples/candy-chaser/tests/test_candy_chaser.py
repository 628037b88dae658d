"""Candy Chaser: every rule sentence of candy-chaser-es.txt and every ruling of RULES.md, tested."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout

import attrs
import candy_chaser as cc
import pytest
from candy_chaser.__main__ import HELP, describe, main, outcome, render
from hypothesis import given, settings
from hypothesis import strategies as st

from tricky_treats.protocol import (
    InformationSet,
    RandomPlayer,
    SearchPlayer,
    TurnBasedGame,
    play_match,
    simulate,
)

EXAMPLES = settings(max_examples=60, deadline=None)


def marketing(
    roll: int, prices: tuple[int, ...] = (0, 0, 0, 0, 0), players: int = 3
) -> cc.CandyChaserState:
    game = cc.new_game(players, seed=1)
    return attrs.evolve(game, roll=roll, prices=prices, current_player=0)


def tattletale(objectives: tuple[str, ...], first: int = 0) -> cc.CandyChaserState:
    """Player ``first - 1`` has just moved a cube to G."""
    n = len(objectives)
    game = attrs.evolve(
        cc.new_game(n, seed=1), objectives=objectives, prices=(6, 3, 2, 1, 0), roll=None
    )
    order = tuple((first + k) % n for k in range(n))
    return attrs.evolve(
        game, phase=cc.Phase.TATTLETALE, current_player=order[0], to_accuse=order[1:]
    )


def finish(players: int, seed: int) -> cc.CandyChaserState:
    return play_match(cc.new_game(players, seed), [RandomPlayer()] * players, seed)


# -- set-up ("Preparar") ------------------------------------------------------------------------


def test_set_up_cubes_on_zero_one_secret_candy_each_random_first_player() -> None:
    firsts = set()
    for seed in range(30):
        game = cc.new_game(4, seed)
        assert game.prices == (0, 0, 0, 0, 0)
        assert len(set(game.objectives)) == 4  # one Objective card each, the rest unused
        assert game.phase is cc.Phase.MARKETING
        firsts.add(game.current_player)
    assert firsts == {0, 1, 2, 3}  # "Elige al primer jugador al azar"


@pytest.mark.parametrize("players", [1, 5, True, "3"])
def test_two_to_four_players(players: object) -> None:
    with pytest.raises(cc.ConfigurationError, match="2 to 4 players"):
        cc.new_game(players)  # type: ignore[arg-type]


# -- Marketing ([A]) ----------------------------------------------------------------------------


def test_rolls_range_from_minus_two_to_plus_three() -> None:
    rolls = {cc.new_game(2, seed).roll for seed in range(200)}
    assert rolls == set(cc.DIE_FACES) == {-2, -1, 1, 2, 3}


def test_move_any_one_cube_exactly_the_roll() -> None:
    game = marketing(2)
    assert game.legal_actions() == tuple(cc.Move(c) for c in cc.CANDIES)
    after = game.apply(cc.Move("green"))
    assert after.prices == (0, 0, 0, 2, 0)
    assert after.current_player == 1  # clockwise
    assert after.roll in cc.DIE_FACES


def test_a_move_off_the_board_stops_on_the_last_space() -> None:
    assert marketing(-2, (-1, 0, 0, 0, 0)).apply("move red").prices[0] == -2
    assert marketing(3, (3, 0, 0, 0, 0)).apply("move red").prices[0] == 5


def test_a_cube_on_minus_two_or_five_may_be_chosen_and_does_not_move() -> None:
    assert marketing(-1, (-2, 0, 0, 0, 0)).apply("move red").prices[0] == -2
    assert marketing(1, (5, 0, 0, 0, 0)).apply("move red").prices[0] == 5


def test_g_needs_another_cube_on_three_or_more() -> None:
    game = marketing(2, (4, 2, 0, 0, 0))
    assert game.destination("red") == 5  # CC-3
    game = marketing(2, (4, 3, 0, 0, 0))
    assert game.destination("red") == cc.GOAL
    assert marketing(3, (3, 3, 0, 0, 0)).destination("red") == cc.GOAL
    assert marketing(3, (4, 3, 0, 0, 0)).destination("red") == cc.GOAL


def test_reaching_g_starts_tattletale_with_the_movers_left_neighbour() -> None:
    game = attrs.evolve(marketing(2, (4, 3, 0, 0, 0)), current_player=1)
    after = game.apply("move red")
    assert after.phase is cc.Phase.TATTLETALE
    assert after.current_player == 2
    assert after.to_accuse == (0, 1)  # the mover is last
    assert after.roll is None


# -- Tattletale ([B]) ---------------------------------------------------------------------------


def test_accusing_is_optional() -> None:
    game = tattletale(("red", "green", "yellow"))
    assert game.legal_actions()[0] == cc.Pass()
    assert game.apply("pass").current_player == 1


def test_a_right_accusation_eliminates_the_target_and_the_accuser_may_go_on() -> None:
    game = tattletale(("red", "green", "yellow", "purple"))
    after = game.apply("accuse 1 green")
    assert after.alive == (True, False, True, True)
    assert after.current_player == 0
    assert cc.Accuse(1, "red") not in after.legal_actions()  # eliminated players are gone
    assert after.apply("pass").current_player == 2  # or stop [B.4]


def test_a_wrong_accusation_eliminates_the_accuser() -> None:
    game = tattletale(("red", "green", "yellow"))
    after = game.apply("accuse 1 yellow")
    assert after.alive == (False, True, True)
    assert after.current_player == 1


def test_eliminated_players_cannot_accuse() -> None:
    game = tattletale(("red", "green", "yellow"))
    after = game.apply("accuse 1 green").apply("pass")
    assert after.current_player == 2  # player 1 was skipped
    with pytest.raises(cc.IllegalActionError, match="not a player still in the game"):
        after.apply(cc.Accuse(1, "red"))


def test_the_phase_lasts_one_round() -> None:
    game = tattletale(("red", "green", "yellow"))
    after = game.apply("pass").apply("pass").apply("pass")
    assert after.is_over
    assert after.legal_actions() == ()


def test_the_named_candy_is_seen_only_by_accuser_and_target() -> None:
    game = tattletale(("red", "green", "yellow")).apply("accuse 1 yellow")
    assert game.view(0).accusations[0].candy == "yellow"
    assert game.view(1).accusations[0].candy == "yellow"
    assert game.view(2).accusations[0] == cc.Accusation(0, 1, None, False)
    assert game.view(2).objectives == (None, None, "yellow")  # [B.3]


def test_a_lone_survivor_ends_the_game() -> None:
    game = tattletale(("red", "green"))
    after = game.apply("accuse 1 green")
    assert after.is_over
    assert after.winners() == (0,)


# -- end ----------------------------------------------------------------------------------------


def test_the_survivor_with_the_highest_priced_candy_wins() -> None:
    # prices: red G, orange 3, yellow 2, green 1, purple 0
    game = tattletale(("purple", "yellow", "orange"))
    after = game.apply("pass").apply("pass").apply("pass")
    assert after.winners() == (2,)
    assert after.returns() == (0.0, 0.0, 1.0)
    assert after.view(0).objectives == ("purple", "yellow", "orange")  # CC-7


def test_an_eliminated_player_cannot_win_even_with_the_top_candy() -> None:
    game = tattletale(("purple", "yellow", "red"))
    after = game.apply("accuse 2 red").apply("pass").apply("pass")
    assert after.winners() == (1,)
    assert after.view(0).objectives == ("purple", "yellow", None)


def test_tied_survivors_share_the_win() -> None:
    game = attrs.evolve(tattletale(("purple", "yellow")), prices=(6, 3, 2, 1, 2))
    after = game.apply("pass").apply("pass")
    assert after.winners() == (0, 1)
    assert after.returns() == (0.5, 0.5)


# -- notation, errors, records ------------------------------------------------------------------


@pytest.mark.parametrize("action", [cc.Move("red"), cc.Accuse(3, "purple"), cc.Pass()])
def test_notation_round_trips(action: cc.Action) -> None:
    assert cc.parse_action(str(action)) == action
    assert eval(repr(action), vars(cc)) == action


@pytest.mark.parametrize("text", ["", "move", "move blue", "accuse red", "accuse 9 red", "x" * 40])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(cc.InvalidActionError, match="not an action"):
        cc.parse_action(text)


def test_illegal_actions_are_explained_and_change_nothing() -> None:
    game = marketing(2)
    with pytest.raises(cc.IllegalActionError, match=r"Marketing phase.*legal now: move red"):
        game.apply("pass")
    assert game == marketing(2)
    with pytest.raises(cc.IllegalActionError, match="accuse yourself"):
        tattletale(("red", "green")).apply(cc.Accuse(0, "red"))
    with pytest.raises(cc.ConfigurationError, match="no player 3"):
        game.view(3)


def test_records_round_trip_and_refuse_bad_input() -> None:
    final = finish(3, 5)
    data = json.loads(cc.dumps(final))
    assert data["format"] == "candy-chaser"
    assert cc.loads(cc.dumps(final)) == final
    data["config"]["players"] = 9
    with pytest.raises(cc.RecordError, match="does not replay"):
        cc.loads(json.dumps(data))
    data["config"]["players"] = "3"
    with pytest.raises(cc.RecordError, match="malformed"):
        cc.loads(json.dumps(data))


# -- invariants ---------------------------------------------------------------------------------


@EXAMPLES
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 2**32))
def test_invariants_hold_throughout_random_games(players: int, seed: int, play: int) -> None:
    rng = random.Random(play)
    game = cc.new_game(players, seed)
    while True:
        assert len(game.prices) == 5
        assert all(-2 <= p <= 6 for p in game.prices)
        assert (game.prices.count(cc.GOAL) == 1) == (game.phase is not cc.Phase.MARKETING)
        assert sorted(game.objectives) == sorted(set(game.objectives))
        assert any(game.alive)
        for p in range(players):
            assert game.determinize(p, rng).view(p) == game.view(p)  # views leak nothing
        if game.is_over:
            break
        legal = game.legal_actions()
        game = game.apply(legal[rng.randrange(len(legal))])
    assert sum(game.returns()) == pytest.approx(1.0)
    assert cc.loads(cc.dumps(game)) == game  # replay reproduces the game
    assert finish(players, seed) == finish(players, seed)


def test_views_hide_the_other_candies_and_the_seed() -> None:
    game = cc.new_game(3, seed=4)
    other = attrs.evolve(
        game,
        objectives=(game.objectives[0], *reversed(game.objectives[1:])),
        config=cc.Config(3, 77),
    )
    assert other.view(0) == game.view(0)
    assert other.view(1) != game.view(1)


# -- protocol, bots, command line ---------------------------------------------------------------


def test_the_state_satisfies_the_game_protocol() -> None:
    assert isinstance(cc.new_game(2), TurnBasedGame)


def test_search_accuses_when_passing_surely_loses() -> None:
    # Player 0's purple is on -2, below every other candy: passing loses, a guess may win.
    game = attrs.evolve(tattletale(("purple", "green")), prices=(6, 3, 2, 1, -2))
    info = InformationSet(0, game.view(0), game.legal_actions(), state=game)
    choice = SearchPlayer(iterations=200).choose(info, random.Random(0))
    assert isinstance(choice, cc.Accuse)


def test_simulate_plays_seeded_games() -> None:
    summary = simulate(lambda s: cc.new_game(2, s), [RandomPlayer()] * 2, 5)
    assert summary.games == 5
    assert sum(summary.wins) == pytest.approx(5)


def test_command_line_simulates_and_plays() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["simulate", "--games", "3", "--players", "3", "--bots", "random"]) == 0
        assert main(["play", "--watch", "--bot", "random", "--players", "4"]) == 0
    assert out.getvalue().startswith("3 games, ")
    assert "the survivors show their candies" in out.getvalue()


def test_the_terminal_hides_others_accusations() -> None:
    game = tattletale(("red", "green", "yellow"))
    told = describe(game, cc.Accuse(1, "green"), 2)
    assert told == "accuses player 1 (candy hidden): right"
    assert describe(game, cc.Accuse(1, "green"), 1) == "accuses player 1 of dealing green: right"
    assert describe(game, cc.Accuse(1, "green"), 0) == "accuses player 1 of dealing green: right"


def test_oversized_records_are_refused_unread() -> None:
    with pytest.raises(cc.RecordError, match="at most 1000000 characters"):
        cc.loads(" " * 1_000_001)


# -- the console --------------------------------------------------------------------------------


def test_every_roll_is_told_with_the_move() -> None:
    game = marketing(3, prices=(4, 0, 0, 0, 0))
    assert describe(game, cc.Move("orange"), 2) == "rolled +3, moves orange 0 -> 3"
    assert describe(game, cc.Move("red"), 1) == "rolled +3, moves red 4 -> 5"


def test_the_screen_explains_where_each_move_ends_and_the_g_rule() -> None:
    # "Para mover un cubo al espacio G, al menos otro cubo debe tener un valor de 3 o más."
    text = render(marketing(3, prices=(4, 0, 0, 0, 0)).view(0))
    assert "player 0 rolled +3:" in text
    assert "move red: 4 -> 5  (stops on 5: G needs another cube on 3 or more, CC-3)" in text
    assert "move orange: 0 -> 3" in text
    text = render(marketing(2, prices=(4, 3, 0, 0, 0)).view(0))
    assert "move red: 4 -> G  (reaches G: the Tattletale phase begins)" in text


def test_the_tattletale_screen_says_what_an_accusation_costs() -> None:
    text = " ".join(render(tattletale(("red", "green", "yellow")).view(1)).split())
    assert "Right: they are out, and you may accuse again; wrong: you are out." in text
    assert "(CC-4)" in text


def test_the_end_shows_the_survivors_candies_and_why_the_winner_won() -> None:
    # CC-7: the survivors show their Objective cards; eliminated players' stay hidden.
    game = tattletale(("red", "green", "yellow"))
    game = game.apply(cc.Accuse(1, "green")).apply(cc.Pass()).apply(cc.Pass())
    text = outcome(game, 0)
    # Issue 48: the eliminated were listed among "the survivors show their candies".
    assert text.splitlines() == [
        "the survivors show their candies:",
        "  player 0: red at G",
        "  player 2: yellow at 2",
        "eliminated, their candy stays hidden: player 1",
        "player 0 wins: the highest price among the survivors, G",
    ]
    assert "G only while another cube" in HELP

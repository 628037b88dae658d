"""Tricks & Treats' bots: what they infer from the plays, when they accuse, the greedy baseline."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout

import attrs
import pytest
import tricks_and_treats as tnt
from hypothesis import given, settings
from hypothesis import strategies as st
from tricks_and_treats.__main__ import main
from tricks_and_treats.beliefs import actors, beliefs, with_numbers
from tricks_and_treats.bots import GreedyPlayer, SleuthPlayer, feeding_rollout, make_bot

from tricky_treats.protocol import InformationSet, RandomPlayer, SearchPlayer

K = tnt.Card.parse


def info_of(game: tnt.TricksAndTreatsState) -> InformationSet:
    seat = game.current_player
    assert seat is not None
    return InformationSet(seat, game.view(seat), game.legal_actions(), state=game)


def fed(plays: dict[int, list[str]], rounds: int) -> tnt.TricksAndTreatsState:
    """Three players holding numbers 1, 2, 3 after ``rounds`` rounds, player 0 first.

    Each round every player draws and plays the highest card of their hand under the basket
    ``plays[seat][round]``.
    """
    game = attrs.evolve(tnt.new_game(3, seed=1), current_player=0, numbers=(1, 2, 3))
    for r in range(rounds):
        for seat in range(3):
            assert game.current_player == seat
            game = game.apply(tnt.Draw())
            card = max(game.hands[seat], key=lambda c: c.value)
            game = game.apply(tnt.Play(card, tnt.basket_id(plays[seat][r])))
    return game


# -- who played what ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 2**32), st.integers(0, 2))
def test_the_seat_of_every_action_follows_from_the_turn_order(
    players: int, seed: int, play: int, specials: int
) -> None:
    """Whoever the (hidden) first player is, accusations and eliminations included."""
    rng = random.Random(play)
    game = tnt.new_game(players, seed, specials=specials)
    seats: list[int] = []
    while not game.is_over:
        legal = game.legal_actions()
        calm = [a for a in legal if not isinstance(a, tnt.Accuse)]
        pool = legal if not calm or rng.random() < 0.03 else calm
        seat = game.current_player
        assert seat is not None
        seats.append(seat)
        game = game.apply(pool[rng.randrange(len(pool))])
        if not game.is_over:
            for viewer in range(players):
                assert actors(game.view(viewer)) == tuple(seats)


# -- whose basket is whose ----------------------------------------------------------------------


def test_a_basket_its_player_keeps_feeding_is_likely_theirs() -> None:
    # Player 1 put three cards under basket 2 (theirs); player 2 spread theirs.
    game = fed({0: ["1", "1", "1"], 1: ["2", "2", "2"], 2: ["4", "5", "1"]}, 3)
    guesses = beliefs(game.view(0))
    assert sum(guesses.weights) == pytest.approx(1.0)
    odds = guesses.odds(1)
    assert max(odds, key=odds.__getitem__) == 2
    assert odds[2] > 0.8
    assert max(guesses.odds(2).values()) < 0.5  # no basket stands out for player 2
    assert set(guesses.odds(0)) == {1}  # player 0 knows their own number


def test_a_fresh_game_suspects_nobody() -> None:
    game = tnt.new_game(3, seed=6)
    seat = game.current_player
    assert seat is not None
    guesses = beliefs(game.view(seat))
    for other in range(3):
        if other != seat:
            # any number but the viewer's own, alike
            assert guesses.odds(other) == pytest.approx(dict.fromkeys(guesses.odds(other), 0.25))


def test_beliefs_keep_to_what_is_certain() -> None:
    game = attrs.evolve(
        tnt.new_game(4, seed=3),
        current_player=0,
        numbers=(1, 2, 4, 6),
        removed_numbers=(3, 5),
        alive=(True, True, False, False),
        captured=((), (4, 6), (), ()),
        accusations=(tnt.Accusation(2, 1, 3, False), tnt.Accusation(3, 1, 5, False)),
    )
    guesses = beliefs(game.view(0))
    assert guesses.odds(1) == {2: pytest.approx(1.0)}  # proved: the only number left


def test_sampled_states_draw_the_numbers_by_the_odds() -> None:
    game = fed({0: ["1", "1", "1"], 1: ["2", "2", "2"], 2: ["4", "5", "1"]}, 3)
    guesses = beliefs(game.view(0))
    rng = random.Random(3)
    draws = [with_numbers(game.determinize(0, rng), guesses, rng) for _ in range(400)]
    assert all(d.view(0) == game.view(0) for d in draws)  # the player cannot tell them apart
    share = sum(d.numbers[1] == 2 for d in draws) / len(draws)
    assert share == pytest.approx(guesses.odds(1)[2], abs=0.06)


# -- the search bot accuses when it pays --------------------------------------------------------


def test_the_sleuth_accuses_the_owner_of_the_basket_they_keep_feeding() -> None:
    game = fed({0: ["1", "1", "1"], 1: ["2", "2", "2"], 2: ["3", "3", "3"]}, 3)
    choice = SleuthPlayer(iterations=200).choose(info_of(game), random.Random(0))
    assert choice in (tnt.Accuse(1, 2), tnt.Accuse(2, 3))
    # The previous search bot would not: it accuses only when sure.
    informed = make_bot("informed:200")
    assert informed.choose(info_of(game), random.Random(0)) == tnt.Draw()


def test_the_sleuth_does_not_accuse_on_no_evidence() -> None:
    game = tnt.new_game(3, seed=6)
    assert SleuthPlayer(iterations=200).choose(info_of(game), random.Random(0)) == tnt.Draw()


def test_the_sleuth_accuses_a_proved_owner() -> None:
    game = attrs.evolve(
        tnt.new_game(4, seed=3),
        current_player=0,
        numbers=(1, 2, 4, 6),
        removed_numbers=(3, 5),
        alive=(True, True, False, False),
        captured=((), (4, 6), (), ()),
        accusations=(tnt.Accusation(2, 1, 3, False), tnt.Accusation(3, 1, 5, False)),
    )
    # Player 1 can only hold 2: accusing wins at once, so there is nothing to search.
    assert SleuthPlayer(iterations=60).choose(info_of(game), random.Random(0)) == tnt.Accuse(1, 2)


def test_feeding_playouts_mostly_feed_the_players_own_basket() -> None:
    game = attrs.evolve(
        tnt.new_game(3, seed=1),
        current_player=0,
        numbers=(1, 2, 3),
        step=tnt.Step.PLAY,
        hands=((K("M1"), K("K4"), K("G2")), (), ()),
    )
    rng = random.Random(0)
    plays = [feeding_rollout(game, rng) for _ in range(400)]
    assert all(p in game.legal_actions() for p in plays)
    fed_share = plays.count(tnt.Play(K("K4"), 1)) / len(plays)
    assert 0.7 < fed_share < 0.9  # FEED_RATE, and a few random plays that happen to match


# -- the greedy baseline, and the names ---------------------------------------------------------


def test_greedy_plays_its_highest_card_under_its_own_basket_and_never_accuses() -> None:
    proved = attrs.evolve(
        tnt.new_game(4, seed=3),
        current_player=0,
        numbers=(1, 2, 4, 6),
        removed_numbers=(3, 5),
        alive=(True, True, False, False),
        captured=((), (4, 6), (), ()),
        accusations=(tnt.Accusation(2, 1, 3, False), tnt.Accusation(3, 1, 5, False)),
    )
    greedy = GreedyPlayer()
    assert greedy.choose(info_of(proved), random.Random(0)) == tnt.Draw()  # a sure win ignored
    playing = attrs.evolve(
        proved, step=tnt.Step.PLAY, hands=((K("M1"), K("K4"), K("G2")), *proved.hands[1:])
    )
    assert greedy.choose(info_of(playing), random.Random(0)) == tnt.Play(K("K4"), 1)


def test_greedy_with_a_special_basket_looks_one_action_ahead() -> None:
    game = tnt.new_game(3, seed=2, specials=["magnet"])
    game = attrs.evolve(game, current_player=0, numbers=(1, 2, 3), step=tnt.Step.PLAY)
    i = game.row.index(4)
    game = attrs.evolve(
        game,
        hands=((K("M1"),), *game.hands[1:]),
        piles=tuple((K("C4"),) if j == i else p for j, p in enumerate(game.piles)),
    )
    greedy = GreedyPlayer()
    assert greedy.choose(info_of(game), random.Random(0)) == tnt.Play(K("M1"), 1)
    # Made to choose for the magnet, it moves the C4 under its own basket.
    pulling = game.apply(tnt.Play(K("M1"), tnt.basket_id("magnet")))
    assert pulling.step is tnt.Step.EFFECT
    assert greedy.choose(info_of(pulling), random.Random(0)) == tnt.Pull(4, 1)


def test_bots_by_name() -> None:
    assert make_bot("greedy") == GreedyPlayer()
    assert make_bot("search") == SleuthPlayer()
    assert make_bot("search:30") == SleuthPlayer(iterations=30)
    assert make_bot("random") == RandomPlayer()
    assert isinstance(make_bot("informed:5"), SearchPlayer)
    for bad in ("greedy:3", "search:0", "search:x", "sleuth", "search:1000001"):
        with pytest.raises(tnt.ConfigurationError, match="choose random, greedy, search"):
            make_bot(bad)


def test_the_command_line_seats_greedy_and_search_bots() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            main(
                ["simulate", "--games", "2", "--players", "3", "--bots", "search:10,greedy,greedy"]
            )
            == 0
        )
    assert out.getvalue().startswith("2 games, ")
    with pytest.raises(SystemExit) as stopped, redirect_stdout(io.StringIO()):
        main(["simulate", "--games", "2", "--bots", "clever"])
    assert stopped.value.code == 2  # a usage error naming the bots, not a traceback

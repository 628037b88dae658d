"""Candy Chaser's bots: what they infer from the moves, when they accuse, the greedy baseline."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout

import attrs
import candy_chaser as cc
import pytest
from candy_chaser.__main__ import main
from candy_chaser.bots import (
    Bet,
    GreedyPlayer,
    HiderPlayer,
    Imagined,
    SleuthPlayer,
    beliefs,
    decoy,
    greedy_move,
    imagine,
    make_bot,
    movers,
    pushing_rollout,
    sample,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from tricky_treats.protocol import (
    Agent,
    InformationSet,
    RandomPlayer,
    SearchPlayer,
    play_match,
)


def info_of(game: cc.CandyChaserState) -> InformationSet:
    seat = game.current_player
    assert seat is not None
    return InformationSet(seat, game.view(seat), game.legal_actions(), state=game)


def accusing(
    objectives: tuple[str, ...], prices: tuple[int, ...], moved: list[str]
) -> cc.CandyChaserState:
    """Three players in the Tattletale phase after the moves of the cubes ``moved``.

    Player 0 moved first, so move ``k`` is seat ``k % 3``'s; the last reached G, so the
    player after its mover accuses first and the mover last.
    """
    turn = len(moved)
    mover = (turn - 1) % 3
    order = tuple((mover + k) % 3 for k in range(1, 4))
    return attrs.evolve(
        cc.new_game(3, seed=1),
        objectives=objectives,
        prices=prices,
        phase=cc.Phase.TATTLETALE,
        roll=None,
        turn=turn,
        current_player=order[0],
        to_accuse=order[1:],
        history=tuple(cc.Move(c) for c in moved),
    )


# -- who moved what -----------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 2**32))
def test_the_seat_of_every_move_follows_from_the_turn_order(
    players: int, seed: int, play: int
) -> None:
    """Whoever the (hidden) first player is, in both phases."""
    rng = random.Random(play)
    game = cc.new_game(players, seed)
    seats: list[int] = []
    while not game.is_over:
        legal = game.legal_actions()
        if game.phase is cc.Phase.MARKETING:
            assert game.current_player is not None
            seats.append(game.current_player)
        game = game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            for viewer in range(players):
                assert movers(game.view(viewer)) == tuple(seats)


# -- who deals what -----------------------------------------------------------------------------


def test_a_cube_its_player_keeps_moving_is_likely_their_candy() -> None:
    # Player 1 moved green three times; player 2 moved three different cubes.
    game = accusing(
        ("purple", "green", "red"),
        (6, 0, 0, 5, -2),
        ["purple", "green", "orange", "purple", "green", "yellow", "purple", "green", "red"],
    )
    guesses = beliefs(game.view(0))
    assert sum(guesses.weights) == pytest.approx(1.0)
    odds = guesses.odds(1)
    assert max(odds, key=odds.__getitem__) == "green"
    assert odds["green"] > 0.6
    assert max(guesses.odds(2).values()) < 0.4  # nothing stands out for player 2
    assert set(guesses.odds(0)) == {"purple"}  # player 0 knows their own candy


def test_one_move_is_a_hint_and_a_habit_strong_but_no_proof() -> None:
    odds = []
    for rounds in (1, 2, 3, 4, 6):
        moved = ["purple", "green", "orange"] * (rounds - 1) + ["purple", "green", "red"]
        game = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), moved)
        odds.append(beliefs(game.view(0)).odds(1)["green"])
    assert odds == sorted(odds)
    assert odds[0] < 0.6
    assert odds[3] > 0.75
    # A hider pushes a decoy just so (HIDERS): however long the habit, it proves nothing.
    assert odds[4] < 0.9


def test_beliefs_keep_to_what_accusations_showed() -> None:
    game = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), ["red", "green", "red"])
    wrong = game.apply(cc.Accuse(1, "orange"))  # player 0 is out, and saw orange is not 1's
    assert "orange" not in beliefs(wrong.view(0)).odds(1)
    assert "orange" in beliefs(wrong.view(2)).odds(1)  # player 2 only heard "wrong"
    right = game.apply(cc.Accuse(2, "red"))
    assert right.current_player == 0  # right: player 0 may accuse again
    assert beliefs(right.view(0)).odds(2) == {"red": pytest.approx(1.0)}
    # Player 1 did not see the candy named, only that the accusation was right.
    assert len(beliefs(right.view(1)).odds(2)) == 4


def test_sampled_states_draw_the_candies_by_the_odds() -> None:
    moved = ["purple", "green", "orange", "purple", "green", "yellow", "purple", "green", "red"]
    game = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), moved)
    view = game.view(0)
    guesses = beliefs(view)
    rng = random.Random(2)
    draws = [sample(view, guesses, rng) for _ in range(400)]
    assert all(d.view(0) == view for d in draws)  # the player cannot tell them apart
    share = sum(d.objectives[1] == "green" for d in draws) / len(draws)
    assert share == pytest.approx(guesses.odds(1)["green"], abs=0.06)


# -- the search bot accuses when it pays --------------------------------------------------------


def test_the_sleuth_accuses_the_dealer_of_a_dearer_candy_it_has_seen_pushed() -> None:
    # Player 0's purple is on -2; red (on G) and green (on 5) were pushed by players 2 and 1.
    moved = ["purple", "green", "red", "purple", "green", "red", "purple", "green", "red"]
    game = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), moved)
    choice = SleuthPlayer(iterations=200).choose(info_of(game), random.Random(0))
    assert choice in (cc.Accuse(2, "red"), cc.Accuse(1, "green"))
    # The previous search bot guesses among every candy: here, a wrong one.
    blind = [make_bot("blind:200").choose(info_of(game), random.Random(s)) for s in range(5)]
    assert any(a not in (cc.Accuse(2, "red"), cc.Accuse(1, "green")) for a in blind)


def test_the_sleuth_passes_when_its_own_candy_is_the_dearest() -> None:
    moved = ["red", "green", "purple", "red", "green", "purple", "red", "green", "purple"]
    game = accusing(("red", "green", "purple"), (6, 0, 0, 3, 5), moved)
    assert SleuthPlayer(iterations=200).choose(info_of(game), random.Random(0)) == cc.Pass()


def test_a_candy_a_player_never_moved_is_less_likely_theirs() -> None:
    # Player 0 (red, on 4) pushed yellow to G itself; players 1 and 2 moved green and orange.
    moved = ["yellow", "green", "orange", "yellow", "green", "orange"]
    game = accusing(("red", "green", "orange"), (4, 0, 6, 0, 0), moved)
    guesses = beliefs(game.view(0))
    for seat in (1, 2):
        assert guesses.odds(seat)["yellow"] < 0.25  # below the odds of no moves at all
        assert guesses.odds(seat)["yellow"] > 0.1  # but a hider's own candy is one of them
    assert SleuthPlayer().choose(info_of(game), random.Random(0)) == cc.Pass()


def test_the_sleuth_declines_a_losing_bet() -> None:
    # In the same game player 1 likely deals green: right, player 0 wins 85% of the time
    # (yellow on G may be player 2's); wrong, it is out. Passing wins 72%: it passes.
    moved = ["yellow", "green", "orange", "yellow", "green", "orange"]
    game = accusing(("red", "green", "orange"), (4, 0, 6, 0, 0), moved)
    bets = {bet.accusation: bet for bet in SleuthPlayer().bets(game.view(0))}
    bet = bets[cc.Accuse(1, "green")]
    assert bet.chance > 0.6
    assert bet.if_right > bet.if_waiting > bet.chance * bet.if_right
    assert not any(b.pays for b in bets.values())


def test_the_sleuth_takes_a_bet_that_pays() -> None:
    # Player 2 pushed yellow (on G) twice: passing wins only if yellow is nobody's (27%).
    moved = ["red", "green", "yellow", "red", "orange", "yellow"]
    game = accusing(("red", "green", "orange"), (4, 0, 6, 0, 0), moved)
    bet = max(SleuthPlayer().bets(game.view(0)), key=lambda b: b.gain)
    assert bet.accusation == cc.Accuse(2, "yellow")
    assert bet.if_right == pytest.approx(1.0)  # nobody else can hold yellow then
    assert bet.chance > bet.if_waiting
    assert SleuthPlayer().choose(info_of(game), random.Random(0)) == cc.Accuse(2, "yellow")


def test_a_right_accusation_is_worth_the_accusations_it_opens() -> None:
    # Player 0's red is on 2, below green (5) and yellow (G), pushed by players 1 and 2.
    moved = ["red", "green", "yellow"] * 3
    game = accusing(("red", "green", "yellow"), (2, 0, 6, 5, 0), moved)
    bets = {bet.accusation: bet for bet in SleuthPlayer().bets(game.view(0))}
    first = bets[cc.Accuse(1, "green")]
    # Right, player 1 is out and yellow's dealer still wins if player 0 stops; so the bet is
    # worth accusing again, player 2 of yellow, as likely right as the first.
    assert first.if_right == pytest.approx(first.chance, abs=0.05)
    assert first.if_waiting < 0.05
    assert first.pays


def test_a_bet_is_worth_its_chance_of_the_win_when_right_and_nothing_when_wrong() -> None:
    bet = Bet(cc.Accuse(1, "red"), chance=0.5, if_right=0.9, if_waiting=0.4)
    assert bet.gain == pytest.approx(0.05)  # 0.5 * 0.9 + 0.5 * 0 (out), against 0.4
    assert bet.pays
    assert not attrs.evolve(bet, if_waiting=0.45).pays
    # Exact: with every candy known, a bet is right or wrong for sure.
    moved = ["red", "green", "yellow"] * 3
    game = accusing(("red", "green", "yellow"), (2, 0, 6, 5, 0), moved)
    right = game.apply(cc.Accuse(1, "green")).apply(cc.Accuse(2, "yellow"))
    assert right.is_over
    assert right.winners() == (0,)


def test_pushing_playouts_mostly_move_as_greedy_does_and_never_accuse() -> None:
    game = attrs.evolve(cc.new_game(3, seed=1), current_player=0, roll=2)
    own = game.objectives[0]
    rng = random.Random(0)
    moves = [pushing_rollout(game, rng) for _ in range(400)]
    share = moves.count(cc.Move(own)) / len(moves)
    assert 0.75 < share < 0.85  # PUSH_RATE, and random moves that happen to match
    tattle = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), ["red", "green", "red"])
    assert pushing_rollout(tattle, rng) == cc.Pass()


# -- the greedy baseline, and the names ---------------------------------------------------------


def test_greedy_pushes_its_own_candy_and_lowers_the_dearest_other() -> None:
    def at(**changes: object) -> cc.CandyChaserState:
        base = attrs.evolve(cc.new_game(3, seed=1), current_player=0)
        return attrs.evolve(base, objectives=("green", "red", "orange"), **changes)  # type: ignore[arg-type]

    greedy = GreedyPlayer()
    assert greedy.choose(info_of(at(roll=2)), random.Random(0)) == cc.Move("green")
    down = at(roll=-1, prices=(4, 1, 0, 2, 3))
    assert greedy.choose(info_of(down), random.Random(0)) == cc.Move("red")
    # Its own cube on 5, no other on 3 or more: it cannot rise, so the cheapest other does.
    stuck = at(roll=3, prices=(1, -1, 0, 5, 2))
    assert greedy.choose(info_of(stuck), random.Random(0)) == cc.Move("orange")
    assert greedy_move((0,) * 5, "red", 1, lambda c: 1) == cc.Move("red")


def test_greedy_never_accuses() -> None:
    game = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), ["red", "green", "red"])
    assert GreedyPlayer().choose(info_of(game), random.Random(0)) == cc.Pass()


def test_the_hider_pushes_a_decoy_never_its_own_candy_and_never_accuses() -> None:
    hider = HiderPlayer()
    base = attrs.evolve(cc.new_game(3, seed=1), current_player=0)
    game = attrs.evolve(base, objectives=("green", "red", "orange"), roll=2)
    fake = decoy(game.view(0))
    assert fake != "green"
    assert hider.choose(info_of(game), random.Random(0)) == cc.Move(fake)
    falling = attrs.evolve(game, roll=-1, prices=(4, 1, 0, 5, 3))
    down = hider.choose(info_of(falling), random.Random(0))
    assert down not in (cc.Move("green"), cc.Move(fake))  # the dearest of the others
    tattle = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), ["red", "green", "red"])
    assert hider.choose(info_of(tattle), random.Random(0)) == cc.Pass()
    moves: list[tuple[int, str]] = []

    def record(state: cc.CandyChaserState, action: object) -> None:
        if isinstance(action, cc.Move):
            assert state.current_player is not None
            moves.append((state.current_player, action.candy))

    final = play_match(cc.new_game(3, seed=4), [HiderPlayer()] * 3, seed=4, on_action=record)
    assert not final.accusations
    assert len(moves) > 6
    assert all(candy != final.objectives[seat] for seat, candy in moves)


def test_imagined_players_push_the_candy_they_favour() -> None:
    moved = ["yellow", "green", "orange", "yellow", "green", "orange"]
    game = attrs.evolve(cc.new_game(3, seed=1), current_player=0, roll=2, turn=6)
    game = attrs.evolve(
        game, objectives=("red", "green", "orange"), history=tuple(cc.Move(c) for c in moved)
    )
    view = game.view(0)
    guesses = beliefs(view)
    rng = random.Random(5)
    worlds = [imagine(view, guesses, rng) for _ in range(300)]
    assert all(w.view(0) == view for w in worlds)
    assert all(w.favourites[0] == "red" for w in worlds)
    assert sum(w.favourites[1] == "green" for w in worlds) / len(worlds) > 0.6
    hiding = [w for w in worlds if w.favourites[1] == "green" != w.objectives[1]]
    assert hiding  # some worlds have player 1 push green as a decoy
    world = attrs.evolve(hiding[0], current_player=1)
    assert isinstance(world, Imagined)
    pushes = [pushing_rollout(world, rng) for _ in range(400)]
    assert pushes.count(cc.Move("green")) / len(pushes) > 0.75  # PUSH_RATE, for the decoy
    after = world.apply(cc.Move("green"))
    assert isinstance(after, Imagined)
    assert after.favourites == world.favourites


def test_the_sleuth_plays_the_same_game_from_the_same_seed() -> None:
    bots: list[Agent] = [SleuthPlayer(iterations=20), GreedyPlayer(), HiderPlayer(), GreedyPlayer()]
    games = [play_match(cc.new_game(4, seed=7), bots, 7) for _ in range(2)]
    assert games[0] == games[1]
    assert games[0].history == games[1].history


def test_the_sleuths_habits_are_chances() -> None:
    game = accusing(("purple", "green", "red"), (6, 0, 0, 5, -2), ["red", "green", "red"])
    for pushers, hiders in ((0.7, 0.4), (-0.1, 0.5), (0.5, 1.2)):
        with pytest.raises(cc.ConfigurationError, match="from 0 to 1, together at most 1"):
            SleuthPlayer(pushers=pushers, hiders=hiders).choose(info_of(game), random.Random(0))


def test_bots_by_name() -> None:
    assert make_bot("greedy") == GreedyPlayer()
    assert make_bot("hider") == HiderPlayer()
    assert make_bot("search") == SleuthPlayer()
    assert make_bot("search:30") == SleuthPlayer(iterations=30)
    assert make_bot("random") == RandomPlayer()
    assert make_bot("blind:7") == SearchPlayer(iterations=7)
    for bad in ("greedy:3", "hider:1", "search:0", "search:x", "sleuth"):
        with pytest.raises(cc.ConfigurationError, match="choose random, greedy, hider, search"):
            make_bot(bad)


def test_the_command_line_seats_greedy_and_search_bots() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            main(
                [
                    "simulate",
                    "--games",
                    "2",
                    "--players",
                    "4",
                    "--bots",
                    "search:10,greedy,greedy,greedy",
                ]
            )
            == 0
        )
    assert out.getvalue().startswith("2 games, ")
    with pytest.raises(SystemExit) as stopped, redirect_stdout(io.StringIO()):
        main(["play", "--watch", "--bot", "clever"])
    assert stopped.value.code == 2  # a usage error naming the bots, not a traceback

"""Hack Trick: every rule sentence of hack-trick-nl.txt and every ruling of RULES.md, tested."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path

import attrs
import hack_trick as ht
import pytest
from hack_trick.__main__ import HELP, RULES_WHEN_THEY_MATTER, describe, main, outcome, render
from hack_trick.bots import GreedyPlayer, hand_end_estimate, make_bot
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

EXAMPLES = settings(max_examples=40, deadline=None)


def board(**squares: tuple[int, tuple[bool, ...]]) -> tuple[ht.Square, ...]:
    """A board from ``s4=(owner, stack)`` keywords."""
    cells = [ht.Square()] * 9
    for name, (owner, stack) in squares.items():
        cells[int(name[1:]) - 1] = ht.Square(owner, stack)
    return tuple(cells)


def turn(p: int = 0, asking: str = "turn", **fields: object) -> ht.HackTrickState:
    """A hand in progress, player ``p`` to move, with ``fields`` replaced.

    Asking by turn (HT-3's other reading) unless ``asking`` says otherwise: a marker captured
    this hand pays for asking, which the tests of the other rules set up that way.
    """
    state = ht.new_match(seed=1, asking=asking)
    state = state.apply(state.legal_actions()[0])
    base: dict[str, object] = {"current_player": p, "step": ht.Step.MAIN}
    base.update(fields)
    return attrs.evolve(state, **base)  # type: ignore[arg-type]


def finish(seed: int) -> ht.HackTrickState:
    return play_match(ht.new_match(seed=seed), [RandomPlayer()] * 2, seed)


# -- set-up ("Begin van het spel") --------------------------------------------------------------


def test_deal_sets_two_aside_gives_four_and_three_and_leaves_nine() -> None:
    match = ht.new_match(seed=5)
    assert match.dealer == 0
    assert len(match.set_aside) == 2
    assert len(match.hands[1]) == 4
    assert len(match.hands[0]) == 3
    assert len(match.deck) == 9
    assert Counter(match.deck + match.set_aside + match.hands[0] + match.hands[1]) == Counter(
        ht.CARDS
    )


def test_four_card_player_lays_the_start_card_without_a_marker_and_sums_are_announced() -> None:
    match = ht.new_match(seed=5)
    assert match.current_player == 1
    assert match.step is ht.Step.START
    card = match.hands[1][0]
    after = match.apply(ht.Start(card))
    assert after.row == (card,)
    assert all(square.owner is None for square in after.board)
    assert {(r.player, r.hand_sum) for r in after.reveals} == {
        (0, sum(after.hands[0])),
        (1, sum(after.hands[1])),
    }
    assert len(after.hands[1]) == 3
    assert after.current_player == 0  # HT-2: the three-card player moves first


def test_the_starting_player_alternates_between_hands() -> None:
    match = turn(0, row=(3,), hands=((1, 2, 4), (0, 0, 5)), board=board(s5=(0, (False, False))))
    won = match.apply(ht.Play(2))  # 2 + 3 = square 5, a third marker there
    assert won.hand_number == 1
    assert won.dealer == 1
    assert won.current_player == 0
    assert len(won.hands[0]) == 4


# -- playing a card ([2.B]) ---------------------------------------------------------------------


def test_card_plus_previous_card_names_the_square() -> None:
    state = turn(0, row=(3,), hands=((0, 1, 5), (2, 2, 2)))
    after = state.apply(ht.Play(1))
    assert after.board[3] == ht.Square(0, (False,))  # 3 + 1 = square 4
    assert after.row == (3, 1)
    assert after.hands[0] == (0, 5)
    after = attrs.evolve(after, current_player=0, step=ht.Step.MAIN).apply(ht.Play(0))
    assert after.board[0] == ht.Square(0, (False,))  # 1 + 0 = square 1


def test_the_card_may_not_repeat_the_last_card() -> None:
    state = turn(0, row=(3,), hands=((3, 3, 1), (2, 2, 2)))
    assert ht.Play(3) not in state.legal_actions()
    with pytest.raises(ht.IllegalActionError, match=r"may not equal the last card, 3"):
        state.apply(ht.Play(3))


def test_a_played_card_places_a_single_or_the_double_marker() -> None:
    state = turn(0, row=(3,), hands=((1, 4, 4), (2, 2, 2)))
    assert {ht.Play(1), ht.Play(1, double=True)} <= set(state.legal_actions())
    after = state.apply(ht.Play(1, double=True))
    assert after.board[3].stack == (True,)
    assert after.doubles == (False, True)
    assert after.singles == (9, 9)


def test_opponent_markers_on_the_square_go_to_your_supply() -> None:
    state = turn(0, row=(3,), hands=((1, 4, 4), (2, 2, 2)), board=board(s4=(1, (False, True))))
    after = state.apply(ht.Play(1))
    assert after.board[3] == ht.Square(0, (False,))
    assert after.captured[0] == (1, 1)


def test_own_markers_stack() -> None:
    state = turn(0, row=(3,), hands=((1, 4, 4), (2, 2, 2)), board=board(s4=(0, (False,))))
    assert state.apply(ht.Play(1)).board[3] == ht.Square(0, (False, False))


# -- drawing ([2.A], "Let op") ------------------------------------------------------------------


def test_draw_takes_the_top_card_and_ends_the_turn() -> None:
    state = turn(0, row=(3,), hands=((1,), (2, 2, 2)), deck=(5, 0))
    after = state.apply(ht.Draw())
    assert after.hands[0] == (1, 5)
    assert after.deck == (0,)
    assert after.current_player == 1


def test_hand_limit_is_four_so_four_cards_must_play() -> None:
    state = turn(0, row=(3,), hands=((0, 1, 2, 4), (2, 2, 2)))
    assert ht.Draw() not in state.legal_actions()
    with pytest.raises(ht.IllegalActionError, match="hand limit is 4"):
        state.apply(ht.Draw())


def test_no_cards_means_draw() -> None:
    state = turn(0, row=(3,), hands=((), (2, 2, 2)))
    assert state.legal_actions() == (ht.Draw(),)


def test_an_empty_deck_is_the_played_cards_but_the_last_reshuffled() -> None:
    state = turn(0, row=(0, 1, 2, 3), hands=((4,), (2, 2, 2)), deck=())
    after = state.apply(ht.Draw())
    assert after.row == (3,)
    assert len(after.deck) == 2
    assert Counter(after.deck + after.hands[0]) == Counter((0, 1, 2, 4))


def test_four_cards_and_no_marker_loses_the_hand() -> None:
    state = turn(
        1, row=(3,), hands=((0, 0, 0), (1, 1, 2, 2)), singles=(9, 0), doubles=(True, False)
    )
    after = attrs.evolve(state, current_player=0, step=ht.Step.END).apply(ht.Pass())
    assert after.results[-1] == ht.HandResult(0, 1, "no marker")
    assert after.scores == (1, 0)


# -- asking ([1]) -------------------------------------------------------------------------------


def test_ask_pays_a_captured_marker_and_reveals_the_opponents_sum() -> None:
    state = turn(0, row=(3,), hands=((1,), (2, 4, 5)), captured=((2, 0), (0, 0)))
    assert state.legal_actions()[0] == ht.Ask()
    after = state.apply(ht.Ask())
    assert after.reveals[-1] == ht.Reveal(1, "ask", 11)
    assert after.captured[0] == (1, 0)
    assert after.spent[1] == (1, 0)
    assert ht.Ask() not in after.legal_actions()  # once a turn
    assert after.current_player == 0


def test_no_ask_without_a_captured_marker() -> None:
    state = turn(0, row=(3,), hands=((1,), (2, 4, 5)))
    assert ht.Ask() not in state.legal_actions()
    with pytest.raises(ht.IllegalActionError, match="captured marker"):
        state.apply(ht.Ask())


# -- end of turn: Play! and Block ([3]) ---------------------------------------------------------


def test_force_and_guard_follow_only_a_played_card() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (2, 2, 5)), deck=(0, 0, 0))
    assert not {ht.Force(), ht.Guard(), ht.Pass()} & set(state.legal_actions())
    after = state.apply(ht.Play(1))
    assert after.legal_actions() == (ht.Pass(), ht.Force(), ht.Guard())
    assert state.apply(ht.Draw()).current_player == 1  # a draw ends the turn


def test_force_costs_a_marker_and_the_opponent_must_play() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (2, 2, 5)), deck=(0, 0, 0))
    after = state.apply(ht.Play(1)).apply(ht.Force())
    assert after.singles[0] == 7
    assert after.spent[0] == (1, 0)
    assert after.current_player == 1
    assert after.forced == (False, True)
    assert ht.Draw() not in after.legal_actions()
    assert after.legal_actions()[0] == ht.Play(2)
    with pytest.raises(ht.IllegalActionError, match=r"called Play!"):
        after.apply(ht.Draw())
    done = after.apply(ht.Play(2)).apply(ht.Pass())
    assert done.forced == (False, False)


def test_forced_but_holding_only_the_last_number_shows_the_hand_and_draws() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (1, 1)), deck=(0, 0, 0))
    after = state.apply(ht.Play(1)).apply(ht.Force())
    assert after.reveals[-1] == ht.Reveal(1, "show", 2, (1, 1))
    assert after.legal_actions() == (ht.Draw(),)


def test_forced_without_markers_loses_the_hand() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (2, 5)), singles=(9, 0), doubles=(True, False))
    after = state.apply(ht.Play(1)).apply(ht.Force())
    assert after.results[-1] == ht.HandResult(0, 1, "no marker")


def test_guard_stops_the_opponent_forcing_next_turn() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (2, 2, 5)), deck=(0, 0, 0))
    after = state.apply(ht.Play(1)).apply(ht.Guard())
    assert after.guarded == (False, True)
    their_end = after.apply(ht.Play(2))
    assert their_end.legal_actions() == (ht.Pass(), ht.Guard())
    with pytest.raises(ht.IllegalActionError, match="guarded"):
        their_end.apply(ht.Force())
    assert their_end.apply(ht.Pass()).guarded == (False, False)


def test_no_marker_to_spend_means_pass() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (2, 5)), singles=(1, 9), doubles=(False, True))
    assert state.apply(ht.Play(1)).legal_actions() == (ht.Pass(),)


# -- winning a hand ("Einde van het spel") ------------------------------------------------------


def test_three_markers_on_one_square_win() -> None:
    state = turn(0, row=(3,), hands=((2, 4), (0,)), board=board(s5=(0, (False, False))))
    after = state.apply(ht.Play(2))
    assert after.results == (ht.HandResult(0, 1, "triple", (5,)),)


def test_three_in_a_line_win() -> None:
    # 8 1 6 is the top row of the magic square; 5 + 1 marks square 6.
    state = turn(0, row=(5,), hands=((1, 4), (0,)), board=board(s8=(0, (False,)), s1=(0, (False,))))
    assert state.apply(ht.Play(1)).results == (ht.HandResult(0, 1, "line", (8, 1, 6)),)


def test_a_line_with_the_opponents_square_is_no_win() -> None:
    state = turn(0, row=(5,), hands=((1, 4), (0,)), board=board(s8=(0, (False,)), s1=(1, (False,))))
    assert state.apply(ht.Play(1)).results == ()


def test_the_double_marker_in_the_winning_line_scores_two() -> None:
    state = turn(0, row=(5,), hands=((1, 4), (0,)), board=board(s8=(0, (True,)), s1=(0, (False,))))
    assert state.apply(ht.Play(1)).results == (ht.HandResult(0, 2, "line", (8, 1, 6)),)


def test_the_double_marker_played_last_scores_one() -> None:
    state = turn(0, row=(5,), hands=((1, 4), (0,)), board=board(s8=(0, (False,)), s1=(0, (False,))))
    assert state.apply(ht.Play(1, double=True)).results == (ht.HandResult(0, 1, "line", (8, 1, 6)),)


def test_the_double_marker_elsewhere_on_the_board_scores_one() -> None:
    state = turn(
        0,
        row=(5,),
        hands=((1, 4), (0,)),
        board=board(s8=(0, (False,)), s1=(0, (False,)), s9=(0, (True,))),
    )
    assert state.apply(ht.Play(1)).results == (ht.HandResult(0, 1, "line", (8, 1, 6)),)


def test_the_double_marker_under_a_triple_scores_two() -> None:
    state = turn(0, row=(3,), hands=((2, 4), (0,)), board=board(s5=(0, (True, False))))
    assert state.apply(ht.Play(2)).results == (ht.HandResult(0, 2, "triple", (5,)),)


def test_the_first_to_five_points_wins_the_match() -> None:
    state = turn(
        0, row=(3,), hands=((2, 4), (0,)), board=board(s5=(0, (False, False))), scores=(4, 4)
    )
    after = state.apply(ht.Play(2))
    assert after.is_over
    assert after.winner() == 0
    assert after.returns() == (1.0, 0.0)
    assert after.legal_actions() == ()
    assert after.current_player is None


def test_the_target_is_configurable() -> None:
    assert ht.new_match(target=3).config.target == 3
    with pytest.raises(ht.ConfigurationError, match="target"):
        ht.new_match(target=0)


# -- notation, errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        ht.Start(0),
        ht.Ask(),
        ht.Draw(),
        ht.Play(5),
        ht.Play(0, True),
        ht.Pass(),
        ht.Force(),
        ht.Guard(),
    ],
)
def test_notation_round_trips(action: ht.Action) -> None:
    assert ht.parse_action(str(action)) == action
    assert eval(repr(action), vars(ht)) == action


@pytest.mark.parametrize("text", ["", "play", "play 6", "play -1", "jump 3", "start 3x", "x" * 50])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(ht.InvalidActionError, match="not an action"):
        ht.parse_action(text)


def test_an_illegal_action_names_the_legal_ones_and_changes_nothing() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (2, 2, 5)))
    before = attrs.asdict(state)
    with pytest.raises(ht.IllegalActionError, match=r"you hold no 5.*legal now: draw"):
        state.apply(ht.Play(5))
    assert attrs.asdict(state) == before
    assert isinstance(ht.IllegalActionError("x"), ht.HackTrickError)


def test_views_refuse_unknown_players() -> None:
    with pytest.raises(ht.ConfigurationError, match="no player 2"):
        ht.new_match().view(2)
    with pytest.raises(ht.ConfigurationError, match="no player True"):
        ht.new_match().view(True)  # a bool is no seat, though True == 1


# -- records ------------------------------------------------------------------------------------


def test_records_round_trip_and_are_tagged() -> None:
    final = finish(3)
    text = ht.dumps(final)
    data = json.loads(text)
    assert data["format"] == "hack-trick"
    assert data["version"] == 2
    assert {"type": "draw"} in data["actions"]
    assert ht.loads(text) == final


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(version=3), "version 3"),
        (lambda d: d.update(format="chess"), "not a Hack Trick record"),
        (lambda d: d.update(extra=1), "malformed"),
        (lambda d: d["config"].update(seed="1"), "malformed"),
        (lambda d: d["actions"].append({"type": "fly"}), "malformed"),
        (lambda d: d["actions"].insert(0, {"type": "pass"}), "does not replay"),
    ],
)
def test_bad_records_are_refused(edit: object, message: str) -> None:
    data = json.loads(ht.dumps(finish(4)))
    edit(data)  # type: ignore[operator]
    with pytest.raises(ht.RecordError, match=message):
        ht.loads(json.dumps(data))


def test_non_json_is_refused() -> None:
    with pytest.raises(ht.RecordError, match="JSON"):
        ht.loads("{")


# -- invariants over whole matches --------------------------------------------------------------


def _markers_conserved(state: ht.HackTrickState) -> None:
    for p in (0, 1):
        on_board = [m for sq in state.board if sq.owner == p for m in sq.stack]
        held = state.captured[1 - p]
        banked = state.banked[1 - p]  # HT-3 "hand": held by the opponent from earlier hands
        singles = state.singles[p] + on_board.count(False) + held[0] + banked[0] + state.spent[p][0]
        doubles = state.doubles[p] + on_board.count(True) + held[1] + banked[1] + state.spent[p][1]
        assert (singles, doubles) == (9, 1)


@EXAMPLES
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.sampled_from(["turn", "hand"]))
def test_invariants_hold_throughout_random_matches(seed: int, play_seed: int, asking: str) -> None:
    rng = random.Random(play_seed)
    state = ht.new_match(seed=seed, asking=asking)
    while not state.is_over:
        cards = state.deck + state.set_aside + state.row + state.hands[0] + state.hands[1]
        assert Counter(cards) == Counter(ht.CARDS)  # cards conserved
        _markers_conserved(state)
        assert all(len(h) <= 4 for h in state.hands)
        assert all(x != y for x, y in zip(state.row, state.row[1:], strict=False))
        for p in (0, 1):
            view = state.view(p)
            sample = state.determinize(p, rng)
            assert sample.view(p) == view  # the view leaks nothing the sample does not share
        legal = state.legal_actions()
        assert legal
        state = state.apply(legal[rng.randrange(len(legal))])
    assert max(state.scores) >= 5
    assert sum(state.returns()) == 1.0
    assert ht.loads(ht.dumps(state)) == state  # replay reproduces the match


@EXAMPLES
@given(st.integers(0, 2**32))
def test_same_seed_same_match(seed: int) -> None:
    assert finish(seed) == finish(seed)


def test_views_hide_the_opponents_hand_the_deck_and_the_set_aside_cards() -> None:
    state = ht.new_match(seed=8)
    swapped = attrs.evolve(
        state,
        hands=(state.hands[0], tuple(sorted(state.deck[:4]))),
        deck=tuple(state.hands[1]) + state.deck[4:],
        set_aside=state.set_aside[::-1],
        config=ht.Config(5, 99),
    )
    assert swapped.view(0) == state.view(0)
    assert swapped.view(1) != state.view(1)


# -- protocol, bots, command line ---------------------------------------------------------------


def test_the_state_satisfies_the_game_protocol() -> None:
    assert isinstance(ht.new_match(), TurnBasedGame)


def test_search_finds_the_winning_play() -> None:
    state = turn(
        0, row=(3,), hands=((1, 2, 4), (0,)), board=board(s5=(0, (False, False))), scores=(4, 4)
    )
    info = InformationSet(0, state.view(0), state.legal_actions(), state=state)
    assert SearchPlayer(iterations=60).choose(info, random.Random(1)) in {ht.Play(2)}


def test_simulate_plays_seeded_matches() -> None:
    summary = simulate(lambda seed: ht.new_match(target=1, seed=seed), [RandomPlayer()] * 2, 4)
    assert summary.games == 4
    assert sum(summary.wins) == 4
    again = simulate(lambda seed: ht.new_match(target=1, seed=seed), [RandomPlayer()] * 2, 4)
    assert again == summary


def test_command_line_simulates_and_plays() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["simulate", "--games", "3", "--bots", "random"]) == 0
    assert out.getvalue().startswith("3 games, ")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["play", "--watch", "--bot", "random", "--seed", "2"]) == 0
    assert "wins the match" in out.getvalue() or "win the match" in out.getvalue()


def test_oversized_records_are_refused_unread() -> None:
    with pytest.raises(ht.RecordError, match="at most 1000000 characters"):
        ht.loads(" " * 1_000_001)


# -- the asking rule read the other way (HT-3, "ronde" as a hand) --------------------------------


def test_the_other_reading_of_ronde_carries_captured_markers_across_hands() -> None:
    # "Deze marker moet je in een eerdere ronde van het bord genomen hebben", with "ronde" as in
    # "Een ronde win je als ...": a hand. Markers captured this hand do not pay for asking yet.
    state = ht.new_match(seed=1, asking="hand")
    state = state.apply(state.legal_actions()[0])
    hand = attrs.evolve(
        state, current_player=0, step=ht.Step.MAIN, row=(3,), hands=((1,), (2, 4, 5))
    )
    now = attrs.evolve(hand, captured=((2, 1), (0, 0)))
    assert ht.Ask() not in now.legal_actions()
    # The hand ends (player 1 cannot play with no marker): the captures are kept.
    ended = attrs.evolve(now, singles=(7, 0), doubles=(True, False), forced=(False, True))
    ended = attrs.evolve(ended, current_player=0, step=ht.Step.END).apply(ht.Pass())
    assert ended.hand_number == 1
    assert ended.banked == ((2, 1), (0, 0))
    assert ended.singles == (9, 7)  # player 1 starts without the two markers player 0 holds
    assert ended.doubles == (True, False)
    later = attrs.evolve(ended, current_player=0, step=ht.Step.MAIN, row=(3,), hands=((1,), (2,)))
    assert ht.Ask() in later.legal_actions()
    asked = later.apply(ht.Ask())
    assert asked.banked == ((1, 1), (0, 0))


def test_ronde_reads_as_a_hand_by_default_as_everywhere_else_in_the_text() -> None:
    # HT-3: "ronde" is a hand in "deze doen deze ronde niet mee", "verliest hij deze ronde" and
    # "Een ronde win je als ..."; a turn is "beurt". The default follows the text.
    assert ht.new_match().config.asking == "hand"
    assert ht.Config().asking == "hand"
    # A marker captured this hand does not pay for asking yet.
    state = turn(0, asking="hand", row=(3,), hands=((1,), (2, 4, 5)), captured=((2, 0), (0, 0)))
    assert ht.Ask() not in state.legal_actions()
    assert ht.loads(ht.dumps(state)).config.asking == "hand"


def test_the_asking_reading_is_checked() -> None:
    with pytest.raises(ht.ConfigurationError, match='"turn" or "hand"'):
        ht.new_match(asking="round")


def test_old_records_still_load() -> None:
    # Written by the engine before config.asking existed (version 1): read as "turn".
    old = (Path(__file__).parent / "records" / "match-v1.json").read_text()
    assert json.loads(old)["version"] == 1
    match = ht.loads(old)
    assert match.config == ht.Config(target=2, seed=11, asking="turn")
    assert match.scores == (0, 2)
    assert match.results == (ht.HandResult(1, 2, "line", match.results[0].squares),)
    assert len(match.results[0].squares) == 3


# -- the console --------------------------------------------------------------------------------


def test_the_end_of_a_hand_shows_the_final_board_the_winner_why_and_the_points() -> None:
    state = turn(0, row=(5,), hands=((1, 4), (0,)), board=board(s8=(0, (True,)), s1=(0, (False,))))
    told = describe(state, ht.Play(1), 1)
    assert "the final board:" in told
    assert "8:AX" in told  # the board as it ended, not the next deal's empty one
    assert "player 0 won: three markers in a line (squares 8 1 6), 2 points" in told
    assert "double marker lies there and was not placed last" in told
    assert "score: player 0 1" in told or "score: player 0 2" in told
    assert state.apply(ht.Play(1)).results[-1].board[7] == ht.Square(0, (True,))


def test_what_was_told_this_hand_is_one_line_in_the_past() -> None:
    """Issue 38: "announce: player 1's hand sums to 8" stayed on every screen of the hand."""
    state = turn(0)
    text = render(state.view(0))
    sums = [
        sum(h) for h in ht.new_match(seed=1).apply(ht.new_match(seed=1).legal_actions()[0]).hands
    ]
    assert f"told this hand: at the deal your hand summed to {sums[0]}; " in text
    assert f"at the deal player 1's hand summed to {sums[1]}" in text
    assert "announce:" not in text
    assert "sums to" not in text


def test_the_rules_that_decide_a_turn_are_said_when_they_do() -> None:
    four = render(turn(0, row=(3,), hands=((0, 1, 2, 4), (5,))).view(0))
    assert RULES_WHEN_THEY_MATTER["four cards"] in four
    empty = render(turn(0, row=(3,), hands=((), (5,))).view(0))
    assert RULES_WHEN_THEY_MATTER["no cards"] in empty
    dry = render(turn(0, row=(3,), hands=((1,), (5,)), deck=()).view(0))
    assert RULES_WHEN_THEY_MATTER["empty deck"] in dry
    by_hand = turn(0, asking="hand", row=(3,), hands=((1,), (2,)), banked=((1, 0), (0, 0)))
    assert "HT-3: 'ronde' is a hand" in render(by_hand.view(0))
    played = turn(0, row=(3,), hands=((1, 4), (2, 2, 5))).apply(ht.Play(1))
    assert RULES_WHEN_THEY_MATTER["end of turn"] in render(played.view(0))
    assert RULES_WHEN_THEY_MATTER["end of turn"] not in render(played.view(1))  # not their turn


def test_the_start_card_is_explained_when_it_is_laid() -> None:
    """Issue 48: the console never explained the start card ("start N")."""
    match = ht.new_match(seed=1)
    dealer = match.current_player
    assert dealer is not None
    assert match.step is ht.Step.START
    text = render(match.view(dealer))
    assert RULES_WHEN_THEY_MATTER["start card"] in text
    assert RULES_WHEN_THEY_MATTER["start card"] not in render(match.view(1 - dealer))
    assert "start card" in HELP
    assert "start N" in HELP


def test_the_final_screen_announces_no_hand_that_is_not_played() -> None:
    """Issue 48: the final screen showed a "ronde 6" never played, as if a hand went on."""
    final = finish(3)
    text = render(final.view(0))
    played = len(final.results)
    assert text.startswith(f"-- the match is over after {played} hands; you are player 0 (A)")
    assert f"hand {played + 1}" not in text
    assert "your hand:" not in text  # no hand is held any more
    assert "last hand: player " in text


def test_the_screen_shows_both_captured_counts_and_why_force_is_missing() -> None:
    state = turn(0, row=(3,), hands=((1, 4), (2, 2, 5)), captured=((0, 0), (2, 0)))
    state = attrs.evolve(state, guarded=(True, False)).apply(ht.Play(1))
    text = render(state.view(0))
    assert "player 1 (B): 9 markers left + the double; captured 2 of player 0's" in text
    assert "(can ask)" in text
    assert "force is not offered this turn" in text
    assert ht.Force() not in state.legal_actions()
    assert "you are player 0 (A)" in text


def test_the_match_end_names_the_winner_the_same_way() -> None:
    final = finish(3)
    winner = final.winner()
    assert winner is not None
    assert outcome(final, winner).startswith(f"you (player {winner}, {'AB'[winner]}) win the match")
    other = 1 - winner
    told = outcome(final, other)
    assert told.startswith(f"player {winner} ({'AB'[winner]}) wins the match")
    assert "you wins" not in told + outcome(final, winner)  # issue 38: "player 0 (A), you wins"
    assert "Three of your markers in a line" in HELP


def test_search_playouts_stop_when_the_hand_ends() -> None:
    start = turn(0, scores=(3, 1))
    assert ht.hand_end_estimate(start, start) is None
    won = turn(0, row=(5,), hands=((1, 4), (0,)), board=board(s8=(0, (False,)), s1=(0, (False,))))
    won = attrs.evolve(won, scores=(3, 1))
    after = won.apply(ht.Play(1))  # player 0 wins the hand: 4-1, needing 1 against 4
    assert ht.hand_end_estimate(won, after) == pytest.approx((0.8, 0.2))
    over = attrs.evolve(won, scores=(4, 1)).apply(ht.Play(1))
    assert ht.hand_end_estimate(won, over) == (1.0, 0.0)


# -- the greedy baseline, and the bots by name --------------------------------------------------


def info_of(state: ht.HackTrickState) -> InformationSet:
    seat = state.current_player
    assert seat is not None
    return InformationSet(seat, state.view(seat), state.legal_actions(), state=state)


def test_greedy_takes_the_winning_play() -> None:
    # 3 + 2 = 5 completes player 0's line 4 5 6 (squares 4 and 6 held).
    state = turn(
        0, row=(3,), hands=((1, 2, 4), (0,)), board=board(s4=(0, (False,)), s6=(0, (False,)))
    )
    assert GreedyPlayer().choose(info_of(state), random.Random(0)) == ht.Play(2)


def test_greedy_captures_rather_than_draws_and_keeps_its_double() -> None:
    # 3 + 4 = 7 takes the opponent's two markers on square 7.
    state = turn(0, row=(3,), hands=((0, 4), (0,)), board=board(s7=(1, (False, False))))
    choice = GreedyPlayer().choose(info_of(state), random.Random(0))
    assert choice == ht.Play(4)


def test_greedy_never_spends_a_marker_to_force_or_guard() -> None:
    state = turn(0, row=(3,), hands=((0, 4), (0,)), board=board())
    played = state.apply(ht.Play(4))
    assert played.step is ht.Step.END
    assert ht.Force() in played.legal_actions()
    assert GreedyPlayer().choose(info_of(played), random.Random(0)) == ht.Pass()


def test_bots_by_name() -> None:
    assert make_bot("greedy") == GreedyPlayer()
    assert make_bot("random") == RandomPlayer()
    assert make_bot("search:9") == SearchPlayer(iterations=9, playout_cutoff=hand_end_estimate)
    assert make_bot("full:9") == SearchPlayer(iterations=9)
    with pytest.raises(ht.ConfigurationError, match="choose random, greedy, search"):
        make_bot("search:nine")


def test_the_command_line_seats_a_greedy_bot() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["simulate", "--games", "2", "--bots", "greedy,random"]) == 0
    assert out.getvalue().startswith("2 games, ")

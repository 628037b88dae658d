"""Hack Trick's bots: the greedy baseline and the bots by name."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout

import attrs
import hack_trick as ht
import pytest
from hack_trick.__main__ import main
from hack_trick.bots import GreedyPlayer, hand_end_estimate, make_bot

from tricky_treats.protocol import InformationSet, RandomPlayer, SearchPlayer


def board(**squares: tuple[int, tuple[bool, ...]]) -> tuple[ht.Square, ...]:
    """A board from ``s4=(owner, stack)`` keywords."""
    cells = [ht.Square()] * 9
    for name, (owner, stack) in squares.items():
        cells[int(name[1:]) - 1] = ht.Square(owner, stack)
    return tuple(cells)


def turn(p: int = 0, **fields: object) -> ht.HackTrickState:
    """A hand in progress, player ``p`` to move, with ``fields`` replaced."""
    state = ht.new_match(seed=1)
    state = state.apply(state.legal_actions()[0])
    base: dict[str, object] = {"current_player": p, "step": ht.Step.MAIN}
    base.update(fields)
    return attrs.evolve(state, **base)  # type: ignore[arg-type]


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

"""Public values keep attrs' promises: ``attrs.evolve`` and ``attrs.asdict`` work on each.

Issue 43: a ``PlayerState`` used to carry counts kept by the moves as fields of its own, so
``attrs.evolve(player, kids=...)`` kept the old counts and the rules read them (a player
wearing nothing was offered nice houses); ``attrs.asdict(game)`` raised. Every value now holds
facts, and whatever is derived from them is worked out from them. These tests take states
from real games, change their facts with ``attrs.evolve`` and check that the rules, the views,
the scores, the records and the simulator (whose compact core derives everything again by
its own code) all read the changed facts.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats.testing.strategies import GameSpec, game_specs

_SPECS = game_specs(variants=["family", "open-objectives"])


def _state_of(spec: GameSpec, at: float) -> tt.GameState:
    """A state of a real game: ``spec``'s game played by random bots, ``at`` of the way in."""
    states = tt.play_game(spec.new_game(), [tt.RandomAgent()] * spec.players, seed=spec.seed)
    return states[round(at * (len(states) - 1))]


def _values_of(state: tt.GameState) -> list[Any]:
    """Every public attrs value a client meets around ``state``."""
    values: list[Any] = [state, state.setup, state.config, *state.players, *state.scores()]
    values += [state.view(seat) for seat in range(len(state.players))]
    values += [*state.setup.grid, *state.setup.mean_houses, *state.setup.street_tokens]
    values += [state.setup.components, state.setup.rules, state.action_space]
    values += list(state.legal_actions())
    if not state.is_over:
        values += list(state.apply_with_events(state.legal_actions()[-1])[1])
    outcome = state.outcome()
    if outcome is not None:
        values.append(outcome)
    return values


@settings(max_examples=25, deadline=None)
@given(spec=_SPECS, at=st.floats(0, 1))
def test_asdict_works_on_every_public_value(spec: GameSpec, at: float) -> None:
    state = _state_of(spec, at)
    for value in _values_of(state):
        assert attrs.has(type(value)), value
        fields = attrs.asdict(value, recurse=True)
        assert set(fields) == {f.name for f in attrs.fields(type(value))}
        assert len(attrs.astuple(value)) == len(fields)


def test_asdict_of_a_new_game_holds_its_facts() -> None:
    """The issue's own example: ``attrs.asdict(game)`` raised on a new game."""
    game = tt.new_game(3, seed=42)
    record = attrs.asdict(game)
    assert record["current_player"] == 0
    assert [p["name"] for p in record["players"]] == list(game.config.players)
    assert record["players"][0]["kids"] == ((),) * 5
    assert set(record["players"][0]) == {
        "name",
        "kids",
        "treats",
        "pumpkins",
        "visited",
        "tricked",
        "footprints",
        "secret_tile",
    }


def _evolved(state: tt.GameState, data: st.DataObject) -> tt.GameState:
    """``state`` with each player's facts changed at random by ``attrs.evolve``."""
    players = []
    for player in state.players:
        kids = tuple(
            kid[: data.draw(st.integers(0, len(kid)))] if data.draw(st.booleans()) else kid
            for kid in player.kids
        )
        houses = len(state.setup.grid)
        players.append(
            attrs.evolve(
                player,
                kids=kids,
                treats=tuple(data.draw(st.integers(0, 12)) for _ in player.treats),
                visited=frozenset(data.draw(st.sets(st.integers(0, houses - 1), max_size=4))),
                footprints=data.draw(st.integers(0, 3)),
            )
        )
    return attrs.evolve(state, players=tuple(players))


def _legal_by_hand(state: tt.GameState) -> set[tt.Action]:
    """The legal takes, visits and tricks worked out from the facts here (R2 to R6)."""
    seat = state.current_player
    assert seat is not None
    player = state.players[seat]
    legal: set[tt.Action] = set()
    for slot, card in enumerate(state.market):
        for kid, stack in enumerate(player.kids):
            if card is not None and all(worn.type is not card.type for worn in stack):
                legal.add(tt.TakeCard(slot, kid))
    if player.footprints:
        cards = [card for stack in player.kids for card in stack]
        tops = [stack[-1].icon for stack in player.kids if stack]
        for house, where in enumerate(state.setup.grid):
            matching = sum(card.has(where.neighbour.wants) for card in cards)
            if house not in player.visited and where.neighbour.treats_for(matching):
                legal.add(tt.VisitHouse(house))
        for house, mean in enumerate(state.setup.mean_houses):
            shown = (
                max(map(tops.count, tt.TrickIcon))
                if state.setup.rules.any_mean_house
                else (tops.count(mean.icon))
            )
            if house not in player.tricked and shown >= 3:
                legal.add(tt.TrickHouse(house))
    return legal


@settings(max_examples=40, deadline=None)
@given(spec=_SPECS, at=st.floats(0, 1), data=st.data())
def test_the_rules_views_scores_and_simulator_read_evolved_facts(
    spec: GameSpec, at: float, data: st.DataObject
) -> None:
    changed = _evolved(_state_of(spec, at), data)
    if changed.is_over:
        assert changed.legal_actions() == ()
    else:
        legal = changed.legal_actions()
        moves = {a for a in legal if not isinstance(a, tt.RefreshMarket | tt.Pass)}
        assert moves == _legal_by_hand(changed)
        for action in legal:
            changed.apply(action)  # every listed action is accepted
        seat = changed.current_player
        assert seat is not None
        assert changed.view(seat).legal_actions == legal
    # The views show the changed boards; the scores are those of the changed facts.
    for seat, player in enumerate(changed.players):
        public = changed.view(seat).players[seat]
        assert (public.kids, public.treats, public.visited) == (
            player.kids,
            player.treats,
            player.visited,
        )
        costumes = tuple(tt.costume_points(kid) for kid in player.kids)
        assert changed.scores()[seat].costumes == costumes
    # The simulator derives everything again with its own code: the same game.
    sim = tt.Simulator(changed)
    assert sim.legal_actions() == changed.legal_actions()
    assert sim.scores() == tuple(sheet.total for sheet in changed.scores())
    assert sim.state() == changed


@settings(max_examples=25, deadline=None)
@given(spec=_SPECS, at=st.floats(0, 1), data=st.data())
def test_records_of_evolved_states_load_back_or_say_why_not(
    spec: GameSpec, at: float, data: st.DataObject
) -> None:
    """What ``dumps`` writes, ``loads(verify=False)`` reads back (docs/records.md)."""
    changed = _evolved(_state_of(spec, at), data)
    try:
        text = tt.dumps(changed)
    except tt.RecordError as error:
        message = str(error)
    else:
        assert tt.loads(text, verify=False) == changed
        return
    assert "not one the rules can reach" in message or "footprints left" in message


def test_a_player_who_wears_nothing_is_offered_no_nice_house() -> None:
    """The issue's example: evolve every player to empty kids; no house has a 0-card tier."""
    states = tt.play_game(tt.new_game(3, seed=7), [tt.GreedyAgent()] * 3, seed=7)
    game = next(s for s in states if any(isinstance(a, tt.VisitHouse) for a in s.legal_actions()))
    empty = attrs.evolve(
        game,
        players=tuple(attrs.evolve(p, kids=((),) * len(p.kids)) for p in game.players),
    )
    assert not any(isinstance(a, tt.VisitHouse) for a in empty.legal_actions())
    assert not any(isinstance(a, tt.TrickHouse) for a in empty.legal_actions())
    with pytest.raises(tt.IllegalActionError, match="R1, R5"):
        empty.apply(tt.VisitHouse(0))
    assert all(sheet.costumes == (0,) * 5 for sheet in empty.scores())


def test_dumps_refuses_footprints_the_visits_do_not_leave() -> None:
    """Found by the property above: ``dumps`` wrote a board whose footprints were not what its
    visits leave of the supply (R6), which ``loads(verify=False)`` then refused."""
    game = tt.new_game(2, seed=3)
    changed = attrs.evolve(
        game, players=(attrs.evolve(game.players[0], footprints=1), game.players[1])
    )
    with pytest.raises(
        tt.RecordError, match=r"player 0 has 1 footprints left, but the visits leave 8 \(R6\)"
    ):
        tt.dumps(changed)

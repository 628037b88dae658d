"""Random playouts over many seeds, checking every step (OpenSpiel-style generic game tests)."""

from __future__ import annotations

import random

import attrs
import pytest

import tricky_treats as tt
from tests.boards import random_playout
from tricky_treats.rules import build_player

SEEDS = range(40)


def _recounted(state: tt.GameState) -> tuple[tt.PlayerState, ...]:
    return tuple(
        build_player(
            state.setup,
            name=p.name,
            secret_tile=p.secret_tile,
            kids=p.kids,
            treats=p.treats,
            pumpkins=p.pumpkins,
            visited=p.visited,
            tricked=p.tricked,
        )
        for p in state.players
    )


def _counts(player: tt.PlayerState) -> tuple[object, ...]:
    return (
        player.footprints,
        [player.count(feature) for feature in tt.FEATURES],
        [player.icon_count(icon) for icon in tt.TrickIcon],
    )


def _counted_by_hand(player: tt.PlayerState) -> tuple[object, ...]:
    cards = [card for kid in player.kids for card in kid]
    tops = [kid[-1].icon for kid in player.kids if kid]
    return (
        player.footprints,
        [sum(card.has(feature) for card in cards) for feature in tt.FEATURES],
        [tops.count(icon) for icon in tt.TrickIcon],
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_check_every_step(players: int) -> None:
    """Every game ends; every listed action applies; an unlisted action is rejected and leaves
    the state unchanged; the footprints kept move by move match a recount, and the counts a
    board reports match the cards it holds.
    """
    for seed in SEEDS:
        states = random_playout(players, seed)
        final = states[-1]
        assert final.is_over, seed
        assert final.end_trigger is not None
        assert len(states) < 400
        for state in states[:-1]:
            legal = state.legal_actions()
            assert legal
            space = state.action_space
            illegal = [a for a in space.actions if a not in legal]
            rng = random.Random(seed)
            before = (attrs.asdict(state, recurse=False), hash(state))
            for action in rng.sample(illegal, min(3, len(illegal))):
                with pytest.raises(tt.IllegalActionError):
                    state.apply(action)
            assert (attrs.asdict(state, recurse=False), hash(state)) == before
            for action in rng.sample(legal, min(3, len(legal))):
                state.apply(action)
            assert [_counts(p) for p in state.players] == [_counts(p) for p in _recounted(state)]
            assert [_counts(p) for p in state.players] == list(map(_counted_by_hand, state.players))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_and_actions_give_the_same_game(players: int) -> None:
    """Determinism: replaying the history from the same seed reproduces every state."""
    for seed in range(10):
        states = random_playout(players, seed)
        replay = tt.new_game(players=players, seed=seed)
        assert replay == states[0]
        for action, expected in zip(states[-1].history, states[1:], strict=True):
            replay = replay.apply(action)
            assert replay == expected
            assert hash(replay) == hash(expected)


def test_play_ignores_global_random_state() -> None:
    random.seed(1)
    first = random_playout(3, 5)
    random.seed(2)
    assert random_playout(3, 5) == first
    state = random.getstate()
    random_playout(2, 6)
    assert random.getstate() == state


@pytest.mark.parametrize("options", [{"any_mean_house": True}, {"refresh_ends_turn": True}])
def test_options_play_to_the_end(options: dict[str, bool]) -> None:
    for seed in range(15):
        final = random_playout(4, seed, **options)[-1]
        assert final.is_over


def test_events_agree_with_states() -> None:
    """apply_with_events gives the same state as apply, and the events match the change."""
    for seed in range(10):
        states = random_playout(3, seed)
        for state, action, after in zip(states, states[-1].history, states[1:], strict=False):
            new, events = state.apply_with_events(action)
            assert new == after
            seat = state.current_player
            assert seat is not None
            placed = [e for e in events if isinstance(e, tt.CardPlaced)]
            if isinstance(action, tt.TakeCard):
                card = state.market[action.slot]
                assert card is not None
                assert placed == [tt.CardPlaced(seat, action.slot, action.kid, card)]
            else:
                assert placed == []
            gained = sum(
                e.treats for e in events if isinstance(e, tt.HouseVisited | tt.StreetBonusTaken)
            )
            assert gained == sum(after.players[seat].treats) - sum(state.players[seat].treats)
            pumpkins = [e for e in events if isinstance(e, tt.PumpkinTaken)]
            assert len(pumpkins) == after.players[seat].pumpkins - state.players[seat].pumpkins
            assert any(isinstance(e, tt.GameOver) for e in events) == after.is_over
            triggered = [e for e in events if isinstance(e, tt.EndTriggered)]
            assert len(triggered) == (state.end_trigger is None and after.end_trigger is not None)


def test_cards_and_pumpkins_are_conserved() -> None:
    for seed in range(10):
        for state in random_playout(4, seed):
            cards = [c for p in state.players for kid in p.kids for c in kid]
            cards += [c for c in state.market if c is not None]
            cards += list(state.discarded) + list(state.setup.deck[state.deck_position :])
            assert sorted(c.id for c in cards) == list(range(72))
            pumpkins = sum(state.pumpkin_on_house) + sum(state.pumpkin_on_mean_house)
            assert pumpkins + sum(p.pumpkins for p in state.players) == 12


def test_keeping_states_is_undo() -> None:
    states = random_playout(2, 3)
    middle = states[len(states) // 2]
    assert middle.history == states[-1].history[: len(states) // 2]
    again = middle.apply(states[-1].history[len(states) // 2])
    assert again == states[len(states) // 2 + 1]


def test_states_share_the_setup() -> None:
    states = random_playout(2, 3)
    assert all(s.setup is states[0].setup for s in states)


def test_states_are_frozen() -> None:
    game = tt.new_game(2, seed=1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.turn = 3  # type: ignore[misc]
    moved = game.apply(game.legal_actions()[0])
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moved.players[0].pumpkins = 3  # type: ignore[misc]
    assert type(moved) is tt.GameState
    assert type(moved.players[0]) is tt.PlayerState


def test_fast_built_states_equal_attrs_built_states() -> None:
    game = tt.new_game(2, seed=1)
    moved = game.apply(game.legal_actions()[0])
    rebuilt = tt.GameState(
        **{f.name: getattr(moved, f.name) for f in attrs.fields(tt.GameState) if f.init}
    )
    assert rebuilt == moved
    assert hash(rebuilt) == hash(moved)
    assert repr(rebuilt) == repr(moved)

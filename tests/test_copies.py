"""Copying and pickling states: copies are free, pickles small and faithful."""

from __future__ import annotations

import copy
import pickle

import pytest

import tricky_treats as tt
from tests.games import random_states


def test_a_copy_of_a_state_is_the_state_itself() -> None:
    states = random_states(3, 5)
    for state in (states[0], states[len(states) // 2], states[-1]):
        assert copy.deepcopy(state) is state
        assert copy.copy(state) is state
        assert copy.deepcopy(state.setup) is state.setup
    holder = [states[1], [states[2]]]
    copied = copy.deepcopy(holder)
    assert copied is not holder
    assert copied[0] is states[1]
    assert copied[1] == [states[2]]
    assert copied[1] is not holder[1]


@pytest.mark.parametrize(
    ("players", "variants"),
    [(2, ()), (3, ("family",)), (4, ("open-objectives", "any-mean-house"))],
)
def test_a_pickled_state_loads_equal_and_plays_on_the_same(
    players: int, variants: tuple[str, ...]
) -> None:
    states = random_states(players, 11, variants)
    middle = states[len(states) // 2]
    loaded = pickle.loads(pickle.dumps(middle))
    assert loaded == middle
    assert loaded.history == middle.history
    assert loaded.setup == middle.setup
    assert loaded.legal_actions() == middle.legal_actions()
    assert loaded.scores() == middle.scores()
    assert loaded.view(0) == middle.view(0)
    assert tt.dumps(loaded) == tt.dumps(middle)
    # Playing on from the loaded state gives the states the original game went through.
    for original_next in states[len(states) // 2 + 1 :]:
        loaded = loaded.apply(original_next.history[-1])
        assert loaded == original_next
    assert loaded.outcome() == states[-1].outcome()


def test_a_pickle_of_a_whole_game_holds_the_setup_once() -> None:
    states = random_states(4, 3)
    one = len(pickle.dumps(states[0]))
    everything = pickle.dumps(states)
    loaded = pickle.loads(everything)
    assert loaded == states
    assert all(state.setup is loaded[0].setup for state in loaded)
    # The base game's components are named, not stored: the loaded game uses the same box.
    assert loaded[0].setup.components is tt.base_components()
    # Each further state adds far less than a state on its own costs.
    per_state = (len(everything) - one) / (len(states) - 1)
    assert per_state < one / 10, (one, per_state)


def test_a_pickled_setup_leaves_out_what_it_can_rebuild() -> None:
    state = tt.new_game(2, seed=1)
    text = pickle.dumps(state.setup)
    # The lookup tables and the component data of the base game are not in the pickle.
    assert b"_Lookup" not in text
    assert b"nice_neighbours" not in text
    family = tt.new_game(2, seed=1, variants=["family"])
    assert pickle.loads(pickle.dumps(family)).setup.components == family.setup.components


def test_a_pickled_game_with_its_own_component_data_keeps_every_field() -> None:
    box = tt.base_components()
    game = tt.new_game(3, seed=2, components=box, variants=["family"])
    assert game.setup.custom_components
    again = pickle.loads(pickle.dumps(game))
    assert again == game
    assert again.setup.custom_components
    assert again.scores() == game.scores()  # the variant's scorer came along

"""The observation encoding: layout, values, and that hidden information never shows."""

from __future__ import annotations

import random
import subprocess
import sys

import attrs
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import tricky_treats as tt
from tests.games import random_states
from tests.requirements import install_hint
from tricky_treats.testing.strategies import game_specs, played_games

pytest.importorskip("numpy", reason=install_hint("pettingzoo"))  # or [openspiel]

import numpy as np

from tricky_treats.adapters.observation import (
    OBSERVATION_VERSION,
    ObservationEncoding,
    max_game_length,
)

VARIANTS = ("family", "open-objectives", "any-mean-house")


def _with_hidden_redrawn(state: tt.GameState, viewer: int, data: st.DataObject) -> tt.GameState:
    """``state`` with the deck's remaining order and the tiles ``viewer`` cannot see redrawn."""
    setup = state.setup
    view = state.view(viewer)
    rest = list(setup.deck[state.deck_position :])
    order = data.draw(st.permutations(range(len(rest))), label="deck order")
    deck = setup.deck[: state.deck_position] + tuple(rest[i] for i in order)
    hidden_seats = [seat for seat, tile in enumerate(view.secret_tiles) if tile is None]
    pool = data.draw(st.permutations(view.unseen_tiles), label="unseen tiles")
    tiles = list(setup.secret_tiles)
    for seat, tile in zip(hidden_seats, pool, strict=False):
        tiles[seat] = tile
    players = tuple(
        attrs.evolve(player, secret_tile=tiles[seat]) for seat, player in enumerate(state.players)
    )
    new_setup = attrs.evolve(setup, deck=deck, secret_tiles=tuple(tiles))
    return attrs.evolve(state, setup=new_setup, players=players)


@given(
    states=played_games(game_specs(variants=VARIANTS), max_actions=120),
    data=st.data(),
)
def test_an_observation_does_not_change_when_only_hidden_information_changes(
    states: list[tt.GameState], data: st.DataObject
) -> None:
    """R16: the deck order and other players' secret tiles are hidden; the encoding too."""
    state = states[data.draw(st.integers(0, len(states) - 1), label="moment")]
    viewer = data.draw(st.integers(0, len(state.players) - 1), label="viewer")
    encoding = ObservationEncoding(state)
    observed = encoding.encode(state.view(viewer))
    changed = _with_hidden_redrawn(state, viewer, data)
    note(f"hidden changed: {changed.setup.deck != state.setup.deck or changed != state}")
    assert changed.view(viewer).legal_actions == state.view(viewer).legal_actions
    assert np.array_equal(encoding.encode(changed.view(viewer)), observed)
    # A state the library samples from the view encodes the same, with a fresh encoding too.
    sampled = tt.determinize(state.view(viewer), random.Random(data.draw(st.integers())))
    assert np.array_equal(encoding.encode(sampled.view(viewer)), observed)
    assert np.array_equal(ObservationEncoding(sampled).encode(sampled.view(viewer)), observed)
    assert np.array_equal(
        encoding.action_mask(changed.view(viewer)), encoding.action_mask(state.view(viewer))
    )


def test_the_hidden_information_check_can_fail_what_the_viewer_sees_changes_it() -> None:
    """The viewer's own secret tile and the cards in sight do change the observation."""
    state = random_states(2, 4)[6]
    encoding = ObservationEncoding(state)
    observed = encoding.encode(state.view(0))
    own = state.players[0].secret_tile
    other = next(t for t in state.view(0).unseen_tiles if t != own)
    players = (attrs.evolve(state.players[0], secret_tile=other), state.players[1])
    tiles = (other, *state.setup.secret_tiles[1:])
    mine_changed = attrs.evolve(
        state, setup=attrs.evolve(state.setup, secret_tiles=tiles), players=players
    )
    assert not np.array_equal(encoding.encode(mine_changed.view(0)), observed)
    # Player 1 does not see player 0's tile: their observation stays the same.
    assert np.array_equal(encoding.encode(mine_changed.view(1)), encoding.encode(state.view(1)))
    # The next card of the deck is hidden until a take reveals it into the market.
    take = next(a for a in state.legal_actions() if isinstance(a, tt.TakeCard))
    after = state.apply(take)
    market = encoding.section("market")
    revealed = encoding.encode(after.view(0))[market.start : market.stop]
    assert not np.array_equal(revealed, observed[market.start : market.stop])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", [(), ("family",), ("open-objectives", "any-mean-house")])
def test_every_entry_stays_within_its_bounds_and_the_mask_is_the_legal_actions(
    players: int, variants: tuple[str, ...]
) -> None:
    states = random_states(players, 40 + players, variants)
    encoding = ObservationEncoding(states[0])
    assert len(states) - 1 <= encoding.max_game_length == max_game_length(states[0])
    for state in states:
        for seat in range(players):
            view = state.view(seat)
            observed = encoding.encode(view)
            assert observed.dtype == np.float32
            assert observed.shape == (encoding.size,)
            assert (observed >= 0).all()
            assert (observed <= encoding.high).all(), [
                s.name for s in encoding.sections if (observed[s.start : s.stop] > s.high).any()
            ]
            assert (observed == np.round(observed)).all()  # counts and one-hot only
            mask = encoding.action_mask(view)
            assert mask.dtype == np.int8
            legal = [state.action_space.encode(a) for a in view.legal_actions]
            assert np.flatnonzero(mask).tolist() == legal
            assert bool(legal) == (state.current_player == seat)


def test_the_layout_is_contiguous_documented_and_the_same_for_every_deal() -> None:
    first = ObservationEncoding(tt.new_game(3, seed=1))
    second = ObservationEncoding(tt.new_game(3, seed=99))
    assert first.version == OBSERVATION_VERSION == 1
    assert first.sections == second.sections
    assert np.array_equal(first.high, second.high)
    position = 0
    for section in first.sections:
        assert section.start == position
        position = section.stop
    assert position == first.size
    import tricky_treats.adapters.observation as module

    for section in first.sections:
        assert f"``{section.name}``" in (module.__doc__ or "")
        assert section.name in first.describe()
    assert first.section("market").shape == (5, 14)
    with pytest.raises(KeyError, match="no section 'nope'"):
        first.section("nope")


def test_the_sections_say_what_the_view_holds() -> None:
    states = random_states(3, 8)
    state = next(s for s in states if s.players[1].treats != (0, 0, 0) and not s.is_over)
    encoding = ObservationEncoding(state)
    viewer = 2
    view = state.view(viewer)
    observed = encoding.encode(view)

    def part(name: str) -> np.ndarray:
        section = encoding.section(name)
        return observed[section.start : section.stop].reshape(section.shape)

    # Row 0 is the viewer, row 1 the next seat (seat 0), row 2 seat 1.
    order = [2, 0, 1]
    for row, seat in enumerate(order):
        assert part("treats")[row].tolist() == list(view.players[seat].treats)
        assert part("footprints")[row] == view.players[seat].footprints
        assert sorted(np.flatnonzero(part("visited")[row])) == sorted(view.players[seat].visited)
        worn = sum(len(kid) for kid in view.players[seat].kids)
        assert part("kids")[row, :, :, 0].sum() == worn
    assert part("secret_tile")[0].sum() == 1
    assert part("secret_tile")[1:].sum() == 0
    assert part("to_act").tolist() == [1.0 if s == state.current_player else 0.0 for s in order]
    assert part("deck_size")[0] == view.deck_size
    assert part("deck_features").sum() == 3 * view.deck_size  # colour, theme and type
    assert part("unseen_tiles").sum() == len(view.unseen_tiles)
    assert part("market")[:, 0].sum() == sum(card is not None for card in view.market)
    house = view.grid[0].neighbour
    assert part("house_treats")[0].tolist() == [
        house.treats_for(n) for n in range(1, encoding.most_cards + 1)
    ]


def test_an_encoding_refuses_a_view_of_another_configuration() -> None:
    encoding = ObservationEncoding(tt.new_game(2, seed=1))
    with pytest.raises(tt.ConfigurationError, match="build an ObservationEncoding for its game"):
        encoding.encode(tt.new_game(3, seed=1).view(0))


def test_importing_the_library_imports_no_game_ai_peer() -> None:
    code = (
        "import sys, tricky_treats, tricky_treats.adapters; "
        "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel') "
        "if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"

"""Games dealt straight into the core (``Simulator.new_game``, ``variants._base_deals``).

The one dealer of the simulator and the vector env: each game it deals must be, field by
field, the first core of the game ``new_game`` deals from the same seed (its tables, its
seats, its trick tiles), play the same game, score the same points and build the same
states; where it cannot deal a game (a configuration the core does not cover, arguments
``new_game`` refuses) ``Simulator.new_game`` is ``Simulator(new_game(...))``, errors included.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import tricky_treats as tt
from tests import core_equivalence
from tricky_treats.dealing import _Dealer
from tricky_treats.simulator import _core
from tricky_treats.variants._base_deals import (
    CORE_FIELDS,
    SEAT_FIELDS,
    TABLE_FIELDS,
    BaseDeals,
    core_difference,
)

DEALT: tuple[tuple[int, dict[str, Any]], ...] = tuple(
    (players, core_equivalence.options_for(players, configuration))
    for configuration in core_equivalence.CONFIGURATIONS[:-1]  # the last: 6 kids, not covered
    for players in (2, 3, 4)
)
"""Every configuration of the equivalence digest that the core covers, 2 to 4 players."""

SEEDS = [*range(25), 2**31, 2**63 - 1, 2**64 + 3, 2**128 - 1]


def _dealer(players: int, options: dict[str, Any]) -> _Dealer:
    return _Dealer(
        players,
        first_player=options.get("first_player", 0),
        any_mean_house=options.get("any_mean_house", False),
        refresh_ends_turn=options.get("refresh_ends_turn", False),
        variants=options.get("variants", ()),
        variant_options=options.get("variant_options"),
        components=options.get("components"),
    )


def _deals(players: int, options: dict[str, Any]) -> BaseDeals:
    deals = BaseDeals.of(_dealer(players, options))
    assert deals is not None
    return deals


def _core_of(sim: tt.Simulator) -> _core.Core:
    assert sim._core is not None
    return sim._core


@pytest.mark.parametrize(("players", "options"), DEALT)
def test_simulator_new_game_is_field_by_field_the_simulator_of_new_game(
    players: int, options: dict[str, Any]
) -> None:
    """The core ``Simulator.new_game`` deals, every field of its tables, seats and tiles,
    is the core ``Simulator(new_game(...))`` makes of the first state; so is its state."""
    for seed in SEEDS:
        dealt = tt.Simulator.new_game(players, seed=seed, **options)
        assert dealt._made_setup is None  # dealt into the core: no setup built
        game = tt.new_game(players, seed=seed, **options)
        made = tt.Simulator(game)
        core, expected = _core_of(dealt), _core_of(made)
        for name in TABLE_FIELDS:  # core_difference's comparison, spelled out once
            assert getattr(core.tables, name) == getattr(expected.tables, name), name
        for name in CORE_FIELDS:
            assert getattr(core, name) == getattr(expected, name), name
        for seat, other in zip(core.seats, expected.seats, strict=True):
            for name in SEAT_FIELDS:
                assert getattr(seat, name) == getattr(other, name), name
        scoring, tiles = dealt._scoring, game.setup.components.trick_tiles
        assert scoring is not None
        assert [tiles[t] for t in scoring.secret] == list(game.setup.secret_tiles)
        assert [tiles[t] for t in scoring.mean] == [h.tile for h in game.setup.mean_houses]
        assert dealt.action_space is game.action_space
        assert dealt.state() == game
        assert tt.dumps(dealt.state()) == tt.dumps(game)


@pytest.mark.parametrize(("players", "options"), DEALT)
def test_a_dealt_game_plays_and_scores_the_game_of_new_game(
    players: int, options: dict[str, Any]
) -> None:
    """Move by move the legal codes of ``new_game``'s game; at the end its scores, winners
    and final state, and the same from a clone taken on the way."""
    rng = random.Random(players)
    for seed in range(6):
        dealt = tt.Simulator.new_game(players, seed=seed, **options)
        reference = tt.Simulator(tt.new_game(players, seed=seed, **options))
        clone = None
        while reference.current_player is not None:
            codes = dealt.legal_codes()
            assert codes == reference.legal_codes()
            assert dealt.scores() == reference.scores()
            code = rng.choice(codes)
            dealt.play(code)
            reference.play(code)
            if clone is None and rng.random() < 0.1:
                clone = dealt.clone()
                clone_at = reference.state()
        final = reference.state()
        assert dealt.scores() == tuple(sheet.total for sheet in final.scores())
        assert dealt.winners() == final.winners()
        assert dealt._points() == reference._points()
        assert dealt.state() == final
        if clone is not None:
            assert clone.state() == clone_at


@pytest.mark.parametrize(("players", "options"), DEALT[:9])
def test_the_dealer_checks_itself_against_new_game(players: int, options: dict[str, Any]) -> None:
    deals = _deals(players, options)
    for seed in (*range(10), 2**127):
        assert deals.same_deal(seed)
    dealer = _dealer(players, options)
    found = deals.deal(5)
    assert found is not None
    other = tt.Simulator._first(dealer.setup(6))
    assert other is not None
    assert core_difference(found[0], _core_of(other)) is not None  # it tells deals apart


def test_games_outside_the_core_are_not_dealt_so() -> None:
    """Six kids: ``Simulator.new_game`` is ``Simulator(new_game(...))``, by the rules."""
    six_kids = core_equivalence.CONFIGURATIONS[-1]
    assert BaseDeals.of(_dealer(2, six_kids)) is None
    sim = tt.Simulator.new_game(2, seed=3, **six_kids)
    assert not sim.fast
    assert sim.state() == tt.new_game(2, seed=3, **six_kids)


def test_a_variant_whose_games_depend_on_a_file_is_not_dealt_so() -> None:
    """``card-data`` reads a file, which may change between games: ``new_game`` deals them."""
    options = {"variants": ["card-data"], "variant_options": {"card-data": {"file": "x"}}}
    assert BaseDeals.of(_dealer(2, options)) is None


def test_a_board_hook_runs_on_the_dealt_board() -> None:
    """``open-objectives`` turns the secret tiles face up: the dealt game's too."""
    deals = _deals(3, {"variants": ["open-objectives"]})
    found = deals.deal(11)
    assert found is not None
    assert found[2] is True
    assert tt.Simulator.new_game(3, seed=11, variants=["open-objectives"]).state() == (
        tt.new_game(3, seed=11, variants=["open-objectives"])
    )


BAD_ARGUMENTS: tuple[dict[str, Any], ...] = (
    {"players": 2, "seed": -1},
    {"players": 2, "seed": 2**128},
    {"players": 2, "seed": True},
    {"players": 2, "seed": 1.0},
    {"players": 9, "seed": 1},
    {"players": 1, "seed": 1},
    {"players": 9, "seed": -1},  # the seed is checked first
    {"players": ["Ann", "Ann"], "seed": 1},
    {"players": ["Ann", ""], "seed": 1},
    {"players": "Ann", "seed": 1},
    {"players": 2, "seed": 1, "first_player": 2},
    {"players": 2, "seed": 1, "first_player": True},
    {"players": 2, "seed": 1, "variants": ["no-such-variant"]},
    {"players": 2, "seed": 1, "variants": ["family", "family"]},
    {"players": 2, "seed": 1, "variant_options": {"family": {"x": 1}}},
    {"players": 2, "seed": 1, "components": "x"},
)


@pytest.mark.parametrize("arguments", BAD_ARGUMENTS)
def test_bad_arguments_are_refused_as_new_game_refuses_them(arguments: dict[str, Any]) -> None:
    with pytest.raises(tt.TrickyTreatsError) as expected:
        tt.new_game(**arguments)
    for _ in range(2):  # the second time, from what was kept of the first
        with pytest.raises(type(expected.value)) as refused:
            tt.Simulator.new_game(**arguments)
        assert str(refused.value) == str(expected.value)


def test_games_without_a_seed_are_dealt_from_a_fresh_one() -> None:
    first, second = tt.Simulator.new_game(2), tt.Simulator.new_game(2)
    assert first.state().config.seed != second.state().config.seed
    seed = first.state().config.seed
    assert first.state() == tt.new_game(2, seed=seed)


def test_names_and_variant_objects_deal_as_new_game_deals() -> None:
    family = tt.get_variant("family")
    for players, variants in ((["Ann", "Bo", "Cy"], ()), (("Ann", "Bo"), (family,))):
        dealt = tt.Simulator.new_game(players, seed=4, variants=variants)
        assert dealt._made_setup is None
        assert dealt.state() == tt.new_game(players, seed=4, variants=variants)


def test_a_bad_seed_is_refused_as_new_game_refuses_it() -> None:
    deals = _deals(2, {})
    for bad in (-1, 2**128, True):
        with pytest.raises(tt.ConfigurationError, match="seed must be a whole number"):
            deals.deal(bad)


def test_a_box_of_ones_own_is_dealt_by_its_own_tables() -> None:
    """Another object of an equal box deals the same games (the dealer is per object)."""
    box = attrs.evolve(tt.base_components())
    dealt = tt.Simulator.new_game(2, seed=8, components=box)
    assert dealt._made_setup is None
    assert dealt.state() == tt.new_game(2, seed=8, components=box)

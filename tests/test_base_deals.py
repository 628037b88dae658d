"""Games dealt straight into the core (``Simulator.new_game``).

The one dealer of the simulator and the vector env: each game it deals must be the game
``new_game`` deals from the same seed, seen through everything a simulator shows (its state,
every seat's view and player record, its legal codes, scores and winners), play the same
game, score the same points and build the same states; where it cannot deal a game (a
configuration the core does not cover, arguments ``new_game`` refuses)
``Simulator.new_game`` is ``Simulator(new_game(...))``, errors included. How the dealer
works (its tables, its check of itself against ``new_game``) is private: what it deals is
tested here, and ``tests/core_equivalence.py``'s digest plays half its games from it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import attrs
import pytest

import tricky_treats as tt
from tests import core_equivalence

DEALT: tuple[tuple[int, dict[str, Any]], ...] = tuple(
    (players, core_equivalence.options_for(players, configuration))
    for configuration in core_equivalence.CONFIGURATIONS[:-1]  # the last: 6 kids, not covered
    for players in (2, 3, 4)
)
"""Every configuration of the equivalence digest that the core covers, 2 to 4 players."""

SEEDS = [*range(25), 2**31, 2**63 - 1, 2**64 + 3, 2**128 - 1]


def _shown(sim: tt.Simulator) -> tuple[object, ...]:
    """Everything a simulator shows of its game, every seat's view and record included."""
    state = sim.state()
    seats = range(len(state.players))
    return (
        state,
        tt.dumps(state),
        tuple(state.view(seat) for seat in seats),
        tuple(tt.dumps(state, player=seat) for seat in seats),
        core_equivalence.canonical(state.players),
        sim.legal_codes(),
        sim.legal_actions(),
        sim.scores(),
        sim.winners(),
        sim.current_player,
        sim.turn,
        sim.is_over,
    )


@pytest.mark.parametrize(("players", "options"), DEALT)
def test_simulator_new_game_shows_what_the_simulator_of_new_game_shows(
    players: int, options: dict[str, Any]
) -> None:
    """The game ``Simulator.new_game`` deals, through all a simulator shows, is the game
    ``Simulator(new_game(...))`` plays from the first state, on the core both times."""
    for seed in SEEDS:
        dealt = tt.Simulator.new_game(players, seed=seed, **options)
        game = tt.new_game(players, seed=seed, **options)
        made = tt.Simulator(game)
        assert dealt.fast
        assert made.fast
        assert dealt.action_space is game.action_space
        assert _shown(dealt) == _shown(made)
        assert dealt.state() == game
        assert dealt.state().setup.secret_tiles == game.setup.secret_tiles
        assert dealt.state().setup.mean_houses == game.setup.mean_houses


@pytest.mark.parametrize(("players", "options"), DEALT)
def test_a_dealt_game_plays_and_scores_the_game_of_new_game(
    players: int, options: dict[str, Any]
) -> None:
    """Move by move what ``new_game``'s game shows; at the end its scores, winners
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
        assert _shown(dealt) == _shown(reference)
        if clone is not None:
            assert clone.state() == clone_at


@pytest.mark.parametrize(("players", "options"), DEALT[:9])
def test_seeds_deal_their_own_games_in_any_order(players: int, options: dict[str, Any]) -> None:
    """The dealer keeps what it worked out between games, never a game: seeds dealt in
    any order, again and between others, deal ``new_game``'s games, which differ."""
    seeds = [5, 6, 2**127, 5, 0, 6, 6]
    dealt = [tt.Simulator.new_game(players, seed=seed, **options).state() for seed in seeds]
    assert dealt == [tt.new_game(players, seed=seed, **options) for seed in seeds]
    assert dealt[0] != dealt[1]  # it tells deals apart


def test_games_outside_the_core_are_not_dealt_so() -> None:
    """Six kids: ``Simulator.new_game`` is ``Simulator(new_game(...))``, by the rules."""
    six_kids = core_equivalence.CONFIGURATIONS[-1]
    sim = tt.Simulator.new_game(2, seed=3, **six_kids)
    assert not sim.fast
    assert _shown(sim) == _shown(tt.Simulator(tt.new_game(2, seed=3, **six_kids)))


def test_a_variant_whose_games_depend_on_a_file_deals_from_the_file_as_it_is(
    tmp_path: Path,
) -> None:
    """``card-data`` reads a file, which may change between games: each game dealt is the
    one ``new_game`` deals from the file of the moment, nothing kept from the last."""
    path = tmp_path / "box.toml"
    text = (Path(tt.__file__).parent / "data" / "base.toml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    options: dict[str, Any] = {
        "variants": ["card-data"],
        "variant_options": {"card-data": {"file": str(path)}},
    }
    first = tt.Simulator.new_game(2, seed=1, **options)
    assert first.state() == tt.new_game(2, seed=1, **options)
    assert first.state().setup.rules.footprints_per_player == 8
    path.write_text(
        text.replace("footprints_per_player = 8", "footprints_per_player = 5"), encoding="utf-8"
    )
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a visibly newer file
    again = tt.Simulator.new_game(2, seed=1, **options)
    assert again.state().setup.rules.footprints_per_player == 5
    assert again.state() == tt.new_game(2, seed=1, **options)


def test_a_board_hook_runs_on_the_dealt_board() -> None:
    """``open-objectives`` turns the secret tiles face up: the dealt game's too."""
    dealt = tt.Simulator.new_game(3, seed=11, variants=["open-objectives"])
    game = tt.new_game(3, seed=11, variants=["open-objectives"])
    assert dealt.fast
    assert dealt.state().setup.secret_tiles_face_up
    assert _shown(dealt) == _shown(tt.Simulator(game))


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
        assert dealt.fast
        assert _shown(dealt) == _shown(
            tt.Simulator(tt.new_game(players, seed=4, variants=variants))
        )


def test_a_bad_seed_is_refused_once_the_dealer_has_dealt() -> None:
    """The dealer of a configuration, once it has dealt a game, still checks each seed."""
    tt.Simulator.new_game(2, seed=1)
    for bad in (-1, 2**128, True):
        with pytest.raises(tt.ConfigurationError, match="seed must be a whole number"):
            tt.Simulator.new_game(2, seed=bad)


def test_a_box_of_ones_own_is_dealt_by_its_own_tables() -> None:
    """Another object of an equal box deals the same games (the dealer is per object)."""
    box = attrs.evolve(tt.base_components())
    dealt = tt.Simulator.new_game(2, seed=8, components=box)
    assert dealt.fast
    assert _shown(dealt) == _shown(tt.Simulator(tt.new_game(2, seed=8, components=box)))

"""The base game's deals made without their setups (``variants._base_deals.BaseDeals``).

The vector env deals its base games so; each must be, field by field, the first core and the
trick tiles of the game ``new_game`` deals from the same seed, play the same game and score
the same points.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import tricky_treats as tt
from tricky_treats.dealing import _Dealer
from tricky_treats.simulator import _core, outcome_of
from tricky_treats.variants._base_deals import CORE_FIELDS, TABLE_FIELDS, BaseDeals, same_deal

BASE_GAMES: tuple[tuple[int, dict[str, Any]], ...] = (
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"refresh_ends_turn": True, "first_player": 1}),
    (3, {"any_mean_house": True, "first_player": 2}),
)


def _dealer(players: int, options: dict[str, Any]) -> _Dealer:
    return _Dealer(
        players,
        first_player=options.get("first_player", 0),
        any_mean_house=options.get("any_mean_house", False),
        refresh_ends_turn=options.get("refresh_ends_turn", False),
        variants=options.get("variants", ()),
        variant_options=None,
        components=options.get("components"),
    )


def _deals(players: int, options: dict[str, Any]) -> tuple[_Dealer, BaseDeals]:
    dealer = _dealer(players, options)
    deals = BaseDeals.of(dealer)
    assert deals is not None
    return dealer, deals


@pytest.mark.parametrize(("players", "options"), BASE_GAMES)
def test_each_base_deal_is_the_first_core_and_tiles_of_new_games_deal(
    players: int, options: dict[str, Any]
) -> None:
    dealer, deals = _deals(players, options)
    for seed in [*range(80), 2**63 - 1, 2**64 + 3, 2**128 - 1]:
        setup = dealer.setup(seed)
        core, secret, mean = deals.deal(seed)
        assert same_deal(setup, core, secret, mean, deals.tiles), seed
        assert not same_deal(dealer.setup(seed ^ 1), core, secret, mean, deals.tiles)
        expected = tt.Simulator._first(setup)
        assert expected is not None
        assert expected._core is not None
        for name in CORE_FIELDS:  # same_deal's own comparison, spelled out once
            assert getattr(core, name) == getattr(expected._core, name), name
        for name in TABLE_FIELDS:
            assert getattr(core.tables, name) == getattr(expected._core.tables, name), name
        assert [deals.tiles[t] for t in secret] == list(setup.secret_tiles)


@pytest.mark.parametrize(("players", "options"), BASE_GAMES)
def test_a_base_deal_plays_and_scores_the_game_of_new_game(
    players: int, options: dict[str, Any]
) -> None:
    """Move by move the legal codes of ``new_game``'s game; at the end its scores, winners."""
    dealer, deals = _deals(players, options)
    rng = random.Random(players)
    for seed in range(8):
        core, secret, mean = deals.deal(seed)
        reference = tt.Simulator(tt.new_game(players, seed=seed, **options))
        while reference.current_player is not None:
            codes = core.legal_codes()
            assert codes == reference.legal_codes()
            code = rng.choice(codes)
            core.play(code)
            reference.play(code)
        flat = _core.totals(
            core, deals.tile_needs, deals.tile_points, secret, mean, deals.pumpkin_points
        )
        scores, winners = outcome_of(list(zip(flat[::2], flat[1::2], strict=True)))
        final = reference.state()
        assert scores == tuple(sheet.total for sheet in final.scores())
        assert winners == final.winners()
        made = tt.Simulator._of(dealer.setup(seed), core)
        assert made.state() == final


@pytest.mark.parametrize(
    "options",
    [
        {"variants": ["family"]},
        {"variants": ["any-mean-house"]},
        {"components": attrs.evolve(tt.base_components())},  # a box of one's own
    ],
)
def test_other_games_are_not_dealt_so(options: dict[str, Any]) -> None:
    assert BaseDeals.of(_dealer(2, options)) is None


def test_a_bad_seed_is_refused_as_new_game_refuses_it() -> None:
    _, deals = _deals(2, {})
    for bad in (-1, 2**128, True):
        with pytest.raises(tt.ConfigurationError, match="seed must be a whole number"):
            deals.deal(bad)

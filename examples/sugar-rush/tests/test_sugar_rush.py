"""Tests of the sugar-rush variant, through the installed entry point."""

from __future__ import annotations

import tricky_treats as tt
from tricky_treats.testing import check_variant


def test_registered_through_the_entry_point() -> None:
    variant = tt.get_variant("sugar-rush")
    assert variant.distribution == "tricky-treats-sugar-rush"
    assert variant.version == "1.0.0"
    assert variant in tt.available_variants()


def test_neighbours_are_more_generous() -> None:
    plain = tt.new_game(2, seed=3)
    rush = tt.new_game(2, seed=3, variants=["sugar-rush"])
    for a, b in zip(plain.setup.grid, rush.setup.grid, strict=True):
        assert [t.treats + 1 for t in a.neighbour.tiers] == [t.treats for t in b.neighbour.tiers]


def test_pairs_score_four() -> None:
    rush = tt.new_game(2, seed=3, variants=["sugar-rush"])
    tiles = rush.setup.components.trick_tiles
    assert {t.points for t in tiles if t.id.startswith("pair-")} == {4}
    assert {t.points for t in tiles if t.id.startswith("three-")} == {5}


def test_conformance() -> None:
    assert check_variant(["sugar-rush"], games=3) > 0


def test_saved_games_record_the_variant() -> None:
    game = tt.new_game(3, seed=5, variants=["sugar-rush"])
    final = tt.play_game(game, [tt.RandomAgent()] * 3, seed=5)[-1]
    assert final.config.variants == (tt.VariantRef("sugar-rush", "1.0.0"),)
    assert tt.loads(tt.dumps(final)) == final

"""A deal as a sequence of draws: the engine's seeded deal and explicit choices agree."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

import tricky_treats as tt
from tests.test_plugins import _distribution
from tricky_treats import plugins
from tricky_treats.dealing import Draw, deal_draws, deal_from_draws


@pytest.mark.parametrize(
    ("players", "variants"),
    [(2, ()), (3, ()), (4, ("family", "open-objectives")), (2, ("any-mean-house",))],
)
def test_the_seeded_deal_dealt_again_from_its_draws_is_the_same_game(
    players: int, variants: tuple[str, ...]
) -> None:
    for seed in (0, 7, 2**100):
        game = tt.new_game(players, seed=seed, variants=variants)
        draws = deal_draws(game)
        assert all(0 <= d.choice < d.among for d in draws)
        assert deal_from_draws(game, [d.choice for d in draws]) == game


def test_other_choices_deal_another_board_of_the_same_configuration() -> None:
    game = tt.new_game(3, seed=1)
    draws = deal_draws(game)
    rng = random.Random(2)
    other = deal_from_draws(game, [rng.randrange(d.among) for d in draws])
    assert other.setup.deck != game.setup.deck
    assert sorted(c.id for c in other.setup.deck) == sorted(c.id for c in game.setup.deck)
    assert other.config == game.config  # the seed is kept; it does not deal this board
    assert [d.among for d in deal_draws(other)] == [d.among for d in draws]
    while not other.is_over:  # and it plays by the rules
        other = other.apply(other.legal_actions()[0])


def test_a_shuffle_of_n_items_draws_among_n_then_n_minus_1() -> None:
    draws = deal_draws(tt.new_game(2, seed=3))
    assert [d.among for d in draws[:9]] == list(range(10, 1, -1))  # 10 nice neighbours
    assert max(d.among for d in draws) == 72  # the deck
    assert draws[0] == Draw(choice=draws[0].choice, among=10)


def test_bad_choices_are_refused_naming_the_problem() -> None:
    game = tt.new_game(2, seed=3)
    choices = [d.choice for d in deal_draws(game)]
    with pytest.raises(tt.ConfigurationError, match="more draws than the 100 choices"):
        deal_from_draws(game, choices[:-1])
    with pytest.raises(tt.ConfigurationError, match="makes 101 draws, but 102 choices"):
        deal_from_draws(game, [*choices, 0])
    with pytest.raises(tt.ConfigurationError, match="draw 0 of the deal chooses among 10"):
        deal_from_draws(game, [10, *choices[1:]])
    with pytest.raises(tt.ConfigurationError, match="got True"):
        deal_from_draws(game, [True, *choices[1:]])


COIN_FLIP = """
    import random, sys
    import tricky_treats as tt
    from tricky_treats.variants import base

    SEEN = []

    class Plugin:
        @tt.hookimpl
        def tricky_treats_deal(self, config, components, rules, rng: random.Random):
            SEEN.extend([rng.choice("abc"), rng.randrange(5)])
            rng.{draw}
            return base.tricky_treats_deal(config, components, rng)

    VARIANT = tt.Variant(name="coin-flip", version="1.0", title="t", description="d",
                         plugin=Plugin())
"""


@pytest.mark.parametrize("draw", ["random()", "getrandbits(8)", "gauss()"])
def test_a_deal_that_draws_otherwise_is_refused(
    draw: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant's deal that flips coins with random() cannot be dealt from choices."""
    monkeypatch.delitem(sys.modules, "tt_coin_flip", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    _distribution(
        tmp_path,
        "tt-coin-flip",
        {"coin-flip": "tt_coin_flip:VARIANT"},
        {"tt_coin_flip": COIN_FLIP.format(draw=draw)},
    )
    plugins.variant_registry.cache_clear()
    try:
        game = tt.new_game(2, seed=1, variants=["coin-flip"])  # the seed draws anything
        seen = sys.modules["tt_coin_flip"].SEEN
        seen.clear()
        # An installed plugin's error is a broken plugin's: its text is the developer's detail.
        with pytest.raises(tt.PluginError, match=r"deal failed \(ConfigurationError\)") as error:
            deal_from_draws(game, [1, 0])
        assert re.search(r"Random\.\w+\(\), which is no choice", error.value.detail or "")
        assert seen == ["b", 0]  # the choices, drawn as they say, up to the coin
    finally:
        plugins.variant_registry.cache_clear()

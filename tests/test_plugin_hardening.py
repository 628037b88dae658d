"""Plugins that misbehave get PluginError naming the variant; hidden information in scorers.

Issue 10: an edit hook that returns the wrong kind of value is caught when the game is
created; a scoring function that fails or returns the wrong type is caught in ``scores()``,
``view()`` and ``dumps(game, player=...)``; other players' variant score lines stay hidden
in views until the end unless the variant declares them public; the conformance kit
catches a scorer whose visible lines read hidden information.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import pytest

import tricky_treats as tt
from tricky_treats import plugins
from tricky_treats.testing import check_variant
from tricky_treats.variants import BUILTIN_VARIANTS


def _variant(name: str, plugin: object, **kwargs: Any) -> tt.Variant:
    return tt.Variant(
        name=name, version="0.1", title=name, description=name, plugin=plugin, **kwargs
    )


class _Edit:
    """A plugin implementing one edit hook with ``result`` as what it returns."""

    def __init__(self, hook: str, result: object) -> None:
        def implementation() -> object:
            return result

        setattr(self, hook, tt.hookimpl(implementation))


# -- edit hooks returning the wrong kind of value -------------------------------------------------


@pytest.mark.parametrize(
    ("hook", "result", "message"),
    [
        ("tricky_treats_costume_cards", (1, 2, 3), r"item 0 is 1, not a costume card"),
        ("tricky_treats_costume_cards", "cards", r"not a tuple of costume cards"),
        ("tricky_treats_nice_neighbours", ("a", "b"), r"item 0 is 'a', not a nice neighbour"),
        ("tricky_treats_trick_tiles", (None,), r"item 0 is None, not a trick tile"),
        ("tricky_treats_rules", 7, r"not a RulesData"),
        ("tricky_treats_components", "box", r"not a ComponentData"),
    ],
)
def test_an_edit_hook_returning_the_wrong_kind_of_value(
    hook: str, result: object, message: str
) -> None:
    variant = _variant("wrong", _Edit(hook, result))
    with pytest.raises(tt.PluginError, match=rf"variant 'wrong' from 'tricky-treats': {hook}"):
        tt.new_game(2, seed=1, variants=[variant])
    with pytest.raises(tt.PluginError, match=message):
        tt.new_game(2, seed=1, variants=[variant])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"market_size": None}, r"RulesData\.market_size: expected an integer, got null"),
        ({"any_mean_house": 1}, r"RulesData\.any_mean_house"),
        ({"kids_per_player": 10**20}, r"kids_per_player: must be between 1 and 8"),
    ],
)
def test_a_rules_hook_building_impossible_rules(change: dict[str, Any], message: str) -> None:
    """The rules' own ranges and types hold for values a plugin builds (issue 10), and the
    error names the variant and its hook."""

    class Rules:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData) -> tt.RulesData:
            return attrs.evolve(rules, **change)

    variant = _variant("bad-rules", Rules())
    with pytest.raises(
        tt.ComponentDataError,
        match=r"variant 'bad-rules' from 'tricky-treats': tricky_treats_rules",
    ):
        tt.new_game(2, seed=1, variants=[variant])
    with pytest.raises(tt.ComponentDataError, match=message):
        tt.new_game(2, seed=1, variants=[variant])


def _board_edit(change: Callable[[tt.Board], object]) -> object:
    class Plugin:
        @tt.hookimpl
        def tricky_treats_board(self, board: tt.Board) -> object:
            return change(board)

    return Plugin()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: attrs.evolve(b, deck=tuple(str(c) for c in b.deck)), r"deck is .*item 0"),
        (lambda b: attrs.evolve(b, deck=b.deck[:-1]), r"every costume card of the box"),
        (lambda b: attrs.evolve(b, deck=b.deck[:-1] + b.deck[:1]), r"every costume card"),
        (lambda b: attrs.evolve(b, grid=b.grid[:8]), r"8 houses in the grid"),
        (lambda b: attrs.evolve(b, secret_tiles=None), r"secret_tiles is None"),
        (lambda b: attrs.evolve(b, secret_tiles=b.secret_tiles[:1]), r"1 secret tiles for 2"),
        (lambda b: attrs.evolve(b, mean_houses=("x",)), r"mean_houses is .*item 0 is 'x'"),
        (lambda b: attrs.evolve(b, secret_tiles_face_up="yes"), r"secret_tiles_face_up is 'yes'"),
        (lambda b: {"grid": b.grid}, r"not a Board"),
    ],
)
def test_a_board_hook_returning_a_broken_board(
    change: Callable[[tt.Board], object], message: str
) -> None:
    variant = _variant("bad-board", _board_edit(change))
    with pytest.raises(tt.PluginError, match=r"variant 'bad-board' .*tricky_treats_board"):
        tt.new_game(2, seed=3, variants=[variant])
    with pytest.raises(tt.PluginError, match=message):
        tt.new_game(2, seed=3, variants=[variant])


def test_a_deal_hook_returning_a_broken_board() -> None:
    class Deal:
        @tt.hookimpl
        def tricky_treats_deal(self) -> object:
            return "a board"

    with pytest.raises(tt.PluginError, match=r"'bad-deal' .*tricky_treats_deal .*not a Board"):
        tt.new_game(2, seed=3, variants=[_variant("bad-deal", Deal())])


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ({"players": None}, r"declares players=None"),
        ({"players": (2, "3")}, r"declares players=\(2, '3'\)"),
        ({"incompatible_with": "family"}, r"declares incompatible_with='family'"),
        ({"public_scoring": "yes"}, r"declares public_scoring='yes'"),
    ],
)
def test_a_variant_declaring_the_wrong_types(declared: dict[str, object], message: str) -> None:
    variant = _variant("odd", object(), **declared)
    with pytest.raises(tt.PluginError, match=rf"variant 'odd' from 'tricky-treats' {message}"):
        tt.new_game(2, seed=1, variants=[variant])


def test_a_scoring_hook_returning_no_function() -> None:
    class Scoring:
        @tt.hookimpl
        def tricky_treats_scoring(self) -> object:
            return 42

    with pytest.raises(tt.PluginError, match=r"'no-fn' .*tricky_treats_scoring returned 42"):
        tt.new_game(2, seed=1, variants=[_variant("no-fn", Scoring())])


def test_a_broken_board_is_caught_even_after_good_games() -> None:
    """Later games of a combination are checked cheaply; a short deck is still caught."""
    deals = iter([False, True])

    def change(board: tt.Board) -> tt.Board:
        return attrs.evolve(board, deck=board.deck[:-1]) if next(deals) else board

    variant = _variant("sometimes", _board_edit(change))
    tt.new_game(2, seed=1, variants=[variant])
    with pytest.raises(tt.PluginError, match=r"'sometimes'"):
        tt.new_game(2, seed=2, variants=[variant])


# -- scoring functions that fail ------------------------------------------------------------------


def _scoring(function: Callable[[tt.GameState, int], object], **declared: Any) -> tt.Variant:
    class Scoring:
        @tt.hookimpl
        def tricky_treats_scoring(self) -> object:
            return function

    return _variant("scorer", Scoring(), **declared)


def _raises(state: tt.GameState, player: int) -> object:
    raise ZeroDivisionError("no points today")


@pytest.mark.parametrize(
    ("function", "message"),
    [
        (_raises, r"scoring function failed for player 0: ZeroDivisionError: no points today"),
        (lambda s, p: 5, r"returned 5, not a sequence of ExtraScore"),
        (lambda s, p: [("bonus", 2)], r"returned \[\('bonus', 2\)\]"),
        (lambda s, p: [tt.ExtraScore("bonus", "2")], r"not a sequence of ExtraScore"),  # type: ignore[arg-type]
        (lambda s, p: [tt.ExtraScore("bonus", True)], r"not a sequence of ExtraScore"),
        (lambda s, p: None, r"returned None"),
    ],
)
def test_a_broken_scoring_function_names_the_variant(
    function: Callable[[tt.GameState, int], object], message: str
) -> None:
    game = tt.new_game(2, seed=1, variants=[_scoring(function)])
    expected = rf"variant 'scorer' from 'tricky-treats': .*{message}"
    with pytest.raises(tt.PluginError, match=expected):
        game.scores()
    with pytest.raises(tt.PluginError, match=expected):
        game.view(0)
    with pytest.raises(tt.PluginError, match=expected):
        tt.dumps(game, player=0)


# -- hidden information in variants' score lines --------------------------------------------------


def _secret_points(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
    """A scorer that reads the player's secret tile: hidden information."""
    return (tt.ExtraScore("secret", state.players[player].secret_tile.points),)


def test_other_players_extra_lines_are_hidden_until_the_end() -> None:
    game = tt.new_game(3, seed=4, variants=[_scoring(_secret_points)])
    final = tt.play_game(game, [tt.RandomAgent()] * 3, seed=4)[-1]
    for state in (game, final):
        sheets = state.scores()
        assert all(sheet.extras for sheet in sheets)  # full information: every line
    view = game.view(1)
    assert view.scores[1].extras == game.scores()[1].extras  # the viewer's own lines
    assert view.scores[0].extras == ()
    assert view.scores[2].extras == ()
    full = game.scores()[0]
    hidden = full.trick_tiles[0].points + sum(extra.points for extra in full.extras)
    assert view.scores[0].total == full.total - hidden
    end = final.view(1)
    assert [s.extras for s in end.scores] == [s.extras for s in final.scores()]
    assert tt.loads_view(tt.dumps(game, player=1)).scores[0].extras == ()


def test_a_variant_may_declare_its_lines_public() -> None:
    def pumpkins(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
        return (tt.ExtraScore("pumpkins again", state.players[player].pumpkins),)

    game = tt.new_game(3, seed=4, variants=[_scoring(pumpkins, public_scoring=True)])
    assert game.view(1).scores[0].extras == (tt.ExtraScore("pumpkins again", 0),)


def test_the_family_variant_shows_its_public_bonus() -> None:
    family = tt.get_variant("family")
    assert family.public_scoring
    final = tt.play_game(tt.new_game(2, seed=6, variants=["family"]), [tt.RandomAgent()] * 2)
    before_end = final[-2]
    assert before_end.view(0).scores[1].extras == before_end.scores()[1].extras


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Callable[[tt.Variant], None]:
    """Register variants for the test alone, as an installed distribution would."""
    extra: list[tt.Variant] = []

    def registry() -> plugins.VariantRegistry:
        return plugins.VariantRegistry((*BUILTIN_VARIANTS, *extra), entry_points=[])

    original = plugins.variant_registry
    for module in list(sys.modules.values()):  # every module that imported the function
        name = module.__name__
        if (
            name.startswith("tricky_treats")
            and getattr(module, "variant_registry", None) is original
        ):
            monkeypatch.setattr(module, "variant_registry", registry)
    return extra.append


@pytest.mark.parametrize("players", [2, 3])
def test_the_conformance_kit_catches_a_leaking_public_scorer(
    registered: Callable[[tt.Variant], None], players: int
) -> None:
    registered(attrs.evolve(_scoring(_secret_points, public_scoring=True), name="leaky"))
    with pytest.raises(AssertionError, match=r"view shows hidden information"):
        check_variant(["leaky"], players=[players], games=1)


def test_the_conformance_kit_catches_an_own_line_reading_the_deck(
    registered: Callable[[tt.Variant], None],
) -> None:
    def next_card(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
        deck = state.setup.deck[state.deck_position :]
        return (tt.ExtraScore("peek", deck[0].id if deck else 0),)

    registered(attrs.evolve(_scoring(next_card), name="peek"))
    with pytest.raises(AssertionError, match=r"view shows hidden information"):
        check_variant(["peek"], players=[2], games=1)


def test_the_conformance_kit_accepts_a_hidden_scorer_of_secret_tiles(
    registered: Callable[[tt.Variant], None],
) -> None:
    registered(attrs.evolve(_scoring(_secret_points), name="secretive"))
    assert check_variant(["secretive"], players=[2, 3], games=1) > 0

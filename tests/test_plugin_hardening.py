"""Plugins that misbehave get PluginError naming the variant; hidden information in scorers.

Issue 10: an edit hook that returns the wrong kind of value is caught when the game is
created; a scoring function that fails or returns the wrong type is caught in ``scores()``,
``view()`` and ``dumps(game, player=...)``; other players' variant score lines stay hidden
in views until the end unless the variant declares them public; the conformance kit
catches a scorer whose visible lines read hidden information.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

import tricky_treats as tt
from tests.registry import registered_variants
from tricky_treats import plugins
from tricky_treats.components import base_components
from tricky_treats.host import Table
from tricky_treats.testing import check_state, check_variant
from tricky_treats.variants import base


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
    """The rules' own ranges and types hold for values a plugin builds (issue 10); the error
    names the variant, its hook and the kind of error, and keeps the text for ``detail``
    (issue 37: a plugin's error is a PluginError, whatever its kind)."""

    class Rules:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData) -> tt.RulesData:
            return attrs.evolve(rules, **change)

    variant = _variant("bad-rules", Rules())
    with pytest.raises(
        tt.PluginError,
        match=r"^variant 'bad-rules' from 'tricky-treats': tricky_treats_rules failed "
        r"\(ComponentDataError\)$",
    ) as caught:
        tt.new_game(2, seed=1, variants=[variant])
    assert caught.value.detail is not None
    assert re.search(message, caught.value.detail)
    assert isinstance(caught.value.__cause__, tt.ComponentDataError)


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
    ("function", "message", "detail"),
    [
        (
            _raises,
            r"scoring function failed for player 0 \(ZeroDivisionError\)$",
            "ZeroDivisionError: no points today",
        ),
        (lambda s, p: 5, r"not a list of at most 16 ExtraScore", "it returned 5"),
        (lambda s, p: [("bonus", 2)], r"not a list", "line 0 is ('bonus', 2)"),
        (lambda s, p: [tt.ExtraScore("bonus", "2")], r"not a list", "line 0 has points '2'"),  # type: ignore[arg-type]
        (lambda s, p: [tt.ExtraScore("bonus", True)], r"not a list", "line 0 has points True"),
        (lambda s, p: None, r"not a list", "it returned None"),
    ],
)
def test_a_broken_scoring_function_names_the_variant(
    function: Callable[[tt.GameState, int], object], message: str, detail: str
) -> None:
    game = tt.new_game(2, seed=1, variants=[_scoring(function)])
    expected = rf"variant 'scorer' from 'tricky-treats': .*{message}"
    with pytest.raises(tt.PluginError, match=expected) as caught:
        game.scores()
    assert caught.value.detail == detail
    with pytest.raises(tt.PluginError, match=expected):
        game.view(0)
    with pytest.raises(tt.PluginError, match=expected):
        tt.dumps(game, player=0)


# -- hidden information in variants' score lines --------------------------------------------------


def _secret_points(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
    """A scorer that reads the player's secret tile: hidden information."""
    return (tt.ExtraScore("secret", state.players[player].secret_tile.points),)


def test_other_players_extra_lines_are_hidden_until_the_end(
    registered: Callable[[tt.Variant], None],
) -> None:
    secretive = _scoring(_secret_points)
    registered(secretive)
    game = tt.new_game(3, seed=4, variants=[secretive])
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
def registered() -> Iterator[Callable[[tt.Variant], None]]:
    """Register variants for the test alone, as an installed distribution would."""
    with registered_variants() as extra:
        yield extra.append


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


# -- issue 27: plugins that end the host, flood a record or copy a tile ---------------------------


class _HostileExit(BaseException):
    """Neither an Exception nor KeyboardInterrupt: a plugin must not end the host with it."""


_EXITS: list[Callable[[], BaseException]] = [
    lambda: SystemExit(3),
    lambda: GeneratorExit(),
    lambda: _HostileExit("the secret tile is pair-gummy"),
]


def _hook(hook: str, function: Callable[..., object]) -> object:
    """A plugin implementing ``hook`` (which takes ``config``) with ``function``."""

    class Plugin:
        pass

    def implementation(config: tt.GameConfig) -> object:
        return function()

    implementation.__name__ = hook
    setattr(Plugin, hook, staticmethod(tt.hookimpl(implementation)))
    return Plugin()


@pytest.mark.parametrize("exit", _EXITS)
@pytest.mark.parametrize(
    "hook",
    [
        "tricky_treats_components",
        "tricky_treats_costume_cards",
        "tricky_treats_rules",
        "tricky_treats_deal",
        "tricky_treats_board",
        "tricky_treats_scoring",
    ],
)
def test_a_hook_raising_a_base_exception_gets_plugin_error(
    hook: str, exit: Callable[[], BaseException]
) -> None:
    """SystemExit and the like from a hook become PluginError in new_game (issue 27, 10)."""

    def raises() -> object:
        raise exit()

    variant = _variant("exits", _hook(hook, raises))
    with pytest.raises(tt.PluginError, match=rf"variant 'exits' .*{hook} failed") as caught:
        tt.new_game(2, seed=1, variants=[variant])
    assert type(caught.value.__cause__) is type(exit())
    assert "pair-gummy" not in str(caught.value)


@pytest.mark.parametrize("exit", _EXITS)
def test_a_scorer_raising_a_base_exception_gets_plugin_error(
    exit: Callable[[], BaseException],
) -> None:
    """scores(), view() and both dumps() turn it into PluginError (issue 27, item 10)."""

    def raises(state: tt.GameState, player: int) -> object:
        raise exit()

    game = tt.new_game(2, seed=1, variants=[_scoring(raises)])
    for call in (game.scores, lambda: game.view(1), lambda: tt.dumps(game, player=0)):
        with pytest.raises(tt.PluginError, match=r"scoring function failed for player"):
            call()


def test_keyboard_interrupt_from_a_plugin_still_stops_the_program() -> None:
    def interrupted(state: tt.GameState, player: int) -> object:
        raise KeyboardInterrupt

    game = tt.new_game(2, seed=1, variants=[_scoring(interrupted)])
    with pytest.raises(KeyboardInterrupt):
        game.scores()


_BIG = 10**5000


@pytest.mark.parametrize(
    ("lines", "detail"),
    [
        ([tt.ExtraScore("x", _BIG)], r"line 0 has points of 16610 bits"),
        ([tt.ExtraScore("x", -plugins.MAX_EXTRA_POINTS - 1)], r"line 0 has points of"),
        ([tt.ExtraScore("fine", 1), tt.ExtraScore("\ud800", 1)], r"line 1 .*lone surrogate"),
        ([tt.ExtraScore("bell\x07", 1)], r"line 0 .*control character"),
        ([tt.ExtraScore("", 1)], r"line 0 has the label ''"),
        ([tt.ExtraScore("x" * (plugins.MAX_LABEL_LENGTH + 1), 1)], r"line 0 has the label"),
        ([tt.ExtraScore(f"line {i}", 1) for i in range(100_000)], r"100,000 lines"),
        ([tt.ExtraScore("x", 1)] * (plugins.MAX_EXTRA_LINES + 1), r"17 lines"),
    ],
)
def test_a_scorer_output_out_of_bounds_gets_plugin_error(
    lines: list[tt.ExtraScore], detail: str
) -> None:
    """Scorer output is checked like every hook's (issue 27, items 11 and 12): no
    non-library error in dumps(player=) or a Table message, no record loads_view refuses."""
    game = tt.new_game(2, seed=1, variants=[_scoring(lambda s, p: lines)])
    with pytest.raises(tt.PluginError, match=r"'scorer' .*not a list of at most 16") as caught:
        tt.dumps(game, player=0)
    assert re.search(detail, caught.value.detail or "")
    assert len(str(caught.value)) < 500
    table = Table(game, bots={1: "random"})
    with pytest.raises(tt.PluginError):
        table.connect(table.credential(0)).text  # noqa: B018 - rendering is the test


def test_the_largest_scorer_output_allowed_loads_as_a_player_record(
    registered: Callable[[tt.Variant], None],
) -> None:
    """Lines at every bound, for the most players, still make a record loads_view reads."""
    label = "\U0001f383" * plugins.MAX_LABEL_LENGTH  # 4 bytes each in UTF-8
    lines = [tt.ExtraScore(label, -plugins.MAX_EXTRA_POINTS)] * plugins.MAX_EXTRA_LINES
    most_variants = 16  # a game combines at most 16 variants
    scorers = [
        attrs.evolve(_scoring(lambda s, p: lines, public_scoring=True), name=f"wide-{i}")
        for i in range(most_variants)
    ]
    for scorer in scorers:
        registered(scorer)
    game = tt.new_game(4, seed=1, variants=scorers)
    view = tt.loads_view(tt.dumps(game, player=2))
    assert view.scores[0].extras == tuple(lines) * most_variants


def test_a_board_hook_adding_a_mean_house_is_refused() -> None:
    """A board loads_view refuses is never dealt (issue 27, item 12)."""
    variant = _variant(
        "mean",
        _board_edit(lambda b: attrs.evolve(b, mean_houses=(*b.mean_houses, b.mean_houses[0]))),
    )
    with pytest.raises(tt.PluginError, match=r"'mean' .*4 mean houses, not 3"):
        tt.new_game(2, seed=3, variants=[variant])


def test_a_deal_hook_valid_only_the_first_time_is_caught_every_time() -> None:
    """Every board a variant deals is checked in full, not only the first (issue 27, 12)."""
    deals = iter(range(3))

    class Deal:
        @tt.hookimpl
        def tricky_treats_deal(
            self,
            config: tt.GameConfig,
            components: tt.ComponentData,
            rules: tt.RulesData,
            rng: random.Random,
        ) -> tt.Board:
            board = base.tricky_treats_deal(config, components, rng)
            if next(deals) == 0:
                return board
            houses = board.mean_houses
            # The same tile on two mean houses: the counts still look right.
            return attrs.evolve(
                board,
                mean_houses=(houses[0], attrs.evolve(houses[1], tile=houses[0].tile), houses[2]),
            )

    variant = _variant("once", Deal())
    tt.new_game(2, seed=1, variants=[variant])
    with pytest.raises(tt.PluginError, match=r"'once' .*tricky_treats_deal .*trick tile in two"):
        tt.new_game(2, seed=2, variants=[variant])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (  # every player gets the tile lying on mean house 0: it would be public
            lambda b: attrs.evolve(b, secret_tiles=(b.mean_houses[0].tile,) * len(b.secret_tiles)),
            r"trick tile in two places",
        ),
        (  # a tile from the box that the deal left out replaces a secret tile
            lambda b: attrs.evolve(b, secret_tiles=(_spare_tile(b), *b.secret_tiles[1:])),
            r"other trick tiles than the deal's",
        ),
        (
            lambda b: attrs.evolve(
                b, secret_tiles=(attrs.evolve(b.secret_tiles[0], points=99), *b.secret_tiles[1:])
            ),
            r"trick tile that is not the box's",
        ),
        (
            lambda b: attrs.evolve(b, grid=(b.grid[1], *b.grid[1:])),
            r"nice neighbour in two houses",
        ),
        (
            lambda b: attrs.evolve(
                b,
                deck=(
                    attrs.evolve(
                        b.deck[0],
                        colour=b.deck[1].colour
                        if b.deck[0].colour != b.deck[1].colour
                        else b.deck[2].colour,
                    ),
                    *b.deck[1:],
                ),
            ),
            r"card that differs from the box's",
        ),
        (
            lambda b: attrs.evolve(b, street_tokens=(b.street_tokens[0],) * len(b.street_tokens)),
            r"street bonus tokens are not the box's",
        ),
    ],
)
def test_a_board_hook_cannot_make_or_copy_components(
    change: Callable[[tt.Board], object], message: str
) -> None:
    """Components neither appear nor vanish, as the hookspec says (issue 27, item 13)."""
    variant = _variant("copier", _board_edit(change))
    with pytest.raises(tt.PluginError, match=rf"'copier' .*{message}"):
        tt.new_game(3, seed=3, variants=[variant])


def _spare_tile(board: tt.Board) -> tt.TrickTile:
    in_play = {t.id for t in board.secret_tiles} | {m.tile.id for m in board.mean_houses}
    box = base_components().trick_tiles
    return next(t for t in box if t.id not in in_play)


def test_a_board_hook_may_move_components(registered: Callable[[tt.Variant], None]) -> None:
    """Swapping a secret tile with a mean house's tile keeps every component: allowed."""

    def swap(board: tt.Board) -> tt.Board:
        house = board.mean_houses[0]
        return attrs.evolve(
            board,
            secret_tiles=(house.tile, *board.secret_tiles[1:]),
            mean_houses=(attrs.evolve(house, tile=board.secret_tiles[0]), *board.mean_houses[1:]),
        )

    plain = tt.new_game(2, seed=3)
    mover = _variant("mover", _board_edit(swap))
    registered(mover)
    game = tt.new_game(2, seed=3, variants=[mover])
    assert game.setup.secret_tiles[0] == plain.setup.mean_houses[0].tile
    assert tt.loads_view(tt.dumps(game, player=0)).secret_tiles[0] == game.setup.secret_tiles[0]


# -- issue 27, item 14: symmetric leaks, and plugin text kept from players ------------------------


def _top_and_bottom(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
    """An own line: "the next card is one of [top, bottom]" (the same if the deck reverses)."""
    rest = state.setup.deck[state.deck_position :]
    if not rest:
        return ()
    return (tt.ExtraScore(f"next card one of {sorted({rest[0].id, rest[-1].id})}", 0),)


def _others_tiles(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
    """An own line listing the sorted set of the other players' tiles (the same if swapped)."""
    others = sorted(p.secret_tile.id for i, p in enumerate(state.players) if i != player)
    return (tt.ExtraScore(",".join(others)[: plugins.MAX_LABEL_LENGTH], 0),)


@pytest.mark.parametrize("scorer", [_top_and_bottom, _others_tiles])
@pytest.mark.parametrize("players", [3, 4])
def test_the_conformance_kit_catches_a_symmetric_leak(
    registered: Callable[[tt.Variant], None],
    scorer: Callable[[tt.GameState, int], Sequence[tt.ExtraScore]],
    players: int,
) -> None:
    registered(attrs.evolve(_scoring(scorer), name="symmetric"))
    with pytest.raises(AssertionError, match=r"view shows hidden information"):
        check_variant(["symmetric"], players=[players], games=1)


def test_a_scorer_error_reaches_players_without_the_plugin_text() -> None:
    """A scorer's exception text may hold secrets: a Table's error for the client has none
    of it, and the developer finds it in ``detail`` (issue 27, item 14)."""

    def tells(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
        if state.is_over:
            raise ValueError(f"secret tiles {[p.secret_tile.id for p in state.players]}")
        return ()

    states = tt.play_game(
        tt.new_game(2, seed=1, variants=[_scoring(tells)]), [tt.RandomAgent()] * 2
    )
    before_end, last = states[-2], states[-1].history[-1]
    table = Table(before_end)
    seat = before_end.current_player
    assert seat is not None
    move = json.dumps({"credential": table.credential(seat), "action": str(last)})
    (answer,) = table.handle(move)
    error = json.loads(answer.text)
    assert error["type"] == "error"
    assert "scoring function failed" in error["error"]
    secrets = [p.secret_tile.id for p in before_end.players]
    assert not any(secret in error["error"] for secret in secrets)
    with pytest.raises(tt.PluginError) as caught:
        before_end.apply_with_events(last)
    assert all(secret in (caught.value.detail or "") for secret in secrets)
    assert not any(secret in str(caught.value) for secret in secrets)


# -- issue 37: the seed is hidden too; a plugin's library errors are its own ----------------------


def _seed_digits(state: tt.GameState, player: int) -> Sequence[tt.ExtraScore]:
    """An own line that tells the seed, which deals the deck and every secret tile."""
    return (tt.ExtraScore(f"lucky number {state.config.seed % 1000}", 0),)


def test_the_conformance_kit_catches_a_scorer_that_shows_the_seed(
    registered: Callable[[tt.Variant], None],
) -> None:
    """Issue 37: ``seed % 1000`` in a player's own line was flagged in 0 of 48 states."""
    registered(attrs.evolve(_scoring(_seed_digits), name="seedy"))
    with pytest.raises(AssertionError, match=r"view shows hidden information"):
        check_variant(["seedy"], players=[2], games=1)
    game = tt.new_game(2, seed=5, variants=["seedy"])
    with pytest.raises(AssertionError, match=r"player 0's view shows hidden information"):
        check_state(game, "a fresh game")


def test_the_conformance_kit_still_passes_the_built_in_variants() -> None:
    """Changing the seed is no false alarm: nothing the library shows reads it."""
    assert check_variant(["family"], players=[2], games=1) > 0
    assert check_variant(["open-objectives"], players=[3], games=1) > 0


class _CustomError(tt.ConfigurationError):
    """A library error kind of a plugin's own, whose ``__init__`` takes other arguments."""

    def __init__(self, code: int, secret: str) -> None:
        super().__init__(f"error {code}: {secret}")


_HOOK_RAISING = [
    "tricky_treats_components",
    "tricky_treats_costume_cards",
    "tricky_treats_nice_neighbours",
    "tricky_treats_trick_tiles",
    "tricky_treats_rules",
    "tricky_treats_scoring",
    "tricky_treats_deal",
    "tricky_treats_board",
]


class _Raising:
    """A plugin whose ``hook`` raises ``error``."""

    def __init__(self, hook: str, error: Exception) -> None:
        def implementation() -> object:
            raise error

        setattr(self, hook, tt.hookimpl(implementation))


@pytest.mark.parametrize("hook", _HOOK_RAISING)
def test_a_hook_raising_a_library_error_with_its_own_init_gives_plugin_error(hook: str) -> None:
    """Issue 37: such an error gave TypeError in the plugin machinery (8 of 8 hooks)."""
    variant = _variant("custom-error", _Raising(hook, _CustomError(7, "the next card is 12")))
    with pytest.raises(tt.PluginError) as caught:
        tt.new_game(2, seed=1, variants=[variant])
    assert str(caught.value) == (
        f"variant 'custom-error' from 'tricky-treats': {hook} failed (_CustomError)"
    )
    assert caught.value.detail == "_CustomError: error 7: the next card is 12"
    assert isinstance(caught.value.__cause__, _CustomError)


@pytest.mark.parametrize(
    "error",
    [
        tt.ConfigurationError("secret tile of seat 1 is T07"),
        tt.ComponentDataError("secret tile of seat 1 is T07"),
        tt.PluginError("secret tile of seat 1 is T07"),
    ],
    ids=lambda error: type(error).__name__,
)
@pytest.mark.parametrize(
    "hook", ["tricky_treats_deal", "tricky_treats_board", "tricky_treats_rules"]
)
def test_a_library_error_a_plugin_raises_keeps_its_text_from_the_message(
    hook: str, error: tt.TrickyTreatsError
) -> None:
    """Issue 37: a library error raised by the deal, board or rules hook kept the plugin's
    own text in the message (3 of 3), which a host shows to players."""
    variant = _variant("talks", _Raising(hook, error))
    with pytest.raises(tt.PluginError) as caught:
        tt.new_game(2, seed=1, variants=[variant])
    assert "T07" not in str(caught.value)
    assert "T07" in str(caught.value.detail)


def test_a_built_in_variant_keeps_the_text_naming_a_users_own_file(tmp_path: Path) -> None:
    """The library's own variants are no plugin: card-data's error names the user's file."""
    missing = tmp_path / "no-such-box.toml"
    with pytest.raises(tt.ComponentDataError, match=r"no-such-box\.toml: cannot read"):
        tt.new_game(
            2, seed=1, variants=["card-data"], variant_options={"card-data": {"file": str(missing)}}
        )

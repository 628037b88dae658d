"""What the engine keeps between games and between states, and that it changes no result.

Issue 11: each combination of variants is resolved once and games are dealt without pluggy;
score sheets, views and histories share work between the states of a game. Issue 16: every
cache is bounded, also when every game brings fresh plugin objects. No test here times
anything: the figures are printed by ``benchmarks/bench_targets.py``.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from typing import Any

import attrs
import pluggy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tests import core_equivalence
from tricky_treats import plugins
from tricky_treats.model import ActionLog
from tricky_treats.variants import base


def _variant(name: str, plugin: object, **kwargs: Any) -> tt.Variant:
    return tt.Variant(
        name=name, version="0.1", title=name, description=name, plugin=plugin, **kwargs
    )


def _states(players: int, seed: int, **options: Any) -> list[tt.GameState]:
    game = tt.new_game(players, seed=seed, **options)
    return tt.play_game(game, [tt.RandomAgent()] * players, seed=seed)


# -- resolving once per combination --------------------------------------------------------------


def test_a_combination_is_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    plugins._RESOLUTIONS.clear()
    made: list[tuple[str, ...]] = []
    original = plugins.plugin_manager

    def counting(variants: Sequence[tt.Variant]) -> pluggy.PluginManager:
        made.append(tuple(v.name for v in variants))
        return original(variants)

    monkeypatch.setattr(plugins, "plugin_manager", counting)
    for seed in range(5):
        tt.new_game(3, seed=seed, variants=["family"])
        tt.new_game(["Ann", "Bo", "Cy"], seed=seed, first_player=2, variants=["family"])
    assert made == [("family",)]
    tt.new_game(2, seed=1, variants=["family"])  # another player count
    tt.new_game(3, seed=1, variants=["family"], refresh_ends_turn=True)  # another option
    tt.new_game(3, seed=1, variants=["open-objectives", "family"])  # another combination
    assert len(made) == 4


def test_dealing_never_calls_pluggy_once_resolved(monkeypatch: pytest.MonkeyPatch) -> None:
    tt.new_game(4, seed=0, variants=["family", "open-objectives"])

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("pluggy was called to deal a game")

    monkeypatch.setattr(pluggy.PluginManager, "_hookexec", forbidden)
    monkeypatch.setattr(plugins, "plugin_manager", forbidden)
    game = tt.new_game(4, seed=99, variants=["family", "open-objectives"])
    assert game.setup.secret_tiles_face_up
    assert len(game.setup.deck) == 36


def test_resolving_hooks_see_placeholders_not_the_first_games_names_or_seed() -> None:
    seen: list[tuple[tuple[str, ...], int, int]] = []

    class Recorder:
        @tt.hookimpl
        def tricky_treats_rules(self, config: tt.GameConfig) -> None:
            seen.append((config.players, config.seed, config.first_player))

    variant = _variant("recorder", Recorder())
    tt.new_game(["Ann", "Bo"], seed=123, first_player=1, variants=[variant])
    tt.new_game(["Cy", "Di"], seed=456, variants=[variant])
    assert seen == [(("Player 1", "Player 2"), 0, 0)]


def test_variant_options_are_part_of_the_combination() -> None:
    class Sized:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData, config: tt.GameConfig) -> tt.RulesData:
            points = config.variant_options["sized"]["points"]
            return attrs.evolve(rules, pumpkin_points=points)

    variant = _variant("sized", Sized())
    for points in (3, 4, 3):
        game = tt.new_game(
            2, seed=1, variants=[variant], variant_options={"sized": {"points": points}}
        )
        assert game.setup.rules.pumpkin_points == points


def test_the_deal_hook_gets_each_games_own_config_and_rng() -> None:
    dealt: list[tuple[tuple[str, ...], int]] = []

    class Watch:
        @tt.hookimpl
        def tricky_treats_board(self, board: tt.Board, config: tt.GameConfig) -> None:
            dealt.append((config.players, config.seed))

    variant = _variant("watch", Watch())
    first = tt.new_game(["Ann", "Bo"], seed=5, variants=[variant])
    second = tt.new_game(["Cy", "Di"], seed=6, variants=[variant])
    assert dealt == [(("Ann", "Bo"), 5), (("Cy", "Di"), 6)]
    assert first.setup.deck == tt.new_game(2, seed=5).setup.deck
    assert second.setup.deck != first.setup.deck


def test_a_failed_resolution_is_not_kept() -> None:
    fail = [True]

    class Flaky:
        @tt.hookimpl
        def tricky_treats_rules(self) -> None:
            if fail[0]:
                raise RuntimeError("not yet")

    variant = _variant("flaky", Flaky())
    with pytest.raises(tt.PluginError, match="tricky_treats_rules failed") as failed:
        tt.new_game(2, seed=1, variants=[variant])
    assert failed.value.detail is not None
    assert "not yet" in failed.value.detail
    fail[0] = False
    assert tt.new_game(2, seed=1, variants=[variant]).config.variants[0].name == "flaky"


# -- bounded caches (issue 16) --------------------------------------------------------------------


def test_caches_stay_bounded_with_fresh_plugin_objects() -> None:
    """A program that makes new plugin objects for every game must not fill memory."""

    class Fresh:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData) -> tt.RulesData:
            return rules

    games = plugins.RESOLUTION_CACHE_SIZE + 50
    for seed in range(games):
        tt.new_game(2, seed=seed, variants=[_variant("fresh", Fresh())])
    assert len(plugins._RESOLUTIONS) <= plugins.RESOLUTION_CACHE_SIZE
    assert len(plugins._GameManager._impl_opts) <= plugins._GameManager._impl_opts.maxsize
    assert len(plugins._GameManager._spec_opts) <= plugins._GameManager._spec_opts.maxsize


def test_the_bounded_cache_drops_the_least_recently_used() -> None:
    cache: plugins._BoundedCache[str, int] = plugins._BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    assert len(cache) == 2


# -- the simulator's per-game lookup tables --------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    configuration=st.sampled_from(core_equivalence.CONFIGURATIONS[:-1]),  # the core's
)
def test_a_simulator_made_mid_game_qualifies_the_houses_the_rules_qualify(
    seed: int, players: int, configuration: dict[str, Any]
) -> None:
    """A simulator made of a state mid-game works out from each board's feature counts
    which nice houses it reaches (a lookup table of the houses' lowest tiers): its legal
    actions, scores and the states it plays into are those of the rules, move after move."""
    states = _states(players, seed, **core_equivalence.options_for(players, configuration))
    rng = random.Random(seed)
    for state in states[:: max(1, len(states) // 6)]:
        sim = tt.Simulator(state)
        assert sim.fast
        game = state
        for _ in range(8):
            assert sim.legal_codes() == [game.action_space.encode(a) for a in game.legal_actions()]
            assert sim.scores() == tuple(sheet.total for sheet in game.scores())
            if game.is_over:
                break
            action = rng.choice(game.legal_actions())
            sim.play(game.action_space.encode(action))
            game = game.apply(action)
            assert sim.state() == game


# -- dealing: the same games from the same seeds -------------------------------------------------


def _plain_deal(box: tt.ComponentData, rng: random.Random) -> list[list[Any]]:
    """The rulebook's setup written out: ``rng.shuffle`` of each list of the box in turn."""
    lists: list[list[Any]] = [
        list(box.nice_neighbours),
        list(box.house_treat_tokens),
        list(box.street_bonus_tokens),
        list(box.trick_tiles),
        list(box.cards),
    ]
    for items in lists:
        rng.shuffle(items)
    return lists


class _WatchedDeal:
    """A variant's deal: the base game's, after noting the rng it was given."""

    def __init__(self) -> None:
        self.given: list[tuple[type, object]] = []

    @tt.hookimpl
    def tricky_treats_deal(
        self, config: tt.GameConfig, components: tt.ComponentData, rng: random.Random
    ) -> tt.Board:
        self.given.append((type(rng), rng.getstate()))
        return base.tricky_treats_deal(config, components, rng)


_WATCHED = _WatchedDeal()
_WATCHING = _variant("watched-deal", _WATCHED)


@given(seed=st.integers(min_value=0, max_value=2**128 - 1))
def test_a_game_random_is_seeded_as_random_random_seeds(seed: int) -> None:
    """The deal hook gets ``random.Random(seed)`` itself, as the hook's specification says."""
    _WATCHED.given.clear()
    game = tt.new_game(2, seed=seed, variants=[_WATCHING])
    assert _WATCHED.given == [(random.Random, random.Random(seed).getstate())]
    assert game.setup.deck == tt.new_game(2, seed=seed).setup.deck


def test_the_fast_shuffle_is_in_use_here() -> None:
    assert base._FAST  # this Python's shuffle agrees, so dealing takes the fast path


def test_a_subclass_of_random_is_shuffled_by_its_own_shuffle() -> None:
    """The base game's deal hook, given another kind of ``random.Random``, calls its shuffle
    (the fast shuffle is for ``random.Random`` itself)."""

    class Reversed(random.Random):
        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
            x.reverse()

    box = tt.base_components()
    board = base.tricky_treats_deal(tt.new_game(2, seed=1).config, box, Reversed(1))
    assert board.deck == tuple(reversed(box.cards))
    assert board.street_tokens == tuple(reversed(box.street_bonus_tokens))


@st.composite
def _boxes(draw: st.DrawFn) -> tt.ComponentData | None:
    """None (the base game's own box), or a box with other numbers of neighbours, tiles, cards."""
    if draw(st.booleans()):
        return None
    box = tt.base_components()
    copies = draw(st.integers(0, 10))
    neighbours = box.nice_neighbours + tuple(
        attrs.evolve(n, id=f"{n.id}-2") for n in box.nice_neighbours[:copies]
    )
    tiles = box.trick_tiles[: draw(st.integers(7, 9))] + tuple(
        attrs.evolve(t, id=f"{t.id}-2") for t in box.trick_tiles[: draw(st.integers(0, 9))]
    )
    cards = tuple(
        attrs.evolve(c, id=i) for i, c in enumerate(box.cards[: draw(st.integers(20, 72))])
    )
    return attrs.evolve(
        box, name="edited", nice_neighbours=neighbours, trick_tiles=tiles, cards=cards
    )


@given(seed=st.integers(min_value=0, max_value=2**63), players=st.integers(2, 4), box=_boxes())
def test_a_seed_deals_the_same_board_as_a_plain_shuffle(
    seed: int, players: int, box: tt.ComponentData | None
) -> None:
    """The base game's deal, written out with ``random.shuffle`` as the rulebook's setup."""
    game = tt.new_game(players, seed=seed, components=box)
    box = box or tt.base_components()
    neighbours, tokens, streets, tiles, deck = _plain_deal(box, random.Random(seed))
    mean = len(box.mean_neighbours)
    assert [(h.neighbour, h.treat) for h in game.setup.grid] == list(
        zip(neighbours[:9], tokens, strict=True)
    )
    assert list(game.setup.street_tokens) == streets
    assert [(m.neighbour, m.tile) for m in game.setup.mean_houses] == list(
        zip(box.mean_neighbours, tiles[:mean], strict=True)
    )
    assert list(game.setup.secret_tiles) == tiles[mean : mean + players]
    assert list(game.setup.deck) == deck


@given(seed=st.integers(min_value=0, max_value=2**64), box=_boxes())
def test_the_deal_leaves_the_games_random_as_plain_shuffles_leave_it(
    seed: int, box: tt.ComponentData | None
) -> None:
    """The deal draws what ``random.shuffle`` draws, no more, no less: a variant's hook that
    draws from the game's ``rng`` after it draws what it would after plain shuffles."""
    box = box or tt.base_components()
    fast, reference = random.Random(seed), random.Random(seed)
    board = base.tricky_treats_deal(tt.new_game(3, seed=1).config, box, fast)
    deck = _plain_deal(box, reference)[-1]
    assert list(board.deck) == deck
    assert fast.getstate() == reference.getstate()


# -- scores and views: shared work, same answers --------------------------------------------------


def _fresh_sheets(state: tt.GameState) -> tuple[tt.ScoreSheet, ...]:
    """The score sheets worked out from nothing: on a copy of the state that shares nothing."""
    players = tuple(attrs.evolve(p) for p in state.players)
    setup = attrs.evolve(state.setup)
    return attrs.evolve(state, setup=setup, players=players).scores()


@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), order=st.randoms())
def test_scores_and_views_do_not_depend_on_what_was_asked_before(
    seed: int, players: int, order: random.Random
) -> None:
    states = _states(players, seed, variants=["family"])
    played = tt.play_game(
        tt.new_game(players, seed=seed, variants=["family"]),
        [tt.RandomAgent()] * players,
        seed=seed,
    )
    # In order on one copy of the game, in a random order on another: the same answers.
    sequential = [(s.scores(), [s.view(p) for p in range(players)]) for s in states]
    shuffled = list(range(len(played)))
    order.shuffle(shuffled)
    answers: dict[int, Any] = {}
    for index in shuffled:
        state = played[index]
        viewers = list(range(players))
        order.shuffle(viewers)
        views = {p: state.view(p) for p in viewers}
        answers[index] = (state.scores(), [views[p] for p in range(players)])
    assert [answers[i] for i in range(len(played))] == sequential
    for state in states[:: max(1, len(states) // 5)]:
        assert state.scores() == _fresh_sheets(state)


def test_histories_are_right_on_every_branch() -> None:
    states = _states(3, 5)
    for state in states:
        assert state.history == tuple(_walk(state.log))
    later = states[-1].history
    assert states[-2].history == later[:-1]
    # Branches from one state (as search does): each history is its own.
    root = states[10]
    for action in root.legal_actions():
        branch = root.apply(action)
        assert branch.history == (*root.history, action)
        assert branch.history == tuple(_walk(branch.log))


def _walk(log: ActionLog) -> list[tt.Action]:
    actions: list[tt.Action] = []
    while log is not None:
        actions.append(log[0])
        log = log[1]
    return actions[::-1]


# Views and sheets built from nothing, the plain way, to check what the engine shares.


class _TurnBonus:
    """A scorer that reads more than the board (the turn), private to its player."""

    @tt.hookimpl
    def tricky_treats_scoring(self) -> Any:
        return lambda state, player: [tt.ExtraScore("turn", state.turn + player)]


class _TrackBonus:
    """A public scorer that reads the board alone, but does not say so."""

    @tt.hookimpl
    def tricky_treats_scoring(self) -> Any:
        return lambda state, player: [tt.ExtraScore("tracks", sum(state.players[player].treats))]


_VARIANT_SETS: list[list[Any]] = [
    [],
    ["family"],
    ["open-objectives"],
    ["family", "open-objectives"],
    ["any-mean-house"],
    [_variant("turn-bonus", _TurnBonus())],
    [_variant("track-bonus", _TrackBonus(), public_scoring=True), "family"],
]


def _reference_sheet(
    state: tt.GameState, player: int, *, secret_tile: bool, extras: bool
) -> tt.ScoreSheet:
    """A sheet by the rules (R12 to R14, R24), from the state's plain fields."""
    setup = state.setup
    board = state.players[player]
    counts = dict(zip(tt.Treat, board.treats, strict=True))
    tiles: list[tuple[tt.TrickTile, int | None]] = []
    if secret_tile:
        tiles.append((board.secret_tile, None))
    tiles += [(setup.mean_houses[house].tile, house) for house in sorted(board.tricked)]
    scores = []
    for tile, house in tiles:
        sets = tile.sets(counts)
        scores.append(tt.TileScore(tile, house, sets, sets * tile.points))
    lines: list[tt.ExtraScore] = []
    for scorer in setup.scorers:
        if extras or getattr(scorer, "public", False):
            lines += scorer(state, player)
    return tt.ScoreSheet(
        player,
        board.pumpkins * setup.rules.pumpkin_points,
        tuple(tt.costume_points(kid) for kid in board.kids),
        tuple(scores),
        tuple(lines),
    )


def _reference_view(state: tt.GameState, player: int) -> tt.PlayerView:
    """``player``'s view by R16, built with the public constructors from the plain fields."""
    setup = state.setup
    over = state.is_over
    shown = over or setup.secret_tiles_face_up
    secret = tuple(
        board.secret_tile if shown or seat == player else None
        for seat, board in enumerate(state.players)
    )
    in_sight = {t.id for t in secret if t is not None} | {m.tile.id for m in setup.mean_houses}
    unseen = sorted(
        (t for t in setup.components.trick_tiles if t.id not in in_sight), key=lambda t: t.id
    )
    options = setup.config.variant_options
    return tt.PlayerView(
        player=player,
        first_player=setup.config.first_player,
        variants=setup.config.variants,
        variant_options={name: dict(value) for name, value in options.items()},
        rules=setup.rules,
        players=tuple(
            tt.PublicPlayer(
                b.name, b.kids, b.treats, b.pumpkins, b.visited, b.tricked, b.footprints
            )
            for b in state.players
        ),
        secret_tiles=secret,
        unseen_tiles=tuple(unseen),
        grid=setup.grid,
        street_tokens=setup.street_tokens,
        street_flipped=state.street_flipped,
        mean_houses=setup.mean_houses,
        pumpkin_on_house=state.pumpkin_on_house,
        pumpkin_on_mean_house=state.pumpkin_on_mean_house,
        market=state.market,
        deck_size=len(setup.deck) - state.deck_position,
        deck_cards=tuple(sorted(setup.deck[state.deck_position :], key=lambda c: c.id)),
        discarded=state.discarded,
        current_player=state.current_player,
        turn=state.turn,
        passes_in_a_row=state.passes_in_a_row,
        end_trigger=state.end_trigger,
        scores=tuple(
            _reference_sheet(state, p, secret_tile=shown or p == player, extras=over or p == player)
            for p in range(len(state.players))
        ),
        history=tuple(_walk(state.log)),
        legal_actions=state.legal_actions() if state.current_player == player else (),
    )


@settings(max_examples=30)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    variants=st.sampled_from(_VARIANT_SETS),
    order=st.randoms(),
)
def test_views_and_scores_are_those_built_from_nothing(
    seed: int, players: int, variants: list[Any], order: random.Random
) -> None:
    """Whatever was asked before, on whichever states: the answer built the plain way.

    States are asked in game order (as a server does), in random order, from branches of an
    earlier state, and from the end back to the start, so that every memo is used and
    replaced; a stale or another seat's answer would differ from the reference.
    """
    states = _states(players, seed, variants=variants)
    middle = states[len(states) // 2]
    branches = [middle.apply(action) for action in middle.legal_actions()[:3]]
    asked = [*states, *branches, *states[::-1]]
    asked += [order.choice(asked) for _ in range(len(asked))]
    for index, state in enumerate(asked):
        seats = list(range(players))
        if index % 3:
            seats = [order.randrange(players)]
        for seat in seats:
            assert state.view(seat) == _reference_view(state, seat)
        if order.random() < 0.5:
            expected = [
                _reference_sheet(state, p, secret_tile=True, extras=True) for p in range(players)
            ]
            assert list(state.scores()) == expected


def test_views_follow_a_scorer_that_reads_more_than_the_boards() -> None:
    """Sheets are shared between states with the same boards only where that is safe."""
    game = tt.new_game(3, seed=4, variants=[_variant("turn-bonus", _TurnBonus())])
    later = attrs.evolve(game, turn=game.turn + 5)  # the same boards, another turn
    assert later.players is game.players
    assert game.view(0).scores[0].extras == (tt.ExtraScore("turn", 0),)
    assert later.view(0).scores[0].extras == (tt.ExtraScore("turn", 5),)
    assert later.scores()[1].extras == (tt.ExtraScore("turn", 6),)
    assert later.view(0).scores[1].extras == ()  # not public: hidden until the end (R16)


def test_a_board_moved_to_another_seat_is_scored_for_that_seat() -> None:
    game = _states(3, 6)[12]
    for seat in range(3):
        game.view(seat)
    first, second, third = game.players
    swapped = attrs.evolve(game, players=(second, first, third))
    for seat in range(3):
        assert swapped.view(seat) == _reference_view(swapped, seat)
    assert [sheet.player for sheet in swapped.scores()] == [0, 1, 2]


def test_views_of_one_state_share_nothing_mutable() -> None:
    """The options dict is each view's own; everything else in a view is immutable."""
    from pathlib import Path

    box = str(Path(tt.__file__).parent / "data" / "base.toml")
    options = {"card-data": {"file": box}}
    game = tt.new_game(3, seed=2, variants=["card-data"], variant_options=options)
    first, second = game.view(0), game.view(1)
    assert first.variant_options == second.variant_options
    assert first.variant_options is not second.variant_options
    first.variant_options["card-data"]["file"] = "elsewhere.toml"
    assert game.view(0).variant_options == options


def test_a_view_of_a_hand_built_state_uses_its_own_secret_tiles() -> None:
    from tests.boards import tile, with_player

    game = tt.new_game(3, seed=8)
    game.view(0)
    changed = with_player(game, 0, secret_tile=tile("three-gummy"))
    assert changed.view(0).secret_tile == tile("three-gummy")
    assert tile("three-gummy") not in changed.view(0).unseen_tiles


# -- keeping states: nothing for the garbage collector to untangle --------------------------------


def test_states_scores_and_views_make_no_reference_cycles() -> None:
    """Freed states go by reference counting alone, so keeping many costs the collector less."""
    gc.collect()
    gc.disable()
    try:
        states = _states(4, 11, variants=["family"])
        for state in states:
            state.scores()
            state.view(0)
            _ = state.history
        del states, state
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0


def test_card_data_reads_its_file_again_once_it_changed(tmp_path: Any) -> None:
    import os
    from pathlib import Path

    source = Path(tt.__file__).parent / "data" / "base.toml"
    path = tmp_path / "box.toml"
    text = source.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    options = {"card-data": {"file": str(path)}}
    first = tt.new_game(2, seed=1, variants=["card-data"], variant_options=options)
    assert first.setup.rules.footprints_per_player == 8
    path.write_text(
        text.replace("footprints_per_player = 8", "footprints_per_player = 5"), encoding="utf-8"
    )
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a visibly newer file
    again = tt.new_game(2, seed=1, variants=["card-data"], variant_options=options)
    assert again.setup.rules.footprints_per_player == 5

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
from hypothesis import given
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats import plugins
from tricky_treats.model import _MEMO_SIZE, FEATURES, ActionLog, _qualify
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
    with pytest.raises(tt.PluginError, match="not yet"):
        tt.new_game(2, seed=1, variants=[variant])
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


def test_a_games_memo_stays_small() -> None:
    states = _states(4, 3)
    for state in states:
        for player in range(4):
            state.view(player)
    memo = states[0].setup._memo
    assert memo is not None
    assert 0 < len(memo) <= _MEMO_SIZE


# -- the per-game lookup tables --------------------------------------------------------------------


@given(
    most=st.integers(0, 20),
    houses=st.lists(st.tuples(st.integers(0, len(FEATURES) - 1), st.integers(0, 25)), max_size=12),
)
def test_qualify_table_says_which_houses_a_count_reaches(
    most: int, houses: list[tuple[int, int]]
) -> None:
    """qualify[f][n] is the set of houses wanting feature f whose minimum n cards reach."""
    features = tuple(f for f, _ in houses)
    minimums = tuple(m for _, m in houses)
    table = _qualify(most, features, minimums)
    assert len(table) == len(FEATURES)
    for feature in range(len(FEATURES)):
        for n in range(most + 1):
            expected = sum(1 << h for h, (f, m) in enumerate(houses) if f == feature and m <= n)
            assert table[feature][n] == expected


# -- dealing: the same games from the same seeds -------------------------------------------------


@given(
    seed=st.integers(min_value=0, max_value=2**64),
    sizes=st.lists(st.integers(min_value=0, max_value=200), max_size=6),
)
def test_fast_shuffles_draw_what_random_shuffle_draws(seed: int, sizes: list[int]) -> None:
    fast, reference = random.Random(seed), random.Random(seed)
    sequences = [range(n) for n in sizes]
    assert base._fast_shuffles(fast, sequences) == base._reference_shuffles(reference, sequences)
    assert fast.getstate() == reference.getstate()


def test_the_fast_shuffle_is_in_use_here() -> None:
    assert base._FAST  # this Python's shuffle agrees, so dealing takes the fast path


def test_a_subclass_of_random_is_shuffled_by_its_own_shuffle() -> None:
    class Reversed(random.Random):
        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
            x.reverse()

    assert base._shuffled(Reversed(1), [range(4)]) == [[3, 2, 1, 0]]


@given(seed=st.integers(min_value=0, max_value=2**63), players=st.integers(2, 4))
def test_a_seed_deals_the_same_board_as_a_plain_shuffle(seed: int, players: int) -> None:
    """The base game's deal, written out with ``random.shuffle`` as the rulebook's setup."""
    box = tt.base_components()
    rng = random.Random(seed)
    lists: list[list[Any]] = [
        list(box.nice_neighbours),
        list(box.house_treat_tokens),
        list(box.street_bonus_tokens),
        list(box.trick_tiles),
        list(box.cards),
    ]
    for items in lists:
        rng.shuffle(items)
    neighbours, tokens, streets, tiles, deck = lists
    mean = len(box.mean_neighbours)
    game = tt.new_game(players, seed=seed)
    assert [(h.neighbour, h.treat) for h in game.setup.grid] == list(
        zip(neighbours[:9], tokens, strict=True)
    )
    assert list(game.setup.street_tokens) == streets
    assert [m.tile for m in game.setup.mean_houses] == tiles[:mean]
    assert list(game.setup.secret_tiles) == tiles[mean : mean + players]
    assert list(game.setup.deck) == deck


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


def test_sheets_of_a_board_are_shared_by_later_states() -> None:
    states = _states(4, 2)
    first, second = states[0], states[1]
    mover = first.current_player
    assert mover is not None
    first.scores()
    second.scores()
    for seat in range(4):
        same = first.scores()[seat] is second.scores()[seat]
        assert same == (seat != mover)  # only the mover's board changed


def test_history_tuples_are_shared_and_right_on_every_branch() -> None:
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

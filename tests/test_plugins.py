"""Variant plugins: hooks, discovery through entry points, built-in variants, conformance."""

from __future__ import annotations

import importlib.metadata
import inspect
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pluggy
import pytest

import tricky_treats as tt
from tests.boards import cards_with_icon, with_player
from tricky_treats import hookspecs, plugins
from tricky_treats.testing import check_variant
from tricky_treats.variants import BUILTIN_VARIANTS, base

ROOT = Path(__file__).parent.parent
SUGAR_RUSH = ROOT / "examples" / "sugar-rush"
BASE_DATA = Path(tt.__file__).parent / "data" / "base.toml"


# -- the hooks -------------------------------------------------------------------------------


def test_every_hookspec_is_documented() -> None:
    specs = [f for name, f in vars(hookspecs).items() if name.startswith("tricky_treats_")]
    assert len(specs) == 8
    for spec in specs:
        doc = inspect.getdoc(spec) or ""
        assert any(f"{kind} hook" in doc for kind in ("Edit", "Replace", "Collect")), spec.__name__
        assert "called" in (inspect.getdoc(hookspecs) or "").lower()  # the module says when


def test_hookimpl_is_exported() -> None:
    assert tt.hookimpl is hookspecs.hookimpl
    assert isinstance(tt.hookimpl, pluggy.HookimplMarker)


def test_the_base_game_implements_the_hooks_at_lowest_priority() -> None:
    manager = plugins.plugin_manager([])
    for hook in ("tricky_treats_components", "tricky_treats_rules", "tricky_treats_deal"):
        (implementation,) = getattr(manager.hook, hook).get_hookimpls()
        assert implementation.plugin is base
        assert implementation.trylast


def test_each_combination_has_its_own_plugin_manager(monkeypatch: pytest.MonkeyPatch) -> None:
    plugins._RESOLUTIONS.clear()  # resolved combinations are kept: start from none
    made: list[pluggy.PluginManager] = []
    original = plugins.plugin_manager

    def counting(variants: Any) -> pluggy.PluginManager:
        made.append(original(variants))
        return made[-1]

    monkeypatch.setattr(plugins, "plugin_manager", counting)
    tt.new_game(2, seed=1, variants=["family"])
    tt.new_game(2, seed=1)
    assert len(made) == 2
    assert made[0] is not made[1]
    assert made[0].has_plugin("family")
    assert not made[1].has_plugin("family")


def test_play_never_calls_pluggy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hooks are resolved once when a game is created; playing and scoring use the results."""
    game = tt.new_game(3, seed=2, variants=["family", "open-objectives"])

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("pluggy was called during play")

    monkeypatch.setattr(pluggy.PluginManager, "_hookexec", forbidden)
    monkeypatch.setattr(plugins, "_call", forbidden)
    monkeypatch.setattr(plugins, "plugin_manager", forbidden)
    states = tt.play_game(game, [tt.RandomAgent()] * 3, seed=2)
    assert states[-1].is_over
    assert all(sheet.extras for sheet in states[-1].scores())
    assert states[-1].view(0).players


# -- the built-in variants ---------------------------------------------------------------------


def test_builtin_variants_are_listed() -> None:
    names = {v.name for v in tt.available_variants()}
    assert {"any-mean-house", "card-data", "family", "open-objectives"} <= names
    for variant in BUILTIN_VARIANTS:
        assert variant.distribution == "tricky-treats"
        assert variant.version
        assert variant.title
        assert variant.description
        assert tt.get_variant(variant.name) is variant


def test_each_builtin_variant_uses_a_different_public_hook() -> None:
    manager = plugins.plugin_manager(BUILTIN_VARIANTS)
    hooks: dict[str, set[str]] = {}
    for hook in vars(hookspecs):
        if hook.startswith("tricky_treats_"):
            for implementation in getattr(manager.hook, hook).get_hookimpls():
                hooks.setdefault(implementation.plugin_name, set()).add(hook)
    assert set(hooks) == {"base"} | {v.name for v in BUILTIN_VARIANTS}
    for variant in BUILTIN_VARIANTS:
        others = set().union(
            *(h for name, h in hooks.items() if name not in ("base", variant.name))
        )
        assert hooks[variant.name] - others, f"{variant.name} uses no hook of its own"


def test_the_game_records_its_variants() -> None:
    game = tt.new_game(2, seed=1, variants=["open-objectives", "family"])
    assert game.config.variants == (
        tt.VariantRef("open-objectives", "1.0"),
        tt.VariantRef("family", "1.0"),
    )


def test_any_mean_house_variant_is_the_r4_option() -> None:
    game = tt.new_game(2, seed=5, variants=["any-mean-house"])
    assert game.setup.rules.any_mean_house
    heads = cards_with_icon(tt.TrickIcon.EGG, "head")
    game = with_player(game, 0, kids=[[heads[0]], [heads[1]], [heads[2]], [], []])
    assert [a for a in game.legal_actions() if isinstance(a, tt.TrickHouse)] == [
        tt.TrickHouse(0),
        tt.TrickHouse(1),
        tt.TrickHouse(2),
    ]
    assert not tt.new_game(2, seed=5).setup.rules.any_mean_house


def test_open_objectives_variant_shows_every_secret_tile() -> None:
    game = tt.new_game(3, seed=4, variants=["open-objectives"])
    assert game.setup.secret_tiles_face_up
    assert game.setup.deck == tt.new_game(3, seed=4).setup.deck  # the same deal otherwise
    view = game.view(1)
    assert view.secret_tiles == tuple(p.secret_tile for p in game.players)
    assert all(sheet.trick_tiles for sheet in view.scores)
    assert tt.new_game(3, seed=4).view(1).secret_tiles[0] is None


def test_family_variant_changes_the_deck_and_scoring() -> None:
    game = tt.new_game(2, seed=6, variants=["family"])
    cards = game.setup.components.cards
    assert len(cards) == 36
    assert [c.id for c in cards] == list(range(36))
    assert len({(c.colour, c.theme, c.type) for c in cards}) == 36
    assert game.deck_size == 31
    final = tt.play_game(game, [tt.RandomAgent()] * 2, seed=6)[-1]
    for player, sheet in zip(final.players, final.scores(), strict=True):
        complete = sum(len(kid) == 3 for kid in player.kids)
        assert sheet.extras == (tt.ExtraScore("family: complete costumes", 2 * complete),)
        assert sheet.total == sheet.pumpkins + sum(sheet.costumes) + sheet.treats + 2 * complete


def _copy_of_base(tmp_path: Path, old: str = "", new: str = "") -> Path:
    text = BASE_DATA.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "my-box.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_card_data_variant_plays_with_the_users_file(tmp_path: Path) -> None:
    path = _copy_of_base(
        tmp_path,
        '{ id = "green", wants = "colour:green", tiers = [[2, 1], [4, 2], [6, 3]]',
        '{ id = "green", wants = "colour:green", tiers = [[1, 2], [3, 4]]',
    )
    game = tt.new_game(
        2, seed=1, variants=["card-data"], variant_options={"card-data": {"file": str(path)}}
    )
    green = next(n for n in game.setup.components.nice_neighbours if n.id == "green")
    assert [(t.cards, t.treats) for t in green.tiers] == [(1, 2), (3, 4)]
    final = tt.play_game(game, [tt.RandomAgent()] * 2, seed=1)[-1]
    text = tt.dumps(final)
    path.unlink()  # the record embeds the data: it loads without the file
    assert tt.loads(text) == final


def test_card_data_variant_with_the_base_file_plays_the_base_game(tmp_path: Path) -> None:
    path = _copy_of_base(tmp_path)
    game = tt.new_game(
        2, seed=1, variants=["card-data"], variant_options={"card-data": {"file": str(path)}}
    )
    assert game.setup.components == tt.base_components()
    assert game.setup.deck == tt.new_game(2, seed=1).setup.deck


def test_card_data_variant_names_the_file_entry_and_problem(tmp_path: Path) -> None:
    path = _copy_of_base(tmp_path, 'icon = "egg"', 'icon = "banana"')
    with pytest.raises(
        tt.ComponentDataError,
        match=r"my-box\.toml: costume_cards\.cards\[\d+\]\.icon: unknown trickicon 'banana'",
    ):
        tt.new_game(
            2, seed=1, variants=["card-data"], variant_options={"card-data": {"file": str(path)}}
        )


def test_card_data_variant_needs_a_file() -> None:
    with pytest.raises(tt.ConfigurationError, match=r"needs the path of a component data file"):
        tt.new_game(2, seed=1, variants=["card-data"])


def test_games_with_different_variants_live_side_by_side() -> None:
    plain = tt.new_game(2, seed=9)
    family = tt.new_game(2, seed=9, variants=["family"])
    assert len(plain.setup.deck) == 72
    assert len(family.setup.deck) == 36
    plain_final = tt.play_game(plain, [tt.RandomAgent()] * 2, seed=9)[-1]
    assert all(not sheet.extras for sheet in plain_final.scores())


def test_unknown_variant() -> None:
    with pytest.raises(
        tt.ConfigurationError, match=r"no variant called 'chess'; installed variants: .*family"
    ):
        tt.new_game(2, seed=1, variants=["chess"])


def test_options_for_a_variant_not_in_the_game() -> None:
    with pytest.raises(
        tt.ConfigurationError, match=r"variant_options names variants not in the game: \['family'\]"
    ):
        tt.new_game(2, seed=1, variant_options={"family": {}})


class _ReplaceComponents:
    @tt.hookimpl
    def tricky_treats_components(self) -> tt.ComponentData:
        return tt.base_components()


def _variant(name: str, plugin: object, **kwargs: Any) -> tt.Variant:
    return tt.Variant(
        name=name, version="0.1", title=name, description=name, plugin=plugin, **kwargs
    )


def test_a_variant_for_other_player_counts() -> None:
    two_only = _variant("duel", object(), players=(2,))
    assert tt.new_game(2, seed=1, variants=[two_only]).config.variants[0].name == "duel"
    with pytest.raises(tt.ConfigurationError, match=r"variant 'duel' is for 2 players, not 3"):
        tt.new_game(3, seed=1, variants=[two_only])


def test_variants_that_replace_the_same_thing_cannot_be_combined() -> None:
    first = _variant("box-a", _ReplaceComponents())
    second = _variant("box-b", _ReplaceComponents())
    with pytest.raises(
        tt.ConfigurationError,
        match=r"'box-a' and 'box-b' cannot be combined: both replace the component data",
    ):
        tt.new_game(2, seed=1, variants=[first, second])


def test_declared_incompatible_variants() -> None:
    solo = _variant("no-family", object(), incompatible_with=("family",))
    with pytest.raises(tt.ConfigurationError, match=r"'no-family' and 'family' cannot be combined"):
        tt.new_game(2, seed=1, variants=[solo, "family"])


def test_a_variant_given_twice() -> None:
    with pytest.raises(tt.ConfigurationError, match=r"given twice"):
        tt.new_game(2, seed=1, variants=["family", "family"])


def test_a_failing_hook_names_the_plugin() -> None:
    class Broken:
        @tt.hookimpl
        def tricky_treats_rules(self, rules: tt.RulesData) -> tt.RulesData:
            raise RuntimeError("oops")

    with pytest.raises(
        tt.PluginError,
        match=r"variant 'broken' from 'tricky-treats': tricky_treats_rules failed \(RuntimeError\)$",
    ) as caught:
        tt.new_game(2, seed=1, variants=[_variant("broken", Broken())])
    # The plugin's own words are for its developer, never in the message (issue 27).
    assert caught.value.detail == "RuntimeError: oops"
    assert isinstance(caught.value.__cause__, RuntimeError)


def test_an_unknown_hook_names_the_variant() -> None:
    class Typo:
        @tt.hookimpl
        def tricky_treats_rulez(self) -> None:
            return None

    with pytest.raises(
        tt.PluginError, match=r"variant 'typo' from 'tricky-treats'.*tricky_treats_rulez"
    ):
        tt.new_game(2, seed=1, variants=[_variant("typo", Typo())])


def test_a_variant_that_breaks_the_box() -> None:
    class Shrink:
        @tt.hookimpl
        def tricky_treats_trick_tiles(
            self, tiles: tuple[tt.TrickTile, ...]
        ) -> tuple[tt.TrickTile, ...]:
            return tiles[:2]

    with pytest.raises(
        tt.PluginError, match=r"edits leave a box that cannot be dealt: .*trick_tiles"
    ):
        tt.new_game(2, seed=1, variants=[_variant("shrink", Shrink())])


def test_variant_names_are_checked() -> None:
    with pytest.raises(tt.ConfigurationError, match="lower case without spaces"):
        _variant("Big Game", object())


# -- discovery through entry points --------------------------------------------------------------


def _distribution(
    root: Path, name: str, entry_points: dict[str, str], modules: dict[str, str]
) -> None:
    """Write an installed distribution (a dist-info folder and modules) under ``root``."""
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[tricky_treats]\n{lines}")
    for module, source in modules.items():
        (root / f"{module}.py").write_text(textwrap.dedent(source))


GOOD = """
    import sys
    import tricky_treats as tt
    VARIANT = tt.Variant(name="{name}", version="2.0", title="t", description="d",
                         plugin=sys.modules[__name__])
"""


FAKE_MODULES = (
    "tt_good",
    "tt_broken",
    "tt_clash_a",
    "tt_clash_b",
    "tt_family",
    "tt_wrong",
    "tt_misnamed",
    "tt_exits",
)


@pytest.fixture
def fake_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Installed distributions with variants, good and bad, in a folder on ``sys.path``."""
    for module in FAKE_MODULES:
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    _distribution(
        tmp_path, "tt-good", {"good": "tt_good:VARIANT"}, {"tt_good": GOOD.format(name="good")}
    )
    _distribution(
        tmp_path,
        "tt-broken",
        {"broken": "tt_broken:VARIANT"},
        {"tt_broken": "raise ImportError('needs numpy')\n"},
    )
    _distribution(
        tmp_path,
        "tt-clash-a",
        {"clash": "tt_clash_a:VARIANT"},
        {"tt_clash_a": GOOD.format(name="clash")},
    )
    _distribution(
        tmp_path,
        "tt-clash-b",
        {"clash": "tt_clash_b:VARIANT"},
        {"tt_clash_b": GOOD.format(name="clash")},
    )
    _distribution(
        tmp_path,
        "tt-family",
        {"family": "tt_family:VARIANT"},
        {"tt_family": GOOD.format(name="family")},
    )
    _distribution(
        tmp_path,
        "tt-wrong",
        {"wrong": "tt_wrong:VARIANT", "misnamed": "tt_misnamed:VARIANT"},
        {"tt_wrong": "VARIANT = 42\n", "tt_misnamed": GOOD.format(name="other-name")},
    )
    _distribution(
        tmp_path,
        "tt-exits",
        {"exits": "tt_exits:VARIANT"},
        {"tt_exits": "import sys\nsys.exit('bye')\n"},
    )
    return tmp_path


def _registry() -> plugins.VariantRegistry:
    return plugins.VariantRegistry(BUILTIN_VARIANTS)


def test_a_distribution_registers_through_the_entry_point(fake_site: Path) -> None:
    good = _registry().get("good")
    assert good.distribution == "tt-good"
    assert good.version == "2.0"


def test_a_broken_plugin_does_not_stop_the_others(fake_site: Path) -> None:
    registry = _registry()
    names = {v.name for v in registry.available()}
    assert "good" in names
    assert "any-mean-house" in names
    assert "broken" not in names
    with pytest.raises(
        tt.PluginError,
        match=r"variant 'broken' from distribution 'tt-broken' could not be loaded .*ImportError: needs numpy",
    ):
        registry.get("broken")
    problems = " | ".join(str(p) for p in registry.problems())
    assert "tt-broken" in problems


def test_two_variants_with_one_name(fake_site: Path) -> None:
    with pytest.raises(
        tt.PluginError,
        match=r"variant 'clash' is registered more than once, by the distributions 'tt-clash-a' and 'tt-clash-b'",
    ):
        _registry().get("clash")


def test_a_distribution_cannot_take_a_builtin_name(fake_site: Path) -> None:
    """Built-in names are reserved: the built-in variant stays, the clash is reported."""
    registry = _registry()
    family = registry.get("family")
    assert family.distribution == "tricky-treats"
    assert family is BUILTIN_VARIANTS[[v.name for v in BUILTIN_VARIANTS].index("family")]
    assert "tt_family" not in sys.modules
    problems = [str(p) for p in registry.problems()]
    assert any(
        "variant 'family' is built into tricky-treats; the registration by 'tt-family' is ignored"
        in p
        for p in problems
    ), problems


def test_a_plugin_that_exits_on_import_takes_nothing_down(fake_site: Path) -> None:
    registry = _registry()
    names = {v.name for v in registry.available()}  # must not raise SystemExit
    assert {"good", "family"} <= names
    with pytest.raises(
        tt.PluginError, match=r"'exits' from distribution 'tt-exits' .*SystemExit: bye"
    ):
        registry.get("exits")


def test_an_entry_point_that_is_not_a_variant(fake_site: Path) -> None:
    registry = _registry()
    with pytest.raises(
        tt.PluginError,
        match=r"entry point 'wrong' of distribution 'tt-wrong' points at tt_wrong:VARIANT, which is a int",
    ):
        registry.get("wrong")
    with pytest.raises(tt.PluginError, match=r"gives a variant named 'other-name'"):
        registry.get("misnamed")


def test_discovery_is_lazy(fake_site: Path) -> None:
    registry = _registry()
    assert "good" in registry.names
    assert "tt_good" not in sys.modules
    registry.get("good")
    assert "tt_good" in sys.modules
    assert "tt_broken" not in sys.modules


def test_importing_the_library_loads_no_plugin(installed_sugar_rush: Path) -> None:
    code = (
        "import sys, tricky_treats as tt; "
        "print('tricky_treats_sugar_rush' in sys.modules); "
        "tt.get_variant('sugar-rush'); "
        "print('tricky_treats_sugar_rush' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(installed_sugar_rush)},
    )
    assert result.stdout.split() == ["False", "True"]


# -- the example third-party package -------------------------------------------------------------


@pytest.fixture(scope="module")  # leaves sys.path as it was for the other modules' tests
def installed_sugar_rush(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The example variant package, really installed (into a folder put on ``sys.path``)."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(SUGAR_RUSH),
        ],
        check=True,
    )
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    plugins.variant_registry.cache_clear()
    yield target
    sys.path.remove(str(target))
    plugins.variant_registry.cache_clear()


def test_the_example_package_works_through_its_entry_point(installed_sugar_rush: Path) -> None:
    variant = tt.get_variant("sugar-rush")
    assert variant.distribution == "tricky-treats-sugar-rush"
    entry = [
        e for e in importlib.metadata.entry_points(group="tricky_treats") if e.name == "sugar-rush"
    ]
    assert len(entry) == 1
    game = tt.new_game(2, seed=1, variants=["sugar-rush"])
    assert {t.points for t in game.setup.components.trick_tiles if t.id.startswith("pair-")} == {4}


def test_the_example_packages_own_tests_pass(installed_sugar_rush: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            "/dev/null",
            "--rootdir",
            str(SUGAR_RUSH),
            str(SUGAR_RUSH / "tests"),
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(installed_sugar_rush), "PATH": ""},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 passed" in result.stdout


def test_conformance_of_the_example_package(installed_sugar_rush: Path) -> None:
    assert check_variant(["sugar-rush"], games=2) > 0


# -- conformance of the built-in variants ------------------------------------------------------


@pytest.mark.parametrize(
    "variants",
    [
        [],
        ["any-mean-house"],
        ["family"],
        ["open-objectives"],
        ["family", "open-objectives", "any-mean-house"],
    ],
    ids=str,
)
def test_conformance_of_builtin_variants(variants: list[str]) -> None:
    assert check_variant(variants, games=2) > 0


def test_conformance_of_card_data(tmp_path: Path) -> None:
    path = _copy_of_base(tmp_path, "footprints_per_player = 8", "footprints_per_player = 5")
    options = {"card-data": {"file": str(path)}}
    assert check_variant(["card-data"], variant_options=options, games=2) > 0


def test_conformance_check_catches_a_broken_state() -> None:
    from tricky_treats.testing import check_state

    game = tt.new_game(2, seed=1)
    broken = attrs.evolve(game, deck_position=game.deck_position + 1)  # a card vanished
    with pytest.raises(AssertionError, match="cards are not conserved"):
        check_state(broken)

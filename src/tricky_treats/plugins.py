"""Variant plugins: the registry of variants, their discovery, and resolving a game's hooks.

A ``Variant`` is a named, versioned record that points at a *plugin*: an object (a
module, a class instance) whose functions are marked with ``tricky_treats.hookimpl`` and
implement hooks of ``tricky_treats.hookspecs``. Built-in variants live in
``tricky_treats.variants``; other distributions register theirs through the entry-point
group ``tricky_treats``, one entry point per variant, named like the variant and pointing at
the ``Variant`` object::

    [project.entry-points.tricky_treats]
    sugar-rush = "tricky_treats_sugar_rush:VARIANT"

Discovery is lazy: importing tricky_treats loads no plugin; asking for a variant loads its
entry point only, and ``available_variants()`` loads them all once. A plugin that fails to
load does not stop the others; asking for it raises ``PluginError`` naming the
distribution and the cause.

Each game gets its own ``pluggy.PluginManager``, with the base game registered as the
lowest-priority implementation of every hook and then the game's variants in order. The hooks
are resolved into plain values and functions once, by ``resolve()``; play never calls
pluggy.
"""

from __future__ import annotations

import functools
import importlib.metadata
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar

import attrs
import pluggy

from tricky_treats import hookspecs
from tricky_treats.components import ComponentData, RulesData
from tricky_treats.errors import ConfigurationError, TrickyTreatsError

__all__ = [
    "BUILTIN_DISTRIBUTION",
    "ENTRY_POINT_GROUP",
    "PluginError",
    "Resolution",
    "Variant",
    "VariantRegistry",
    "available_variants",
    "get_variant",
    "plugin_manager",
    "resolve",
    "variant_problems",
    "variant_registry",
]

ENTRY_POINT_GROUP = "tricky_treats"
BUILTIN_DISTRIBUTION = "tricky-treats"


class PluginError(TrickyTreatsError):
    """A variant plugin is broken: it cannot be loaded, clashes with another, or misbehaves.

    The message names the variant and the distribution it comes from.
    """


@attrs.frozen
class Variant:
    """A named, versioned variant and the plugin object that implements its hooks.

    ``players`` are the player counts it supports; ``incompatible_with`` names variants it
    cannot be combined with (two variants that replace the same thing are refused anyway).
    ``distribution`` is filled in by the registry: the distribution that registered it.
    """

    name: str
    """The name games ask for, lower case without spaces, e.g. ``family``."""
    version: str
    """The variant's version, saved in game records."""
    title: str
    """A short human title."""
    description: str
    """One sentence on what the variant changes."""
    plugin: object = attrs.field(repr=False, eq=False)
    """The object (often a module) whose ``@hookimpl`` functions implement it."""
    players: tuple[int, ...] = (2, 3, 4)
    """The player counts it supports."""
    incompatible_with: tuple[str, ...] = ()
    """Names of variants it cannot be combined with."""
    distribution: str = attrs.field(default=BUILTIN_DISTRIBUTION, eq=False)
    """The distribution that registered it (filled in by the registry)."""

    def __attrs_post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower() or " " in self.name:
            raise ConfigurationError(
                f"variant name {self.name!r} must be lower case without spaces, e.g. 'short-game'"
            )


class VariantRegistry:
    """The variants of this installation: built-in ones and those of installed distributions.

    ``entry_points`` defaults to the installed entry points of ``ENTRY_POINT_GROUP``; pass
    a list to test discovery without installing anything.
    """

    def __init__(
        self,
        builtin: Iterable[Variant],
        entry_points: Iterable[importlib.metadata.EntryPoint] | None = None,
    ) -> None:
        self._builtin = {v.name: v for v in builtin}
        if entry_points is None:
            entry_points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        self._entry_points: dict[str, list[importlib.metadata.EntryPoint]] = {}
        for entry_point in entry_points:
            self._entry_points.setdefault(entry_point.name, []).append(entry_point)
        self._loaded: dict[str, Variant | PluginError] = {}
        self._shadowed: dict[str, PluginError] = {}

    @property
    def names(self) -> tuple[str, ...]:
        """Every variant name known, loaded or not, sorted."""
        return tuple(sorted(set(self._builtin) | set(self._entry_points)))

    def get(self, name: str) -> Variant:
        """The variant called ``name``; raises PluginError or ConfigurationError if none."""
        result = self._loaded.get(name)
        if result is None:
            result = self._load(name)
            self._loaded[name] = result
        if isinstance(result, PluginError):
            raise result
        return result

    def available(self) -> tuple[Variant, ...]:
        """Every variant that loads, sorted by name; broken ones are in ``problems()``."""
        variants = []
        for name in self.names:
            try:
                variants.append(self.get(name))
            except PluginError:
                continue
        return tuple(variants)

    def problems(self) -> tuple[PluginError, ...]:
        """The errors of the variants that cannot be used (after loading all of them)."""
        self.available()
        broken = [r for r in self._loaded.values() if isinstance(r, PluginError)]
        return (*broken, *self._shadowed.values())

    def _load(self, name: str) -> Variant | PluginError:
        entry_points = self._entry_points.get(name, [])
        builtin = self._builtin.get(name)
        if builtin is None and not entry_points:
            known = ", ".join(self.names) or "none"
            raise ConfigurationError(f"no variant called {name!r}; installed variants: {known}")
        if builtin is not None:
            # Built-in names are reserved: an installed distribution cannot replace or disable
            # a built-in variant; its registration is reported and ignored.
            if entry_points:
                others = " and ".join(repr(_distribution(e)) for e in entry_points)
                self._shadowed[name] = PluginError(
                    f"variant {name!r} is built into tricky-treats; the registration by "
                    f"{others} is ignored: rename that distribution's variant"
                )
            return builtin
        if len(entry_points) > 1:
            sources = " and ".join(repr(_distribution(e)) for e in entry_points)
            return PluginError(
                f"variant {name!r} is registered more than once, by the distributions "
                f"{sources}; uninstall one of them"
            )
        (entry_point,) = entry_points
        distribution = _distribution(entry_point)
        try:
            loaded = entry_point.load()
        except (Exception, SystemExit) as exc:  # a plugin's sys.exit() must not end the host
            return PluginError(
                f"variant {name!r} from distribution {distribution!r} could not be loaded "
                f"({entry_point.value}): {type(exc).__name__}: {exc}"
            )
        if not isinstance(loaded, Variant):
            return PluginError(
                f"entry point {name!r} of distribution {distribution!r} points at "
                f"{entry_point.value}, which is a {type(loaded).__name__}, not a "
                "tricky_treats.Variant"
            )
        if loaded.name != name:
            return PluginError(
                f"entry point {name!r} of distribution {distribution!r} gives a variant named "
                f"{loaded.name!r}; the entry point must be named like its variant"
            )
        return attrs.evolve(loaded, distribution=distribution)


def _distribution(entry_point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(entry_point, "dist", None)
    return dist.name if dist is not None else "<unknown distribution>"


@functools.cache
def variant_registry() -> VariantRegistry:
    """The installation's variant registry, built on first use.

    Entry points are listed, not loaded, until a variant is asked for.
    """
    from tricky_treats.variants import BUILTIN_VARIANTS

    return VariantRegistry(BUILTIN_VARIANTS)


def available_variants() -> tuple[Variant, ...]:
    """Every variant that can be used here, built-in and installed, sorted by name."""
    return variant_registry().available()


def get_variant(name: str) -> Variant:
    """The variant called ``name``; raises PluginError for a broken one."""
    return variant_registry().get(name)


def variant_problems() -> tuple[PluginError, ...]:
    """Why each variant that cannot be used cannot (broken plugins, name clashes)."""
    return variant_registry().problems()


# -- one game's plugin manager -----------------------------------------------------------------

_REPLACE_HOOKS = {
    "tricky_treats_components": "the component data",
    "tricky_treats_deal": "the dealing of the board",
}


class _GameManager(pluggy.PluginManager):
    """A plugin manager that remembers how it parsed each plugin's attributes.

    pluggy inspects every attribute of a plugin (with ``inspect.getattr_static``) each time it
    is registered, which costs more than dealing a game. Plugins are long-lived modules and
    objects whose hook markers do not change, so the result is kept per plugin and name.
    """

    _impl_opts: ClassVar[dict[tuple[object, str], Any]] = {}
    _spec_opts: ClassVar[dict[tuple[object, str], Any]] = {}

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        try:
            return self._impl_opts[plugin, name]
        except KeyError:
            opts = self._impl_opts[plugin, name] = super().parse_hookimpl_opts(plugin, name)
            return opts
        except TypeError:  # an unhashable plugin object: parse it every time
            return super().parse_hookimpl_opts(plugin, name)

    def parse_hookspec_opts(self, module_or_class: Any, name: str) -> Any:
        key = (module_or_class, name)
        if key not in self._spec_opts:
            self._spec_opts[key] = super().parse_hookspec_opts(module_or_class, name)
        return self._spec_opts[key]


def plugin_manager(variants: Sequence[Variant]) -> pluggy.PluginManager:
    """A new plugin manager for one game: the base game, then ``variants`` in order."""
    from tricky_treats.variants import base

    manager = _GameManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    manager.register(base, name="base")
    for variant in variants:
        try:
            manager.register(variant.plugin, name=variant.name)
        except ValueError as exc:
            raise ConfigurationError(f"variant {variant.name!r} given twice: {exc}") from None
        except pluggy.PluginValidationError as exc:
            raise PluginError(
                f"variant {variant.name!r} from {variant.distribution!r} has an invalid hook "
                f"implementation: {exc}"
            ) from None
    try:
        manager.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"{_owner(variants, exc.plugin)}: {exc}") from None
    return manager


def _owner(variants: Sequence[Variant], plugin: object) -> str:
    for variant in variants:
        if variant.plugin is plugin:
            return f"variant {variant.name!r} from {variant.distribution!r}"
    return "the base game"


def _implementations(manager: pluggy.PluginManager, hook: str) -> list[Any]:
    """The hook's implementations in the order the hookspecs describe: base first."""
    caller = getattr(manager.hook, hook)
    return list(caller.get_hookimpls())


def _call(implementation: Any, kwargs: Mapping[str, object], hook: str) -> Any:
    try:
        return implementation.function(*(kwargs[name] for name in implementation.argnames))
    except TrickyTreatsError:
        raise
    except Exception as exc:
        raise PluginError(
            f"{hook} of plugin {implementation.plugin_name!r} failed: {type(exc).__name__}: {exc}"
        ) from exc


def _edit(manager: pluggy.PluginManager, hook: str, value: Any, **kwargs: object) -> Any:
    for implementation in _implementations(manager, hook):
        result = _call(implementation, {**kwargs, _first_arg(hook): value}, hook)
        if result is not None:
            value = result
    return value


def _replace(manager: pluggy.PluginManager, hook: str, **kwargs: object) -> Any:
    for implementation in reversed(_implementations(manager, hook)):
        result = _call(implementation, kwargs, hook)
        if result is not None:
            return result
    raise PluginError(f"no plugin implements {hook}")  # pragma: no cover - the base game does


def _first_arg(hook: str) -> str:
    return {
        "tricky_treats_costume_cards": "cards",
        "tricky_treats_nice_neighbours": "neighbours",
        "tricky_treats_trick_tiles": "tiles",
        "tricky_treats_rules": "rules",
        "tricky_treats_board": "board",
    }[hook]


@attrs.frozen
class Resolution:
    """What a game's hooks resolved to: the values and functions play uses, without pluggy."""

    components: ComponentData
    rules: RulesData
    deal: Callable[[random.Random], Any]
    scorers: tuple[Callable[..., Any], ...]


def check_combination(
    manager: pluggy.PluginManager, variants: Sequence[Variant], players: int
) -> None:
    """Raise ConfigurationError if ``variants`` cannot be combined or played by ``players``."""
    names = [v.name for v in variants]
    for variant in variants:
        if players not in variant.players:
            counts = ", ".join(map(str, variant.players))
            raise ConfigurationError(
                f"variant {variant.name!r} is for {counts} players, not {players}"
            )
        clash = [n for n in variant.incompatible_with if n in names]
        if clash:
            raise ConfigurationError(
                f"variants {variant.name!r} and {clash[0]!r} cannot be combined"
            )
    for hook, what in _REPLACE_HOOKS.items():
        owners = [i.plugin_name for i in _implementations(manager, hook) if i.plugin_name != "base"]
        if len(owners) > 1:
            raise ConfigurationError(
                f"variants {owners[0]!r} and {owners[1]!r} cannot be combined: both replace {what}"
            )


def resolve(
    config: Any, variants: Sequence[Variant], components: ComponentData | None = None
) -> Resolution:
    """Resolve the hooks of a game of ``config`` with ``variants``, once.

    With ``components`` given (a saved game's final component data), the component hooks are
    not called again.
    """
    manager = plugin_manager(variants)
    check_combination(manager, variants, len(config.players))
    if components is None:
        components = _resolve_components(manager, config)
    rules = _edit(manager, "tricky_treats_rules", components.rules, config=config)
    if not isinstance(rules, RulesData):
        raise PluginError(f"tricky_treats_rules returned {rules!r}, not a RulesData")
    scorers = []
    for implementation in _implementations(manager, "tricky_treats_scoring"):
        scorer = _call(implementation, {"config": config, "rules": rules}, "tricky_treats_scoring")
        if scorer is not None:
            scorers.append(scorer)
    final = components

    def deal(rng: random.Random) -> Any:
        board = _replace(
            manager, "tricky_treats_deal", config=config, components=final, rules=rules, rng=rng
        )
        return _edit(manager, "tricky_treats_board", board, config=config)

    return Resolution(components=final, rules=rules, deal=deal, scorers=tuple(scorers))


def _resolve_components(manager: pluggy.PluginManager, config: Any) -> ComponentData:
    data: ComponentData = _replace(manager, "tricky_treats_components", config=config)
    cards = _edit(manager, "tricky_treats_costume_cards", data.cards, config=config)
    neighbours = _edit(
        manager, "tricky_treats_nice_neighbours", data.nice_neighbours, config=config
    )
    tiles = _edit(manager, "tricky_treats_trick_tiles", data.trick_tiles, config=config)
    if (cards, neighbours, tiles) == (data.cards, data.nice_neighbours, data.trick_tiles):
        return data  # unchanged: keep the one object, and the tables built for it
    try:
        return attrs.evolve(
            data, cards=tuple(cards), nice_neighbours=tuple(neighbours), trick_tiles=tuple(tiles)
        )
    except TrickyTreatsError as exc:
        raise PluginError(f"the variants' edits leave a box that cannot be dealt: {exc}") from exc

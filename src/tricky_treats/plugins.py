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

Each combination of variants (with their options, the player count and the rule options)
gets its own ``pluggy.PluginManager``, with the base game registered as the lowest-priority
implementation of every hook and then the variants in order. ``resolve()`` turns the hooks
into plain values and functions once per combination and keeps the most recently used
combinations; creating a game, playing and scoring never call pluggy after that.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import random
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

import attrs
import pluggy

from tricky_treats import hookspecs
from tricky_treats.components import (
    ComponentData,
    CostumeCard,
    MeanNeighbour,
    NiceNeighbour,
    RulesData,
    StreetBonusToken,
    Treat,
    TrickTile,
)
from tricky_treats.errors import ConfigurationError, TrickyTreatsError

__all__ = [
    "BUILTIN_DISTRIBUTION",
    "ENTRY_POINT_GROUP",
    "MAX_EXTRA_LINES",
    "MAX_EXTRA_POINTS",
    "MAX_LABEL_LENGTH",
    "RESOLUTION_CACHE_SIZE",
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

    The message names the variant and the distribution it comes from. It never repeats
    what a hook or scoring function raised (its exception's text) nor what a scoring
    function returned: those may hold hidden information, and a host shows messages to
    players. That text is in ``detail``, for the plugin's developer, and the exception the
    plugin raised is the error's ``__cause__``. (A hook that returns the wrong kind of value
    when a game is created is named with that value, cut to 80 characters.)
    """

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail
        """What the plugin wrote (its exception, the value it returned), or None."""


@attrs.frozen
class Variant:
    """A named, versioned variant and the plugin object that implements its hooks.

    ``players`` are the player counts it supports; ``incompatible_with`` names variants it
    cannot be combined with (two variants that replace the same thing are refused anyway).
    ``distribution`` is filled in by the registry: the distribution that registered it.
    ``public_scoring`` declares that the lines of the variant's scoring function are computed
    from public information only (what every player's view shows); only then do other
    players see them during the game. Leave it False if the scorer reads a secret tile or the
    deck: other players' lines then stay out of views until the game is over.
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
    public_scoring: bool = False
    """Whether its extra score lines may show in other players' views during the game: only
    when they are computed from public information (see docs/writing-a-variant.md)."""

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
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a plugin's sys.exit() must not end the host
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


# -- bounded caches ------------------------------------------------------------------------------

_K = TypeVar("_K")
_V = TypeVar("_V")


class _BoundedCache(Generic[_K, _V]):
    """A thread-safe mapping that keeps the ``maxsize`` most recently used entries."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[_K, _V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: _K) -> _V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: _K, value: _V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


class _Same:
    """A cache key part that matches only the very object it holds (and keeps it alive).

    Keeping the object alive while the key is cached means its ``id`` cannot be reused by
    another object.
    """

    __slots__ = ("_hash", "obj")

    def __init__(self, obj: object) -> None:
        self.obj = obj
        self._hash = id(obj)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj


# -- a plugin manager for resolving a combination of variants ------------------------------------

_REPLACE_HOOKS = {
    "tricky_treats_components": "the component data",
    "tricky_treats_deal": "the dealing of the board",
}


class _GameManager(pluggy.PluginManager):
    """A plugin manager that remembers how it parsed each plugin's attributes.

    pluggy inspects every attribute of a plugin (with ``inspect.getattr_static``) each time it
    is registered. Plugins are long-lived modules and objects whose hook markers do not change,
    so the result is kept per plugin and name, for the most recently used ones only: a program
    that makes a fresh plugin object for every game must not fill memory.
    """

    _impl_opts: ClassVar[_BoundedCache[tuple[_Same, str], Any]] = _BoundedCache(4096)
    _spec_opts: ClassVar[_BoundedCache[tuple[_Same, str], Any]] = _BoundedCache(256)

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        key = (_Same(plugin), name)
        opts = self._impl_opts.get(key)
        if opts is None:
            opts = super().parse_hookimpl_opts(plugin, name)
            # None (not a hook implementation) is kept as False, to tell it from a miss.
            self._impl_opts.put(key, opts if opts is not None else False)
            return opts
        return opts if opts is not False else None

    def parse_hookspec_opts(self, module_or_class: Any, name: str) -> Any:
        key = (_Same(module_or_class), name)
        opts = self._spec_opts.get(key)
        if opts is None:
            opts = super().parse_hookspec_opts(module_or_class, name)
            self._spec_opts.put(key, opts if opts is not None else False)
            return opts
        return opts if opts is not False else None


def plugin_manager(variants: Sequence[Variant]) -> pluggy.PluginManager:
    """A new plugin manager: the base game, then ``variants`` in order."""
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


@attrs.frozen
class _Impl:
    """One hook implementation, taken out of pluggy: the function and what it is called with."""

    function: Callable[..., Any]
    argnames: tuple[str, ...]
    plugin_name: str
    owner: str
    """Who to blame in an error: "variant 'x' from 'dist'", or "the base game"."""


def _implementations(
    manager: pluggy.PluginManager, hook: str, owners: Mapping[str, str] | None = None
) -> list[_Impl]:
    """The hook's implementations in the order the hookspecs describe: base first."""
    caller = getattr(manager.hook, hook)
    owners = owners or {}
    return [
        _Impl(
            i.function,
            tuple(i.argnames),
            i.plugin_name,
            owners.get(i.plugin_name, _BASE_GAME),
        )
        for i in caller.get_hookimpls()
    ]


def _call(implementation: _Impl, kwargs: Mapping[str, object], hook: str) -> Any:
    try:
        return implementation.function(*[kwargs[name] for name in implementation.argnames])
    except KeyboardInterrupt:
        raise
    except PluginError:
        raise
    except TrickyTreatsError as exc:
        # The library's own error (a user's data file, rules out of range): keep its kind,
        # and say which variant's hook met it.
        if implementation.owner == _BASE_GAME:
            raise
        raise type(exc)(f"{implementation.owner}: {hook}: {exc}") from exc
    except BaseException as exc:  # SystemExit too: a plugin must not end the host
        raise PluginError(
            f"{implementation.owner}: {hook} failed{_raised(exc)}",
            detail=_exception_text(exc),
        ) from exc


def _raised(exc: BaseException) -> str:
    """`` (ZeroDivisionError)`` for a built-in exception: never the plugin's own words."""
    kind = type(exc)
    return f" ({kind.__name__})" if kind.__module__ == "builtins" else ""


def _exception_text(exc: BaseException) -> str:
    """``Type: text`` of a plugin's exception, for ``PluginError.detail``; never raises."""
    try:
        text = f"{type(exc).__name__}: {exc}"
    except KeyboardInterrupt:
        raise
    except BaseException:  # a hostile __str__ must not hide the error
        text = f"{type(exc).__name__}: <its text cannot be shown>"
    return text if len(text) <= _MAX_DETAIL else f"{text[:_MAX_DETAIL]}...({len(text)} characters)"


_MAX_DETAIL = 2000


def _edit(
    implementations: Sequence[_Impl],
    hook: str,
    value: Any,
    check: Callable[[Any], str | None],
    **kwargs: object,
) -> Any:
    """Apply the edit hook's implementations in order; check what each returns."""
    for implementation in implementations:
        result = _call(implementation, {**kwargs, _first_arg(hook): value}, hook)
        if result is not None:
            problem = check(result)
            if problem is not None:
                raise PluginError(
                    f"{implementation.owner}: {hook} returned {_short(result)}, {problem}"
                )
            value = result
    return value


def _replace(implementations: Sequence[_Impl], hook: str, **kwargs: object) -> tuple[Any, _Impl]:
    """The value of the highest-priority implementation that returns one, and which one."""
    for implementation in reversed(implementations):
        result = _call(implementation, kwargs, hook)
        if result is not None:
            return result, implementation
    raise PluginError(f"no plugin implements {hook}")  # pragma: no cover - the base game does


def _first_arg(hook: str) -> str:
    return {
        "tricky_treats_costume_cards": "cards",
        "tricky_treats_nice_neighbours": "neighbours",
        "tricky_treats_trick_tiles": "tiles",
        "tricky_treats_rules": "rules",
        "tricky_treats_board": "board",
    }[hook]


def _short(value: object) -> str:
    try:
        text = repr(value)
    except KeyboardInterrupt:
        raise
    except BaseException:  # a hostile __repr__ must not hide the error (nor end the host)
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= 80 else text[:77] + "..."


# -- what hooks must return ----------------------------------------------------------------------


def _tuple_of(kind: type, what: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if not isinstance(value, tuple | list):
            return f"not a tuple of {what}"
        for i, item in enumerate(value):
            if not isinstance(item, kind):
                return f"whose item {i} is {_short(item)}, not a {what[:-1]}"
        return None

    return check


def _check_rules(value: Any) -> str | None:
    if not isinstance(value, RulesData):
        return "not a RulesData (return attrs.evolve(rules, ...))"
    for field in attrs.fields(RulesData):
        item = getattr(value, field.name)
        if field.type in (bool, "bool"):
            if not isinstance(item, bool):
                return f"whose {field.name} is {item!r}, not True or False"
        elif not isinstance(item, int) or isinstance(item, bool):
            return f"whose {field.name} is {item!r}, not an integer"
    return None


def _check_components(value: Any) -> str | None:
    if not isinstance(value, ComponentData):
        return "not a ComponentData"
    checks: tuple[tuple[str, type, str], ...] = (
        ("cards", CostumeCard, "costume cards"),
        ("nice_neighbours", NiceNeighbour, "nice neighbours"),
        ("mean_neighbours", MeanNeighbour, "mean neighbours"),
        ("house_treat_tokens", Treat, "treats"),
        ("street_bonus_tokens", StreetBonusToken, "street bonus tokens"),
        ("trick_tiles", TrickTile, "trick tiles"),
    )
    for name, kind, what in checks:
        problem = _tuple_of(kind, what)(getattr(value, name))
        if problem is not None:
            return f"whose {name} is {problem}"
    return _check_rules(value.rules)


def _board_problem(board: Any, components: ComponentData, players: int) -> str | None:
    """What is wrong with a dealt board, or None: the types, the counts, the components."""
    from tricky_treats.model import Board, GridHouse, MeanHouse

    if not isinstance(board, Board):
        return "not a Board"
    checks: tuple[tuple[str, type, str], ...] = (
        ("grid", GridHouse, "grid houses"),
        ("street_tokens", StreetBonusToken, "street bonus tokens"),
        ("mean_houses", MeanHouse, "mean houses"),
        ("secret_tiles", TrickTile, "trick tiles"),
        ("deck", CostumeCard, "costume cards"),
    )
    for name, kind, what in checks:
        value: Any = getattr(board, name)
        if not isinstance(value, tuple):
            return f"whose {name} is {_short(value)}, not a tuple of {what}"
        problem = _tuple_of(kind, what)(value)
        if problem is not None:
            return f"whose {name} is {problem}"
    grid: tuple[Any, ...] = board.grid  # checked above: the parts may still be anything
    for i, house in enumerate(grid):
        if not isinstance(house.neighbour, NiceNeighbour) or not isinstance(house.treat, Treat):
            return f"whose grid house {i} is {_short(house)}"
    mean_houses: tuple[Any, ...] = board.mean_houses
    for i, mean in enumerate(mean_houses):
        if not isinstance(mean.neighbour, MeanNeighbour) or not isinstance(mean.tile, TrickTile):
            return f"whose mean house {i} is {_short(mean)}"
    if len(board.grid) != ComponentData.GRID_HOUSES:
        return f"with {len(board.grid)} houses in the grid, not {ComponentData.GRID_HOUSES}"
    if len(board.street_tokens) != ComponentData.STREETS:
        return f"with {len(board.street_tokens)} street bonus tokens, not {ComponentData.STREETS}"
    if len(board.mean_houses) != len(components.mean_neighbours):
        return (
            f"with {len(board.mean_houses)} mean houses, not "
            f"{len(components.mean_neighbours)} (one per mean neighbour of the box)"
        )
    if len(board.secret_tiles) != players:
        return f"with {len(board.secret_tiles)} secret tiles for {players} players"
    if sorted(card.id for card in board.deck) != list(range(len(components.cards))):
        return "whose deck does not hold every costume card of the box exactly once"
    face_up: Any = board.secret_tiles_face_up
    if not isinstance(face_up, bool):
        return f"whose secret_tiles_face_up is {face_up!r}, not a bool"
    return _components_problem(board, components)


class _Box:
    """The identities of a box's components, to check a board dealt from it quickly.

    A board dealt by the base game (or a hook that keeps the box's objects) holds the very
    objects of the box: comparing identities is then enough, and much faster than hashing
    and comparing the values.
    """

    __slots__ = ("cards", "neighbours", "tiles", "tokens")

    def __init__(self, components: ComponentData) -> None:
        # Every card, treat token, street token and mean neighbour is on every board; the
        # cards are distinct objects, the tokens not (a treat is an enum member).
        self.cards = frozenset(map(id, components.cards))
        self.tokens = sorted(
            map(
                id,
                (
                    *components.house_treat_tokens,
                    *components.street_bonus_tokens,
                    *components.mean_neighbours,
                ),
            )
        )
        self.neighbours = frozenset(map(id, components.nice_neighbours))
        self.tiles = frozenset(map(id, components.trick_tiles))

    def sound(self, board: Any, players: int) -> bool:
        """Whether ``board`` is right, found quickly: it holds the box's very objects.

        Each where it may be, in the right numbers. False may still be a right board (of
        equal copies): ``_board_problem`` then says what, if anything, is wrong.
        """
        board_type: Any
        board_type, grid_house, mean_house = _model_types()
        if type(board) is not board_type:
            return False
        grid, mean, secret = board.grid, board.mean_houses, board.secret_tiles
        deck, streets = board.deck, board.street_tokens
        if (
            not type(grid) is type(mean) is type(secret) is type(deck) is type(streets) is tuple
            or len(grid) != ComponentData.GRID_HOUSES
            or len(secret) != players
            or type(board.secret_tiles_face_up) is not bool
            or not all(type(house) is grid_house for house in grid)
            or not all(type(house) is mean_house for house in mean)
        ):
            return False
        neighbours = [house.neighbour for house in grid]
        tiles = [*secret, *(house.tile for house in mean)]
        tokens = [*(house.treat for house in grid), *streets, *(m.neighbour for m in mean)]
        return (
            len(deck) == len(self.cards)
            and self.cards == set(map(id, deck))
            and sorted(map(id, tokens)) == self.tokens
            and self.neighbours.issuperset(map(id, neighbours))
            and self.tiles.issuperset(map(id, tiles))
            and len(set(map(id, neighbours))) == len(neighbours)
            and len(set(map(id, tiles))) == len(tiles)
        )


def _components_problem(board: Any, components: ComponentData) -> str | None:
    """Which component of a (well-typed) board is not the box's, or in two places.

    By value: a hook may build equal copies of the box's components.
    """
    box_cards = components.cards
    if any(card is not box_cards[card.id] and card != box_cards[card.id] for card in board.deck):
        return "whose deck holds a card that differs from the box's card of that id"
    nice = {n.id: n for n in components.nice_neighbours}
    grid = [house.neighbour for house in board.grid]
    if len({n.id for n in grid}) != len(grid):
        return "with a nice neighbour in two houses"
    if any(nice.get(n.id) != n for n in grid):
        return "with a nice neighbour that is not the box's"
    if Counter(house.treat for house in board.grid) != Counter(components.house_treat_tokens):
        return "whose grid's treat tokens are not the box's"
    if Counter(board.street_tokens) != Counter(components.street_bonus_tokens):
        return "whose street bonus tokens are not the box's"
    if Counter(m.neighbour for m in board.mean_houses) != Counter(components.mean_neighbours):
        return "whose mean houses are not the box's mean neighbours"
    tiles = {t.id: t for t in components.trick_tiles}
    in_play = [*board.secret_tiles, *(m.tile for m in board.mean_houses)]
    if len({t.id for t in in_play}) != len(in_play):
        return "with a trick tile in two places (a secret tile must lie nowhere else)"
    if any(tiles.get(t.id) != t for t in in_play):
        return "with a trick tile that is not the box's"
    return None


def _check_declaration(variant: Any) -> None:
    """Raise PluginError if ``variant``'s declared attributes have the wrong types.

    ``Variant`` has no validators (a plugin may build one any way it likes), so the types
    are checked here, once per game, cheaply.
    """
    problem = None
    if not isinstance(variant, Variant):
        raise ConfigurationError(
            f"variants must be variant names or tricky_treats.Variant objects, got {variant!r}"
        )
    declared: Any = variant  # the attributes may hold anything, whatever their annotations
    if not isinstance(declared.players, tuple) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in declared.players
    ):
        problem = f"players={declared.players!r}, not a tuple of player counts such as (2, 3, 4)"
    elif not isinstance(declared.incompatible_with, tuple) or not all(
        isinstance(n, str) for n in declared.incompatible_with
    ):
        problem = f"incompatible_with={declared.incompatible_with!r}, not a tuple of variant names"
    elif not isinstance(declared.version, str):
        problem = f"version={declared.version!r}, not a string"
    elif not isinstance(declared.public_scoring, bool):
        problem = f"public_scoring={declared.public_scoring!r}, not True or False"
    if problem is not None:
        raise PluginError(
            f"variant {variant.name!r} from {variant.distribution!r} declares {problem}"
        )


# -- scorers -------------------------------------------------------------------------------------

MAX_EXTRA_LINES = 16
"""The most score lines one variant's scoring function may give a player."""
MAX_LABEL_LENGTH = 80
"""The longest label of a score line, in characters."""
MAX_EXTRA_POINTS = 1_000_000
"""The most points (either way) one score line may give: a player record must stay small."""

# Control characters and lone surrogates: a label is one line of text that encodes as UTF-8
# (str.isprintable() is a quick yes; it also refuses some spaces, which the search lets pass).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class _Scorer:
    """A variant's scoring function, as the engine calls it: failures become PluginError.

    ``public`` is the variant's ``public_scoring``: whether other players may see the lines
    during the game.
    """

    __slots__ = ("function", "owner", "public", "variant")

    def __init__(
        self, function: Callable[..., Any], variant: str, owner: str, *, public: bool
    ) -> None:
        self.function = function
        self.variant = variant
        self.owner = owner
        self.public = public

    def __call__(self, state: Any, player: int) -> tuple[Any, ...]:
        try:
            lines = self.function(state, player)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too; the plugin's text stays out (detail)
            raise PluginError(
                f"{self.owner}: its scoring function failed for player {player}{_raised(exc)}",
                detail=_exception_text(exc),
            ) from exc
        extra_score: Any = _extra_score_type()
        kind = type(lines)
        if (kind is tuple or kind is list) and len(lines) <= MAX_EXTRA_LINES:
            for line in lines:
                label = line.label if type(line) is extra_score else None
                points = line.points if label is not None else None
                if (
                    type(label) is not str
                    or type(points) is not int
                    or not -MAX_EXTRA_POINTS <= points <= MAX_EXTRA_POINTS
                    or not 0 < len(label) <= MAX_LABEL_LENGTH
                    or not (label.isprintable() or _UNPRINTABLE.search(label) is None)
                ):
                    break
            else:
                return tuple(lines)
        raise PluginError(
            f"{self.owner}: its scoring function returned what is not a list of at most "
            f"{MAX_EXTRA_LINES} ExtraScore(label, points) for player {player}: each label a "
            f"string of 1 to {MAX_LABEL_LENGTH} printable characters, each points an int "
            f"from {-MAX_EXTRA_POINTS:,} to {MAX_EXTRA_POINTS:,}",
            detail=_lines_problem(lines),
        )

    def __repr__(self) -> str:
        return f"_Scorer({self.function!r}, variant={self.variant!r}, public={self.public!r})"


def _lines_problem(lines: Any) -> str:
    """What is wrong with a scoring function's result, for ``PluginError.detail``."""
    if type(lines) not in (tuple, list):
        return f"it returned {_short(lines)}"
    if len(lines) > MAX_EXTRA_LINES:
        return f"it returned {len(lines):,} lines"
    extra_score: Any = _extra_score_type()
    for i, line in enumerate(lines):
        if type(line) is not extra_score:
            return f"line {i} is {_short(line)}"
        if type(line.points) is not int:
            return f"line {i} has points {_short(line.points)}"
        if not -MAX_EXTRA_POINTS <= line.points <= MAX_EXTRA_POINTS:
            return f"line {i} has points of {line.points.bit_length()} bits"
        label = line.label
        if type(label) is not str or not 0 < len(label) <= MAX_LABEL_LENGTH:
            return f"line {i} has the label {_short(label)}"
        if _UNPRINTABLE.search(label) is not None:
            return f"line {i} has a label with a control character or a lone surrogate"
    return "no problem"  # pragma: no cover - only called for a result that was refused


# -- resolving a combination of variants once ----------------------------------------------------


class _Dealer:
    """Deals boards for one resolved combination of variants, calling the hooks directly.

    Every board a variant's hook deals or edits is checked in full (types, counts, every
    component from the box and in one place only; a board hook's edit moves components but
    neither adds nor removes any). The base game's own deal is checked in full the first
    time and cheaply after that.
    """

    __slots__ = ("_board_edits", "_box", "_checked", "_deals", "components", "rules")

    def __init__(
        self,
        components: ComponentData,
        rules: RulesData,
        deals: Sequence[_Impl],
        board_edits: Sequence[_Impl],
    ) -> None:
        self.components = components
        self.rules = rules
        self._deals = tuple(reversed(deals))  # the base game's last: a variant's wins
        self._board_edits = tuple(board_edits)
        self._checked = False
        self._box = _Box(components)

    def __call__(self, config: Any, rng: random.Random) -> Any:
        values: dict[str, object] = {
            "config": config,
            "components": self.components,
            "rules": self.rules,
            "rng": rng,
        }
        for source in self._deals:
            board = _call(source, values, "tricky_treats_deal")
            if board is not None:
                break
        full = not self._checked or source.owner != _BASE_GAME
        self._check(board, source, "tricky_treats_deal", config, full)
        for implementation in self._board_edits:
            values["board"] = board
            result = _call(implementation, values, "tricky_treats_board")
            if result is not None and not _same_parts(board, result):
                self._check(result, implementation, "tricky_treats_board", config, True)
                problem = _moved_problem(board, result)
                if problem is not None:
                    raise PluginError(
                        f"{implementation.owner}: tricky_treats_board returned a board {problem}"
                        ": a board hook may move components, never add or remove them"
                    )
            if result is not None:
                board = result
        self._checked = True
        return board

    def _check(self, board: Any, source: _Impl, hook: str, config: Any, full: bool) -> None:
        players = len(config.players)
        board_type: Any = _model_types()[0]
        if full:
            if self._box.sound(board, players):
                return
        elif (
            type(board) is board_type
            and len(board.deck) == len(self.components.cards)
            and len(board.secret_tiles) == players
        ):
            return
        problem = _board_problem(board, self.components, players)
        if problem is not None:
            raise PluginError(f"{source.owner}: {hook} returned {_short(board)}, {problem}")


_BASE_GAME = "the base game"


def _same_parts(before: Any, after: Any) -> bool:
    """Whether a board hook's ``after`` holds ``before``'s very parts, and a bool flag.

    That is ``attrs.evolve`` of the flag, as ``open-objectives`` does: nothing else needs
    checking again.
    """
    board_type: Any = _model_types()[0]
    return (
        type(after) is board_type
        and after.grid is before.grid
        and after.street_tokens is before.street_tokens
        and after.mean_houses is before.mean_houses
        and after.secret_tiles is before.secret_tiles
        and after.deck is before.deck
        and type(after.secret_tiles_face_up) is bool
    )


def _moved_problem(before: Any, after: Any) -> str | None:
    """How ``after`` (a checked board) holds other components than ``before``, or None.

    Both boards hold every card, treat token, street token and mean neighbour of the box
    (``_board_problem``); only which trick tiles and nice neighbours are on the board can
    differ.
    """
    tiles = {t.id for t in before.secret_tiles} | {m.tile.id for m in before.mean_houses}
    if tiles != {t.id for t in after.secret_tiles} | {m.tile.id for m in after.mean_houses}:
        return "with other trick tiles than the deal's"
    if {h.neighbour.id for h in before.grid} != {h.neighbour.id for h in after.grid}:
        return "with other nice neighbours than the deal's"
    return None


@functools.cache
def _extra_score_type() -> type:
    from tricky_treats.scoring import ExtraScore  # imported late, as the model is

    return ExtraScore


@functools.cache
def _model_types() -> tuple[type, type, type]:
    from tricky_treats.model import Board, GridHouse, MeanHouse  # model imports plugins

    return Board, GridHouse, MeanHouse


@attrs.frozen
class Resolution:
    """What a combination of variants resolved to: the values and functions play uses.

    ``deal(config, rng)`` deals a board for a game of ``config`` without pluggy;
    ``scorers`` are the variants' scoring functions, wrapped so that a failure raises
    ``PluginError`` naming the variant.
    """

    components: ComponentData
    rules: RulesData
    deal: Callable[[Any, random.Random], Any]
    scorers: tuple[_Scorer, ...]


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


RESOLUTION_CACHE_SIZE = 128
"""How many combinations of variants, options and components stay resolved."""

_RESOLUTIONS: _BoundedCache[tuple[object, ...], Resolution] = _BoundedCache(RESOLUTION_CACHE_SIZE)


def resolve(
    config: Any, variants: Sequence[Variant], components: ComponentData | None = None
) -> Resolution:
    """Resolve the hooks of ``variants`` for games like ``config``, once per combination.

    A combination is the variants (the very objects), the variant options, the player count,
    the rule options of ``config`` and ``components`` (the very object; a saved game's final
    component data, for which the component hooks are not called again). The hooks are called
    with a copy of ``config`` whose player names, seed and first player are placeholders, so
    that what they return cannot depend on which game came first. The last
    ``RESOLUTION_CACHE_SIZE`` combinations used are kept.
    """
    options = config.variant_options
    key: tuple[object, ...]
    if not variants and not options and components is None:  # the base game's own short key
        key = (len(config.players), bool(config.any_mean_house), bool(config.refresh_ends_turn))
        options_key = ""
    else:
        for variant in variants:
            _check_declaration(variant)
        try:
            options_key = json.dumps(options, sort_keys=True) if options else ""
        except (TypeError, ValueError, RecursionError) as exc:
            raise ConfigurationError(f"variant_options must be JSON values: {exc}") from None
        key = (
            tuple(_Same(v) for v in variants),
            tuple(_extra_key(v, config) for v in variants),
            options_key,
            len(config.players),
            bool(config.any_mean_house),
            bool(config.refresh_ends_turn),
            None if components is None else _Same(components),
        )
    resolution = _RESOLUTIONS.get(key)
    if resolution is None:
        placeholder = attrs.evolve(
            config,
            players=tuple(f"Player {i + 1}" for i in range(len(config.players))),
            seed=0,
            first_player=0,
            # A copy of the options: the hooks must not share the first game's dicts.
            variant_options=json.loads(options_key) if options_key else {},
        )
        resolution = _resolve(placeholder, variants, components)
        _RESOLUTIONS.put(key, resolution)
    return resolution


def _extra_key(variant: Variant, config: Any) -> object:
    """What else a built-in variant's hooks depend on (``card-data``: its file's state)."""
    if variant.distribution != BUILTIN_DISTRIBUTION:
        return None
    key = _KEY_FUNCTIONS.get(id(variant))
    if key is None or key[0] is not variant:
        # Looked up once per variant: a missing module attribute is slow to look up.
        function = getattr(variant.plugin, "_resolution_key", None)
        if len(_KEY_FUNCTIONS) >= 64:
            _KEY_FUNCTIONS.clear()
        key = _KEY_FUNCTIONS[id(variant)] = (variant, function if callable(function) else None)
    return None if key[1] is None else key[1](config)


# The key functions of built-in variants, by the variant's id (the entry holds the variant).
_KEY_FUNCTIONS: dict[int, tuple[Variant, Callable[[Any], object] | None]] = {}


def _resolve(
    config: Any, variants: Sequence[Variant], components: ComponentData | None
) -> Resolution:
    manager = plugin_manager(variants)
    check_combination(manager, variants, len(config.players))
    owners = {v.name: f"variant {v.name!r} from {v.distribution!r}" for v in variants}

    def implementations(hook: str) -> list[_Impl]:
        return _implementations(manager, hook, owners)

    if components is None:
        components = _resolve_components(implementations, config)
    rules = _edit(
        implementations("tricky_treats_rules"),
        "tricky_treats_rules",
        components.rules,
        _check_rules,
        config=config,
    )
    scorers = []
    for implementation in implementations("tricky_treats_scoring"):
        function = _call(
            implementation, {"config": config, "rules": rules}, "tricky_treats_scoring"
        )
        if function is None:
            continue
        if not callable(function):
            raise PluginError(
                f"{implementation.owner}: tricky_treats_scoring returned {_short(function)}, "
                "not a function (state, player) -> [ExtraScore, ...]"
            )
        variant = next(v for v in variants if v.name == implementation.plugin_name)
        scorers.append(
            _Scorer(function, variant.name, implementation.owner, public=variant.public_scoring)
        )
    dealer = _Dealer(
        components,
        rules,
        implementations("tricky_treats_deal"),
        implementations("tricky_treats_board"),
    )
    return Resolution(components=components, rules=rules, deal=dealer, scorers=tuple(scorers))


def _resolve_components(
    implementations: Callable[[str], list[_Impl]], config: Any
) -> ComponentData:
    data, source = _replace(
        implementations("tricky_treats_components"), "tricky_treats_components", config=config
    )
    problem = _check_components(data)
    if problem is not None:
        raise PluginError(
            f"{source.owner}: tricky_treats_components returned {_short(data)}, {problem}"
        )
    edits: tuple[tuple[str, Any, Callable[[Any], str | None]], ...] = (
        ("tricky_treats_costume_cards", data.cards, _tuple_of(CostumeCard, "costume cards")),
        (
            "tricky_treats_nice_neighbours",
            data.nice_neighbours,
            _tuple_of(NiceNeighbour, "nice neighbours"),
        ),
        ("tricky_treats_trick_tiles", data.trick_tiles, _tuple_of(TrickTile, "trick tiles")),
    )
    cards, neighbours, tiles = (
        _edit(implementations(hook), hook, value, check, config=config)
        for hook, value, check in edits
    )
    data = cast(ComponentData, data)
    if (cards, neighbours, tiles) == (data.cards, data.nice_neighbours, data.trick_tiles):
        return data  # unchanged: keep the one object, and the tables built for it
    try:
        return attrs.evolve(
            data, cards=tuple(cards), nice_neighbours=tuple(neighbours), trick_tiles=tuple(tiles)
        )
    except TrickyTreatsError as exc:
        raise PluginError(f"the variants' edits leave a box that cannot be dealt: {exc}") from exc

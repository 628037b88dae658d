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

Where each part lives, one concern a module:

- ``tricky_treats.declaration``: ``Variant`` and ``PluginError`` (below this package and the
  built-in variants, so that the variants never import it back);
- ``registry``: ``VariantRegistry`` and discovery through entry points;
- ``checks``: what hooks must return (rules, component data, boards, declarations);
- ``scorers``: variants' scoring functions, their output checked;
- ``caches`` and ``messages``: bounded caches; how a plugin's failures are shown;
- this module: the plugin manager, calling hooks, and ``resolve``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

import attrs
import pluggy

from tricky_treats import hookspecs
from tricky_treats.components import (
    ComponentData,
    CostumeCard,
    NiceNeighbour,
    RulesData,
    TrickTile,
)
from tricky_treats.declaration import (
    BUILTIN_DISTRIBUTION,
    ENTRY_POINT_GROUP,
    PluginError,
    Variant,
)
from tricky_treats.errors import ComponentDataError, ConfigurationError, TrickyTreatsError
from tricky_treats.plugins.caches import _BoundedCache as _BoundedCache
from tricky_treats.plugins.caches import _Same
from tricky_treats.plugins.checks import (
    _board_problem,
    _Box,
    _check_components,
    _check_declaration,
    _check_rules,
    _model_types,
    _moved_problem,
    _same_parts,
    _tuple_of,
)
from tricky_treats.plugins.messages import _exception_text, _raised, _short
from tricky_treats.plugins.registry import (
    VariantRegistry,
    available_variants,
    get_variant,
    variant_problems,
    variant_registry,
)
from tricky_treats.plugins.scorers import (
    MAX_EXTRA_LINES,
    MAX_EXTRA_POINTS,
    MAX_LABEL_LENGTH,
    _Scorer,
)

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


# Every call of a hook goes through _call here, and resolve makes its managers with
# plugin_manager here: one place to look, and to patch (the tests that prove that play never
# calls pluggy replace these names on this module).

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
    own: bool = False
    """Whether it is the library's own code (the base game, a built-in variant), whose errors
    keep their text: it names a user's own file or option, never a plugin's secret."""


def _implementations(
    manager: pluggy.PluginManager,
    hook: str,
    owners: Mapping[str, str] | None = None,
    own: frozenset[str] = frozenset(),
) -> list[_Impl]:
    """The hook's implementations in the order the hookspecs describe: base first.

    ``own`` names the built-in variants among them (the base game is one of the library's own).
    """
    caller = getattr(manager.hook, hook)
    owners = owners or {}
    return [
        _Impl(
            i.function,
            tuple(i.argnames),
            i.plugin_name,
            owners.get(i.plugin_name, _BASE_GAME),
            own=i.plugin_name not in owners or i.plugin_name in own,
        )
        for i in caller.get_hookimpls()
    ]


def _call(implementation: _Impl, kwargs: Mapping[str, object], hook: str) -> Any:
    try:
        return implementation.function(*[kwargs[name] for name in implementation.argnames])
    except KeyboardInterrupt:
        raise
    except TrickyTreatsError as exc:
        if implementation.own:
            # The library's own error (a user's data file, rules out of range): keep its kind
            # and text, and say which built-in variant's hook met it.
            if implementation.owner == _BASE_GAME or isinstance(exc, PluginError):
                raise
            raise _prefixed(exc, f"{implementation.owner}: {hook}: ") from exc
        # A plugin's own error, even of a library kind, is a broken plugin: its text (which
        # may tell a secret) goes to ``detail`` only, like that of any other exception.
        raise PluginError(
            f"{implementation.owner}: {hook} failed ({type(exc).__name__})",
            detail=_exception_text(exc),
        ) from exc
    except BaseException as exc:  # SystemExit too: a plugin must not end the host
        raise PluginError(
            f"{implementation.owner}: {hook} failed{_raised(exc)}",
            detail=_exception_text(exc),
        ) from exc


def _prefixed(exc: TrickyTreatsError, prefix: str) -> TrickyTreatsError:
    """``exc`` again, of its kind, its message starting with ``prefix``.

    ``exc`` itself if its kind cannot be made from a message alone (an ``__init__`` of its own).
    """
    try:
        return type(exc)(f"{prefix}{exc}")
    except Exception:
        return exc


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


# -- resolving a combination of variants once ----------------------------------------------------


class _Dealer:
    """Deals boards for one resolved combination of variants, calling the hooks directly.

    Every board a variant's hook deals or edits is checked in full (types, counts, every
    component from the box and in one place only; a board hook's edit moves components but
    neither adds nor removes any). The base game's own deal is checked in full the first
    time and cheaply after that.
    """

    __slots__ = ("_box", "_checked", "_deals", "board_edits", "components", "rules")

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
        self.board_edits = tuple(board_edits)  # the variants' board hooks, in order
        self._checked = False
        self._box = _Box(components)

    @property
    def base_deal(self) -> bool:
        """Whether its boards are the base game's deal: no variant implements the deal hook."""
        return len(self._deals) == 1 and self._deals[0].owner == _BASE_GAME

    def __call__(self, config: Any, rng: random.Random) -> Any:
        values = self._values(config, rng)
        for source in self._deals:
            board = _call(source, values, "tricky_treats_deal")
            if board is not None:
                break
        full = not self._checked or source.owner != _BASE_GAME
        self._check(board, source, "tricky_treats_deal", config, full)
        board = self.edited(board, config, rng)
        self._checked = True
        return board

    def edited(self, board: Any, config: Any, rng: random.Random) -> Any:
        """``board`` as the variants' board hooks edit it, each edit checked."""
        values = self._values(config, rng)
        for implementation in self.board_edits:
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
        return board

    def _values(self, config: Any, rng: random.Random) -> dict[str, object]:
        return {"config": config, "components": self.components, "rules": self.rules, "rng": rng}

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
            if _DECLARED.get(id(variant)) is not variant:  # a frozen declaration: check it once
                _check_declaration(variant)
                if len(_DECLARED) >= 64:
                    _DECLARED.clear()
                _DECLARED[id(variant)] = variant  # the entry keeps its variant alive
        try:
            options_key = json.dumps(options, sort_keys=True) if options else ""
        except (TypeError, ValueError, RecursionError) as exc:
            raise ConfigurationError(f"variant_options must be JSON values: {exc}") from None
        key = (
            tuple([_Same(v) for v in variants]),
            tuple([_extra_key(v, config) for v in variants]),
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
# The variants whose declarations were checked, by their id (the entry holds the variant).
_DECLARED: dict[int, Variant] = {}


def _resolve(
    config: Any, variants: Sequence[Variant], components: ComponentData | None
) -> Resolution:
    manager = plugin_manager(variants)
    check_combination(manager, variants, len(config.players))
    owners = {v.name: f"variant {v.name!r} from {v.distribution!r}" for v in variants}
    own = frozenset(v.name for v in variants if _is_builtin(v))

    def implementations(hook: str) -> list[_Impl]:
        return _implementations(manager, hook, owners, own)

    if components is None:
        components = _resolve_components(implementations, config)
    rules = _edit(
        implementations("tricky_treats_rules"),
        "tricky_treats_rules",
        components.rules,
        _check_rules,
        config=config,
    )
    if rules != components.rules:
        _check_rules_fit(rules, components, implementations("tricky_treats_rules"))
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


def _check_rules_fit(rules: RulesData, components: ComponentData, edits: Sequence[_Impl]) -> None:
    """Raise PluginError unless the box can deal games by the edited ``rules``.

    A market the cards can fill, trick tiles for the most players: what a file must meet.
    """
    try:
        attrs.evolve(components, rules=rules)
    except ComponentDataError as exc:
        owners = ", ".join(dict.fromkeys(i.owner for i in edits if i.owner != _BASE_GAME))
        raise PluginError(
            f"{owners}: tricky_treats_rules returned rules the box cannot deal: {exc}"
        ) from None


def _is_builtin(variant: Variant) -> bool:
    """Whether ``variant`` is one of the library's own (the very object, not only the name)."""
    from tricky_treats.variants import BUILTIN_VARIANTS

    return any(variant is builtin for builtin in BUILTIN_VARIANTS)


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

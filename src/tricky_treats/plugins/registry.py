"""The variant registry: built-in variants and those discovered through entry points."""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Iterable

import attrs

from tricky_treats.declaration import ENTRY_POINT_GROUP, PluginError, Variant
from tricky_treats.errors import ConfigurationError, brief

__all__ = [
    "VariantRegistry",
    "available_variants",
    "get_variant",
    "variant_problems",
    "variant_registry",
]


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
            raise ConfigurationError(
                f"no variant called {brief(name)}; installed variants: {known}"
            )
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

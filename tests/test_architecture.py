"""The package's layout: no import circles, imports only down the layers, modules one can read.

Parses every module of ``src/tricky_treats`` (nothing is imported) and follows its module-level
imports: ``import x``, ``from x import y`` (``y`` a module or a name), relative forms, and
imports inside ``try`` or ordinary ``if`` blocks. Imports inside functions and inside
``if TYPE_CHECKING:`` are not followed: they run late, or never. Importing ``a.b.c`` also
runs the packages ``a.b`` (not ``tricky_treats`` itself, which every module is in), so it
counts as importing them too, but for a module inside that package.

``docs/architecture.md`` draws the layers below.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"
ROOT = "tricky_treats"

LAYERS = ("base", "model", "rules", "scoring/views", "records/plugins", "agents", "apps")
"""From the bottom up: a module may import modules of its own layer and of the layers below."""

LAYER_OF: Mapping[str, str] = {
    # base: values and helpers the game is built from, which know no game state
    "tricky_treats.errors": "base",
    "tricky_treats._json": "base",
    "tricky_treats._conversion": "base",
    "tricky_treats._workers": "base",
    "tricky_treats.actions": "base",
    "tricky_treats.components": "base",
    "tricky_treats.hookspecs": "base",
    "tricky_treats.declaration": "base",
    "tricky_treats._construct": "base",
    "tricky_treats._i18n": "base",
    "tricky_treats._words": "base",
    "tricky_treats._extras": "base",
    "tricky_treats.simulator._core": "base",  # compiled alone by mypyc: imports no package module
    # the state of a game, and the index tables of its setup
    "tricky_treats.model": "model",
    "tricky_treats._lookup": "model",
    # what actions do, and the events they report
    "tricky_treats.rules": "rules",
    "tricky_treats.events": "rules",
    # reading a state: scores and what one player may see; the state's methods bound
    "tricky_treats.scoring": "scoring/views",
    "tricky_treats.views": "scoring/views",
    "tricky_treats._methods": "scoring/views",
    # the fast lane: a mutable simulator on the compact core, scoring as scoring does
    "tricky_treats.simulator": "scoring/views",
    # variants and their plugins, dealing a game, game records
    "tricky_treats.plugins": "records/plugins",
    "tricky_treats.variants": "records/plugins",
    "tricky_treats.dealing": "records/plugins",
    "tricky_treats.serialization": "records/plugins",
    "tricky_treats.event_records": "records/plugins",
    # playing games: bots, many games, pictures, protocols and adapters for other frameworks
    "tricky_treats.agents": "agents",
    "tricky_treats.bot_protocol": "agents",
    "tricky_treats.simulation": "agents",
    "tricky_treats._ray_tasks": "agents",
    "tricky_treats.ladder": "agents",
    "tricky_treats._candy_ladder": "agents",
    "tricky_treats.drawing": "agents",
    "tricky_treats.protocol": "agents",
    "tricky_treats.adapters": "agents",
    "tricky_treats.testing": "agents",
    # what people run: the public package, the web host, the command line, the reports
    "tricky_treats": "apps",
    "tricky_treats.__main__": "apps",
    "tricky_treats.host": "apps",
    "tricky_treats.cli": "apps",
    "tricky_treats.report": "apps",
}
"""Each module's layer, by its name or the name of a package it is in (the longest wins;
``tricky_treats`` itself names only the package's ``__init__``)."""

KNOWN_CIRCLES: tuple[frozenset[str], ...] = ()
"""Import circles still to remove, each as the set of modules it joins. Their imports are
exempt from the layer order; every circle listed must still exist."""

MAX_LINES = 600
LONG_MODULES: Mapping[str, str] = {
    "tricky_treats.rules": "one concern: the reference rules, a handler per action, read "
    "side by side with the rulings they cite (the compact core is checked against it)",
    "tricky_treats.host": "one concern: Table is one state machine, its handlers share its state",
    "tricky_treats.simulator._core": "the compact core and the vector env's encoding of it: "
    "the encoder reads the core's packed ints natively only in the same compiled module "
    "(each compiled module imports the stdlib alone, so a module apart would see Any)",
}
"""Modules allowed over ``MAX_LINES``, with the reason; each must still be that long."""


# -- reading the imports -------------------------------------------------------------------------


def _module_files(source: Path = SOURCE) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    modules = {}
    for path in sorted((source / ROOT).rglob("*.py")):
        parts = path.relative_to(source).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(module: str, is_package: bool, source: str) -> set[str]:
    """The dotted names a module's module-level statements import (modules or their names)."""
    names: set[str] = set()

    def visit(statements: Iterable[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.If):
                if not _is_type_checking(node.test):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, ast.With):
                visit(node.body)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    package = module.split(".") if is_package else module.split(".")[:-1]
                    base = package[: len(package) - (node.level - 1)]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                names.update(f"{origin}.{alias.name}" for alias in node.names)

    visit(ast.parse(source).body)
    return names


def _imports(module: str, names: Iterable[str], modules: Iterable[str]) -> set[str]:
    """The package's modules that importing ``names`` runs, seen from ``module``."""
    known = set(modules)
    found = set()
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if not name:
            continue  # not of this package
        found.add(name)
        parts = name.split(".")
        for end in range(2, len(parts)):  # the packages it is in, tricky_treats itself aside
            package = ".".join(parts[:end])
            if module != package and not module.startswith(f"{package}."):
                found.add(package)
    found.discard(module)
    return found


def _graph(source: Path = SOURCE) -> dict[str, set[str]]:
    files = _module_files(source)
    return {
        module: _imports(
            module,
            _imported_names(module, path.name == "__init__.py", path.read_text(encoding="utf-8")),
            files,
        )
        for module, path in files.items()
    }


def _circles(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def _layer(module: str) -> str:
    owner = module
    while owner not in LAYER_OF or (owner == ROOT and module != ROOT):  # the root by name only
        owner = owner.rpartition(".")[0]
        assert owner, f"{module} has no layer: add it to LAYER_OF in tests/test_architecture.py"
    return LAYER_OF[owner]


def _known_circle(a: str, b: str) -> bool:
    return any(a in circle and b in circle for circle in KNOWN_CIRCLES)


def _upward_imports(graph: Mapping[str, set[str]]) -> list[str]:
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    return sorted(
        f"{module} ({_layer(module)}) imports {target} ({_layer(target)})"
        for module, targets in graph.items()
        for target in targets
        if rank[_layer(target)] > rank[_layer(module)] and not _known_circle(module, target)
    )


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


# -- the package ---------------------------------------------------------------------------------

GRAPH = _graph()


def test_no_import_circles_but_the_known_ones() -> None:
    circles = _circles(GRAPH)
    new = [sorted(c) for c in circles if c not in KNOWN_CIRCLES]
    assert not new, f"import circles: {new}; import in one direction only (docs/architecture.md)"


def test_every_known_circle_still_exists() -> None:
    circles = _circles(GRAPH)
    gone = [sorted(c) for c in KNOWN_CIRCLES if c not in circles]
    assert not gone, f"no longer circles (or changed): {gone}; update KNOWN_CIRCLES"


def test_every_module_has_a_layer() -> None:
    for module in GRAPH:
        assert _layer(module) in LAYERS


def test_imports_go_down_the_layers() -> None:
    upward = _upward_imports(GRAPH)
    assert not upward, (
        "imports against the layer order (bottom first) "
        + " < ".join(LAYERS)
        + ":\n"
        + ("\n".join(upward))
    )


def test_no_module_is_longer_than_a_reader_can_finish() -> None:
    files = _module_files()
    long = {m: _line_count(p) for m, p in files.items() if _line_count(p) > MAX_LINES}
    unexplained = {m: n for m, n in long.items() if m not in LONG_MODULES}
    assert not unexplained, (
        f"modules over {MAX_LINES} lines: {unexplained}; split them along their concerns, or "
        "list them in LONG_MODULES with the reason"
    )
    shorter = sorted(set(LONG_MODULES) - set(long))
    assert not shorter, f"listed in LONG_MODULES but no longer over {MAX_LINES} lines: {shorter}"


# -- the checks themselves -----------------------------------------------------------------------


def test_the_import_reader_follows_every_form() -> None:
    source = """
from __future__ import annotations
import json
import tricky_treats.model
from tricky_treats import rules, __version__
from . import sub
from .sub import thing
from ..views import View
from ..errors import Error
from typing import TYPE_CHECKING
try:
    from tricky_treats import scoring
except ImportError:
    pass
if TYPE_CHECKING:
    from tricky_treats import hidden
def late():
    from tricky_treats import later
"""
    modules = [
        "tricky_treats",
        "tricky_treats.model",
        "tricky_treats.rules",
        "tricky_treats.views",
        "tricky_treats.scoring",
        "tricky_treats.errors",
        "tricky_treats.hidden",
        "tricky_treats.later",
        "tricky_treats.pkg",
        "tricky_treats.pkg.mod",
        "tricky_treats.pkg.sub",
    ]
    names = _imported_names("tricky_treats.pkg.mod", False, source)
    assert _imports("tricky_treats.pkg.mod", names, modules) == {
        "tricky_treats",  # for __version__
        "tricky_treats.model",
        "tricky_treats.rules",
        "tricky_treats.views",
        "tricky_treats.scoring",
        "tricky_treats.errors",
        "tricky_treats.pkg.sub",
    }
    assert _imports("tricky_treats.other", {"tricky_treats.pkg.sub.thing"}, modules) == {
        "tricky_treats.pkg.sub",
        "tricky_treats.pkg",  # running pkg/__init__.py first
    }


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [frozenset({"a", "b"})]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [frozenset({"a", "b", "c"})]),
    ],
)
def test_circles_are_found(graph: dict[str, set[str]], expected: list[frozenset[str]]) -> None:
    assert _circles(graph) == expected


def test_a_module_without_a_layer_is_named() -> None:
    assert _layer("tricky_treats.serialization.reading") == "records/plugins"
    with pytest.raises(AssertionError, match=r"tricky_treats\.new_module has no layer"):
        _layer("tricky_treats.new_module")


def test_an_upward_import_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = {"tricky_treats.errors": {"tricky_treats.cli"}, "tricky_treats.cli": set()}
    assert _upward_imports(graph) == [
        "tricky_treats.errors (base) imports tricky_treats.cli (apps)"
    ]
    graph = {"tricky_treats.model": {"tricky_treats.rules"}, "tricky_treats.rules": set()}
    assert _upward_imports(graph) == [
        "tricky_treats.model (model) imports tricky_treats.rules (rules)"
    ]
    circle = frozenset({"tricky_treats.model", "tricky_treats.rules"})
    monkeypatch.setattr(sys.modules[__name__], "KNOWN_CIRCLES", (circle,))
    assert _upward_imports(graph) == []  # a known circle's import, exempt until it is removed

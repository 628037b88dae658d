"""The package's layout: imports only down the layers, no import circles, modules one can read.

Parses every module of ``src/tricky_treats`` (nothing is imported) and follows every import in
it: at module level (in ``try``, ``if`` and ``with`` blocks too), inside functions and methods
(they run when called) and under ``if TYPE_CHECKING:`` (they never run, but they are what a
reader and the type checker see). Importing ``a.b.c`` also runs the packages ``a.b`` (not
``tricky_treats`` itself, which every module is in), so it counts as importing them too, but
for a module inside that package.

An import against the layer order, or one that closes a circle, is allowed only where
``ALLOWED_IMPORTS`` lists it with its reason; a new one fails the test, and so does a listed
one that is gone. ``docs/architecture.md`` draws the layers and lists the same imports.
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
    "tricky_treats._progress": "base",
    "tricky_treats._component_files": "base",
    "tricky_treats.actions": "base",
    "tricky_treats.components": "base",
    "tricky_treats.hookspecs": "base",
    "tricky_treats.declaration": "base",
    "tricky_treats.i18n": "base",
    "tricky_treats.words": "base",
    "tricky_treats._extras": "base",
    "tricky_treats._version": "base",
    "tricky_treats.simulator._core": "base",  # compiled by mypyc: imports no package module
    # the state of a game, and the index tables of its setup
    "tricky_treats.model": "model",
    # what actions do, and the events they report
    "tricky_treats.rules": "rules",
    "tricky_treats.events": "rules",
    # reading a state: scores and what one player may see; the state's methods bound
    "tricky_treats.scoring": "scoring/views",
    "tricky_treats.views": "scoring/views",
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
    "tricky_treats._terminal": "agents",  # the 80x24 text screens: drawing's and the cli's
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

ALLOWED_IMPORTS: Mapping[tuple[str, str], str] = {
    # The state's methods are the engine's front door; what they call lives above the state.
    ("tricky_treats.model", "tricky_treats.rules"): "GameState.legal_actions() and apply() "
    "call the rules, which build states: imported when called, as python-chess's Board "
    "imports chess.svg",
    ("tricky_treats.model", "tricky_treats.scoring"): "GameState.scores(), winners() and "
    "outcome() call scoring when called; their annotations name ScoreSheet and Outcome",
    ("tricky_treats.model", "tricky_treats.views"): "GameState.view() builds a PlayerView "
    "when called; its annotation names it",
    ("tricky_treats.model", "tricky_treats.events"): "annotations only: apply_with_events() "
    "returns events",
    ("tricky_treats.model", "tricky_treats.drawing"): "print(state) and a notebook draw the "
    "table when asked (drawing.text), never on import",
    ("tricky_treats.model", "tricky_treats.drawing.text"): "print(state) and a notebook draw "
    "the table when asked, never on import",
    ("tricky_treats.views", "tricky_treats.drawing"): "print(view) and a notebook draw the "
    "view when asked (board_svg), never on import",
    ("tricky_treats.views", "tricky_treats.drawing.text"): "print(view) draws the view when "
    "asked, never on import",
    # Annotations only: the hooks' signatures name the values they receive.
    ("tricky_treats.hookspecs", "tricky_treats.model"): "annotations only: the hooks receive "
    "GameConfig, Board and GameState",
    ("tricky_treats.hookspecs", "tricky_treats.scoring"): "annotations only: the scoring "
    "hook returns ExtraScore lines",
    ("tricky_treats.components.data", "tricky_treats.components.format"): "annotations "
    "only: the player-range check takes the format's rules document as well",
    ("tricky_treats.bot_protocol._pipes", "tricky_treats.bot_protocol.process"): "annotations "
    "only: the pipes report to the process that owns them",
    ("tricky_treats.simulator._simulator", "tricky_treats.plugins"): "annotations only: "
    "Simulator.new_game() takes Variant objects, as new_game() does",
    ("tricky_treats.simulation", "tricky_treats.bot_protocol"): "annotations only: simulate "
    "passes exec: bots' limits through",
    ("tricky_treats.report._plots", "tricky_treats.report"): "annotations only: the plots "
    "draw a report's figures",
    # Optional parts, imported when asked for.
    ("tricky_treats.agents", "tricky_treats.adapters.policy"): "make_agent('policy') loads "
    "the learned policy (numpy) when asked for; the policy is an Agent",
    ("tricky_treats.simulation", "tricky_treats._ray_tasks"): "the Ray backend is imported "
    "when simulate(backend='ray') runs; its tasks play simulate's batches",
    ("tricky_treats.report", "tricky_treats.report._html"): "the HTML page is written when "
    "asked for; it reads the report's figures",
    ("tricky_treats.cli.common", "tricky_treats.cli.session"): "a game at the terminal is "
    "started when the play command runs; the session reads the commands' common options",
    ("tricky_treats.cli", "tricky_treats.cli._ladder_command"): "the ladder command's "
    "options are read when the command runs (the candy games' ladders reach the cli back)",
    ("tricky_treats.cli", "tricky_treats.cli._report_command"): "the report command is set up "
    "when the command runs; it extends the command line",
    ("tricky_treats.simulator._simulator", "tricky_treats.variants"): "Simulator.new_game() "
    "deals through the one dealer of the simulator's games (variants._base_deals), which "
    "resolves the variants: imported when called",
    ("tricky_treats.simulator._simulator", "tricky_treats.variants._base_deals"): "Simulator."
    "new_game() deals through the one dealer of the simulator's games, which resolves the "
    "variants and makes simulators: imported when called (it closes the circle)",
    ("tricky_treats.simulator._simulator", "tricky_treats.agents"): "greedy_codes() asks "
    "GreedyAgent itself for a game the core does not value (a variant's scoring lines): "
    "imported when called, for such a game only",
    ("tricky_treats.ladder", "tricky_treats._candy_ladder"): "a ladder of another game is "
    "played when asked for (--game)",
}
"""Imports against the layer order or closing a circle, each ``(importer, imported)`` with
the reason it stays. Every one is inside a function or under ``TYPE_CHECKING``: none runs
when a module is imported. Every listed import must still exist."""

MAX_LINES = 600
LONG_MODULES: Mapping[str, str] = {
    "tricky_treats.rules": "one concern: the reference rules, a handler per action, read "
    "side by side with the rulings they cite (the compact core is checked against it)",
    "tricky_treats.host": "one concern: Table is one state machine, its handlers share its state",
    "tricky_treats.adapters.vector": "one concern: the vector env's games, simulators and the "
    "arrays written from the core's lists are one object's state, which reset, step and the "
    "writers share (its tables, input checks and Gymnasium calls are modules of their own)",
    "tricky_treats.simulator._core": "the compact core and the vector env's encoding of it: "
    "the encoder reads the core's packed ints natively in the same compiled module, which "
    "imports no package module (mypyc would see the rest as Any)",
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


MODULE, LATE, TYPING = "module", "late", "typing"
"""When an import runs: on importing the module, when a function runs, never (annotations)."""


def _imported_names(module: str, is_package: bool, source: str) -> dict[str, str]:
    """The dotted names a module imports (modules or their names), each with when it runs.

    A name imported in several places counts as its earliest: module level, then late.
    """
    names: dict[str, str] = {}
    order = (MODULE, LATE, TYPING)

    def add(name: str, kind: str) -> None:
        if name not in names or order.index(kind) < order.index(names[name]):
            names[name] = kind

    def visit(statements: Iterable[ast.stmt], kind: str) -> None:
        for node in statements:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.body, TYPING)
                visit(node.orelse, kind)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(node.body, LATE if kind == MODULE else kind)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name, kind)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    package = module.split(".") if is_package else module.split(".")[:-1]
                    base = package[: len(package) - (node.level - 1)]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                for alias in node.names:
                    add(f"{origin}.{alias.name}", kind)
            else:  # classes, if, try, with, loops, match: the statements inside them
                visit([c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)], kind)
                for handler in getattr(node, "handlers", ()):
                    visit(handler.body, kind)
                for case in getattr(node, "cases", ()):
                    visit(case.body, kind)

    visit(ast.parse(source).body, MODULE)
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


Graph = Mapping[str, Mapping[str, str]]
"""Per module, the package's modules it imports, each with when the import runs."""


def _graph(source: Path = SOURCE) -> dict[str, dict[str, str]]:
    files = _module_files(source)
    graph: dict[str, dict[str, str]] = {}
    for module, path in files.items():
        imported = _imported_names(
            module, path.name == "__init__.py", path.read_text(encoding="utf-8")
        )
        targets: dict[str, str] = {}
        for name, kind in imported.items():
            for target in _imports(module, [name], files):
                if target not in targets or kind == MODULE or targets[target] == TYPING:
                    targets[target] = kind
        graph[module] = targets
    return graph


def _edges(graph: Graph) -> set[tuple[str, str]]:
    return {(module, target) for module, targets in graph.items() for target in targets}


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


def _upward_imports(graph: Graph) -> list[str]:
    """The imports against the layer order that ``ALLOWED_IMPORTS`` does not list."""
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    return sorted(
        f"{module} ({_layer(module)}) imports {target} ({_layer(target)}) [{kind}]"
        for module, targets in graph.items()
        for target, kind in targets.items()
        if rank[_layer(target)] > rank[_layer(module)] and (module, target) not in ALLOWED_IMPORTS
    )


def _without_allowed(graph: Graph) -> dict[str, set[str]]:
    return {
        module: {t for t in targets if (module, t) not in ALLOWED_IMPORTS}
        for module, targets in graph.items()
    }


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


# -- the package ---------------------------------------------------------------------------------

GRAPH = _graph()


def test_no_import_circles_but_through_the_allowed_imports() -> None:
    circles = [sorted(c) for c in _circles(_without_allowed(GRAPH))]
    assert not circles, (
        f"import circles: {circles}; import in one direction only, or list the import that "
        "closes the circle in ALLOWED_IMPORTS with its reason (docs/architecture.md)"
    )


def test_every_allowed_import_still_exists() -> None:
    gone = sorted(set(ALLOWED_IMPORTS) - _edges(GRAPH))
    assert not gone, f"listed in ALLOWED_IMPORTS but no longer imported: {gone}"


def test_no_allowed_import_runs_on_import() -> None:
    """An allowed import against the layers runs late or never, so no import order matters."""
    early = sorted(pair for pair in ALLOWED_IMPORTS if GRAPH[pair[0]].get(pair[1]) == MODULE)
    assert not early, f"allowed imports made at module level: {early}"


def test_every_module_has_a_layer() -> None:
    for module in GRAPH:
        assert _layer(module) in LAYERS


def test_imports_go_down_the_layers() -> None:
    upward = _upward_imports(GRAPH)
    assert not upward, (
        "imports against the layer order (bottom first) "
        + " < ".join(LAYERS)
        + ", not in ALLOWED_IMPORTS:\n"
        + ("\n".join(upward))
    )


def test_the_architecture_page_lists_the_allowed_imports() -> None:
    """docs/architecture.md shows the layers as this test reads them."""
    page = (SOURCE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [
        f"{a} -> {b}"
        for a, b in ALLOWED_IMPORTS
        if f"`{a.removeprefix('tricky_treats.')}` | `{b.removeprefix('tricky_treats.')}`"
        not in page
    ]
    assert not missing, f"docs/architecture.md does not list the allowed imports {missing}"
    unnamed = sorted({m for m in LAYER_OF if f"`{m.removeprefix('tricky_treats.')}`" not in page})
    assert not unnamed, f"docs/architecture.md does not place the modules {unnamed}"


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
    if TYPE_CHECKING:
        from tricky_treats import never
class State:
    def method(self):
        with open("x"):
            import tricky_treats.in_method
    from tricky_treats import in_class
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
        "tricky_treats.never",
        "tricky_treats.in_method",
        "tricky_treats.in_class",
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
        "tricky_treats.hidden",
        "tricky_treats.later",
        "tricky_treats.never",
        "tricky_treats.in_method",
        "tricky_treats.in_class",
        "tricky_treats.pkg.sub",
    }
    kinds = {name.rpartition(".")[2]: kind for name, kind in names.items()}
    assert kinds["model"] == kinds["scoring"] == kinds["in_class"] == MODULE
    assert kinds["later"] == kinds["in_method"] == LATE
    assert kinds["hidden"] == kinds["never"] == TYPING
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
    graph = {"tricky_treats.errors": {"tricky_treats.cli": LATE}, "tricky_treats.cli": {}}
    assert _upward_imports(graph) == [
        "tricky_treats.errors (base) imports tricky_treats.cli (apps) [late]"
    ]
    monkeypatch.setattr(sys.modules[__name__], "ALLOWED_IMPORTS", {})
    graph = {"tricky_treats.model": {"tricky_treats.rules": TYPING}, "tricky_treats.rules": {}}
    assert _upward_imports(graph) == [
        "tricky_treats.model (model) imports tricky_treats.rules (rules) [typing]"
    ]
    allowed = {("tricky_treats.model", "tricky_treats.rules"): "a reason"}
    monkeypatch.setattr(sys.modules[__name__], "ALLOWED_IMPORTS", allowed)
    assert _upward_imports(graph) == []  # listed with its reason


def test_an_allowed_import_breaks_its_circle(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = {
        "tricky_treats.a": {"tricky_treats.b": MODULE},
        "tricky_treats.b": {"tricky_treats.a": LATE},
    }
    monkeypatch.setattr(sys.modules[__name__], "ALLOWED_IMPORTS", {})
    assert _circles(_without_allowed(graph)) == [frozenset({"tricky_treats.a", "tricky_treats.b"})]
    allowed = {("tricky_treats.b", "tricky_treats.a"): "a reason"}
    monkeypatch.setattr(sys.modules[__name__], "ALLOWED_IMPORTS", allowed)
    assert _circles(_without_allowed(graph)) == []

"""The package root (issue 44): ``import tricky_treats`` loads the engine alone, on first use.

The root's names are imported from their modules when first asked for (PEP 562); the type
checker sees the same names through the ``if TYPE_CHECKING:`` imports of ``__init__.py``.
Names that left the root for their module keep working for one release, with a
``DeprecationWarning`` that names the new place (docs/stability.md).
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
import tomllib
import warnings
from collections.abc import Mapping
from pathlib import Path

import pytest

import tricky_treats as tt

ROOT = Path(__file__).resolve().parent.parent
INIT = ROOT / "src" / "tricky_treats" / "__init__.py"

NOT_ON_IMPORT = (
    "tricky_treats.host",
    "tricky_treats.simulation",
    "tricky_treats.ladder",
    "tricky_treats.protocol",
    "tricky_treats.report",
    "tricky_treats.cli",
    "tricky_treats.adapters",
    "tricky_treats.drawing._terminal",
)
"""Modules of the apps and integrations that neither the import nor playing a game loads."""

MOVED = {
    "BOARD_PARTS": "tricky_treats.drawing",
    "BoardSvg": "tricky_treats.drawing",
    "board_svg": "tricky_treats.drawing",
    "SENDER": "tricky_treats.host",
    "SPECTATORS": "tricky_treats.host",
    "Outgoing": "tricky_treats.host",
    "Table": "tricky_treats.host",
    "GameResult": "tricky_treats.simulation",
    "SeatResult": "tricky_treats.simulation",
    "simulate": "tricky_treats.simulation",
}
"""The names that left the root in 0.2, with their module (docs/stability.md)."""


def _modules_after(code: str) -> list[str]:
    """The modules loaded by a fresh interpreter that runs ``code``."""
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded: list[str] = json.loads(result.stdout.splitlines()[-1])
    return loaded


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(f"{h}.") for h in NOT_ON_IMPORT)]


def test_importing_the_package_loads_the_root_alone() -> None:
    loaded = _modules_after("import tricky_treats")
    assert [m for m in loaded if m.startswith("tricky_treats")] == ["tricky_treats"]
    for peer in ("attrs", "cattrs", "pluggy", "importlib.metadata", "rich", "numpy"):
        assert peer not in loaded


def test_playing_and_saving_a_game_loads_no_app() -> None:
    """The engine in use (deal, play, score, view, save, load, simulator) loads no app."""
    loaded = _modules_after(
        "import tricky_treats as tt\n"
        "game = tt.new_game(3, seed=1)\n"
        "final = tt.play_game(game, [tt.RandomAgent()] * 3, seed=1)[-1]\n"
        "final.scores(); final.view(0); tt.loads(tt.dumps(final)); tt.loads_view(tt.dumps(final, player=0))\n"
        "sim = tt.Simulator(game); sim.play_action(sim.legal_actions()[0])\n"
        "tt.__version__, tt.__compiled__, tt.available_variants()\n"
    )
    assert "tricky_treats.rules" in loaded  # the game was played
    assert _heavy(loaded) == []


def test_a_moved_name_loads_its_module_when_asked_for() -> None:
    loaded = _modules_after(
        "import warnings\nwarnings.simplefilter('ignore')\nimport tricky_treats as tt\ntt.Table"
    )
    assert "tricky_treats.host" in loaded


def test_a_module_is_imported_when_reached_through_the_root() -> None:
    """``tt.agents.make_agent`` works after ``import tricky_treats``, as when the root
    imported every module; the module is imported then, not before."""
    loaded = _modules_after(
        "import tricky_treats as tt\n"
        "assert 'tricky_treats.agents' not in sys.modules\n"
        "tt.agents.make_agent('random'), tt.event_records.EVENT_TAGS"
    )
    assert "tricky_treats.agents" in loaded
    assert "tricky_treats.event_records" in loaded
    assert "tricky_treats.host" not in loaded


@pytest.mark.parametrize("name", sorted(set(tt.__all__) - {"__version__", "__compiled__"}))
def test_every_root_name_is_its_modules_own(name: str) -> None:
    home = tt._HOME_OF[name]
    assert getattr(tt, name) is getattr(importlib.import_module(home), name)
    assert name in dir(tt)


def test_the_version_and_the_build_are_read_on_first_use() -> None:
    from importlib.metadata import version

    from tricky_treats.simulator import COMPILED

    assert tt.__version__ == version("tricky-treats")
    assert isinstance(tt.__version__, str)
    assert tt.__compiled__ is COMPILED
    assert not hasattr(tt, "version")  # importlib.metadata's function, once a stray name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'tricky_treats' has no attribute 'Tabel'"):
        tt.Tabel  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(tt, "Tabel")


def _type_checking_imports(tree: ast.Module) -> dict[str, str]:
    """``name: module`` of every import under ``if TYPE_CHECKING:`` in ``tree``."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name):
            if node.test.id != "TYPE_CHECKING":
                continue
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    for alias in statement.names:
                        found[alias.asname or alias.name] = statement.module or ""
    return found


def test_the_type_checker_sees_the_names_the_root_resolves() -> None:
    """The ``TYPE_CHECKING`` imports and the lazy tables of ``__init__.py`` say the same."""
    seen = _type_checking_imports(ast.parse(INIT.read_text(encoding="utf-8")))
    resolved = {**tt._HOME_OF, **tt._MOVED_TO}
    assert seen == resolved
    assert set(tt.__all__) == set(tt._HOME_OF) | {"__version__", "__compiled__"}
    assert tt._MOVED_TO == MOVED
    assert not set(tt._HOME_OF) & set(tt._MOVED_TO)


@pytest.mark.parametrize(("name", "home"), sorted(MOVED.items()))
def test_a_moved_name_still_works_and_warns_where_it_went(name: str, home: str) -> None:
    with pytest.warns(DeprecationWarning, match=rf"tricky_treats\.{name} moved to {home}\.{name}"):
        value = getattr(tt, name)
    assert value is getattr(importlib.import_module(home), name)
    assert name not in tt.__all__
    with pytest.warns(DeprecationWarning, match=f"from {home} import {name}"):
        exec(f"from tricky_treats import {name}", {})
    with warnings.catch_warnings(record=True) as caught:  # every use warns, not the first only
        warnings.simplefilter("always")
        getattr(tt, name)
    assert [w.category for w in caught] == [DeprecationWarning]


_MOVED_USE = re.compile(
    r"\b(?:tt|tricky_treats)\.(?:" + "|".join(MOVED) + r")\b"
    r"|from tricky_treats import (?:\([^)]*\)|[^\n(]*)"
)
_MOVED_NAME = re.compile(r"\b(?:" + "|".join(MOVED) + r")\b")


def test_the_repository_uses_no_moved_root_name() -> None:
    """Its code, examples and pages import moved names from their modules."""
    skipped = {INIT, Path(__file__).resolve(), ROOT / "CHANGELOG.md"}
    files = [
        path
        for pattern in ("*.py", "*.md", "*.js", "*.html")
        for top in ("src", "tests", "docs", "examples", "benchmarks", "scripts")
        for path in (ROOT / top).rglob(pattern)
        if "node_modules" not in path.parts and path.resolve() not in skipped
    ] + [ROOT / "README.md"]
    uses = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}"
        for path in files
        for text in [path.read_text(encoding="utf-8", errors="replace")]
        for match in _MOVED_USE.finditer(text)
        if not match.group(0).startswith("from") or _MOVED_NAME.search(match.group(0))
    ]
    assert uses == []


EXAMPLES = ROOT / "examples"
EXAMPLE_PACKAGES = {init.parent.name for init in EXAMPLES.glob("*/src/*/__init__.py")}
"""The packages of the repository's other distributions: the web app, the candy games, ..."""


def _code_strings(tree: ast.AST) -> list[str]:
    """The string constants of ``tree`` that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


IMPORTERS = {"import_module", "importorskip", "__import__"}
"""Functions that import the module their first argument names: ``importlib.import_module``,
``pytest.importorskip``, ``__import__``."""


def _imported(tree: ast.AST) -> list[str]:
    """Every module ``tree`` imports, and every ``from`` import's names as ``module.name``;
    a module named by a string to ``importlib.import_module`` and the like too."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and node.args:
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else None
            name = function.id if isinstance(function, ast.Name) else name
            first = node.args[0]
            if name in IMPORTERS and isinstance(first, ast.Constant):
                found.append(str(first.value))
    return found


def test_the_engine_names_no_example() -> None:
    """Issue 44: ``_candy_ladder`` kept the candy games' names and packages
    (``CANDY_GAMES``, ``if game == "hack-trick"``); the games now declare themselves in the
    entry-point group ``tricky_treats.games``. No module of the engine imports an example's
    package or spells its package or the game name it declares in its code."""
    assert {"tricky_treats_web", "hack_trick", "candy_chaser"} <= EXAMPLE_PACKAGES
    games = {
        name
        for project in EXAMPLES.glob("*/pyproject.toml")
        for name in tomllib.loads(project.read_text(encoding="utf-8"))["project"]
        .get("entry-points", {})
        .get("tricky_treats.games", {})
    }
    assert {"hack-trick", "candy-chaser", "tricks-and-treats"} <= games
    names = EXAMPLE_PACKAGES | games
    found = []
    for path in sorted((ROOT / "src" / "tricky_treats").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = {module.partition(".")[0] for module in _imported(tree)}
        found += [f"{path.relative_to(ROOT)} imports {name}" for name in imports & names]
        found += [
            f"{path.relative_to(ROOT)} names {text!r}"
            for text in _code_strings(tree)
            if text in names
        ]
    assert found == []


def _own_package(path: Path) -> str | None:
    """The package a file of the repository belongs to, whose private names it may import.

    A file under ``examples/`` belongs to its distribution's package, if it has one; a file
    under ``tests/`` to the ``tests`` package (its helpers); a file elsewhere (``docs/hooks``,
    ``benchmarks``, ``scripts``, ``conftest.py``) to none: ``tricky_treats`` is another
    package to each of them.
    """
    part = path.relative_to(ROOT).parts[0]
    if part == "examples":
        folder = EXAMPLES / path.relative_to(EXAMPLES).parts[0]
        packages = [init.parent.name for init in folder.glob("src/*/__init__.py")]
        return packages[0] if len(packages) == 1 and folder != EXAMPLES else None
    return part if (ROOT / part / "__init__.py").is_file() else None


def _private_imports(path: Path) -> list[str]:
    """The names ``path`` imports that another package keeps private (``_name``, ``_mod``).

    Every ``import a._b`` and ``from a import _b`` (or ``from a._b import c``) counts, at any
    depth: inside a function or a test as well as at the top of the file; and so does
    ``importlib.import_module("a._b")`` (or ``pytest.importorskip``) of a written name.
    """
    own = _own_package(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for dotted in _imported(tree):
        top, *rest = dotted.split(".")
        if top == own or top in sys.stdlib_module_names:
            continue
        private = [part for part in rest if part.startswith("_") and not part.startswith("__")]
        if private and dotted.split(".")[-1] != "_":  # gettext's ``_``, public in i18n
            found.append(f"{path.relative_to(ROOT)}: {dotted}")
    return found


def _python_files() -> list[Path]:
    """Every Python file of the repository outside ``src/tricky_treats``, scripts included."""
    files = [p for p in EXAMPLES.rglob("*.py") if "node_modules" not in p.parts]
    for folder in ("tests", "docs/hooks", "benchmarks"):
        files += (ROOT / folder).rglob("*.py")
    files += [
        path
        for path in (ROOT / "scripts").iterdir()
        if path.suffix == ".py"
        or path.read_text(encoding="utf-8").startswith("#!/usr/bin/env python")
    ]
    return sorted([*files, ROOT / "conftest.py"])


NOT_YET: Mapping[str, frozenset[str]] = {
    # The terminal's teaching texts (explain, look, why, tie-breaks) of hand-built states,
    # which the play command cannot load: to go through played games' screens.
    "tests/test_teaching.py": frozenset(
        {"tricky_treats.cli._teaching", "tricky_treats.drawing._terminal"}
    ),
    # The compact core and its deal tables, private by design (docs/performance.md): to be
    # tested through tt.Simulator and tests/core_equivalence.py's digest alone.
    "tests/test_base_deals.py": frozenset(
        {
            "tricky_treats.dealing._Dealer",
            "tricky_treats.simulator._core",
            "tricky_treats.variants._base_deals",
        }
    ),
    "tests/test_core_equivalence.py": frozenset(
        {"tricky_treats.simulator._core", "tricky_treats.simulator._tables"}
    ),
    "tests/test_engine_caches.py": frozenset(
        {
            "tricky_treats.simulator._core",
            "tricky_treats.simulator._lookup",
            "tricky_treats.variants._shuffles",
        }
    ),
    "tests/test_encoder.py": frozenset({"tricky_treats.adapters._encoder"}),
    "tests/test_simulator_greedy.py": frozenset(
        {
            "tricky_treats.agents._values_by_rules",
            "tricky_treats.simulator._core",
            "tricky_treats.simulator._simulator",
        }
    ),
    "tests/test_vector.py": frozenset(
        {
            "tricky_treats.dealing._first_state",
            "tricky_treats.simulator._tables",
            "tricky_treats.variants._base_deals",
        }
    ),
    # The build's own test: the compiled core is an extension module of that private name.
    "tests/test_build.py": frozenset({"tricky_treats.simulator._core"}),
    # A pool worker whose parent died before it started: no public way to start one so.
    "tests/test_process_cleanup.py": frozenset({"tricky_treats._workers"}),
}
"""The engine's tests that still import its private modules (issue 44), and which: this list
only shrinks. Every other file imports none, and a file listed here imports no other."""


def _private_module(dotted: str) -> str:
    """``tricky_treats.drawing._terminal`` of ``tricky_treats.drawing._terminal.WIDTH``."""
    parts = dotted.split(".")
    first = next(i for i, part in enumerate(parts[1:], 1) if part.startswith("_"))
    return ".".join(parts[: first + 1])


def test_nothing_outside_a_package_imports_its_private_names() -> None:
    """Issue 44: the web app and the candy games imported ``tricky_treats._i18n`` and
    ``tricky_treats.protocol._game_kit``; they build on ``tricky_treats.i18n`` and
    ``tricky_treats.protocol.game_kit`` now, public and documented. The engine's own tests,
    the documentation's hooks and its scripts reached into private modules too
    (``tricky_treats._words``, ``_extras``, ``cli._progress``, ...); they use the public API
    now. No Python file of the repository outside ``src/tricky_treats`` (the distributions
    under ``examples/``, ``tests/``, ``docs/hooks/``, ``benchmarks/``, ``scripts/``,
    ``conftest.py``) imports an underscore name of a package other than its own, but for
    the engine tests of ``NOT_YET``, which import those private modules only
    (docs/stability.md)."""
    files = _python_files()
    folders = {path.relative_to(ROOT).parts[0] for path in files}
    assert {"examples", "tests", "docs", "benchmarks", "scripts", "conftest.py"} <= folders
    assert len(files) > 150
    found: dict[str, set[str]] = {}
    for path in files:
        for line in _private_imports(path):
            name, dotted = line.split(": ")
            found.setdefault(name, set()).add(_private_module(dotted))
    assert found == NOT_YET

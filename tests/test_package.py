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
    "tricky_treats._terminal",
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
    """The names ``path`` imports that another package keeps private (``_name``, ``_mod``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}: {dotted}" for dotted in _private_names(tree, _own_package(path))
    ]


def _private_names(tree: ast.AST, own: str | None) -> list[str]:
    """The private parts of packages other than ``own`` that the code of ``tree`` imports.

    What counts is running another package's private code by its name: every
    ``import a._b`` and ``from a import _b`` (or ``from a._b import c``), at any depth (inside
    a function or a test as well as at the top of the file), and a written name given to
    ``importlib.import_module``, ``pytest.importorskip`` or ``__import__``. What does not
    count is looking at the distribution's files: ``importlib.util.find_spec(name).origin``
    (it imports the parent packages only, never the module), a package's directory listing
    or a wheel's contents, as the build's tests do to see which files are extension modules;
    nor a name in any other string.
    """
    found = []
    for dotted in _imported(tree):
        top, *rest = dotted.split(".")
        if top == own or top in sys.stdlib_module_names:
            continue
        private = [part for part in rest if part.startswith("_") and not part.startswith("__")]
        if private and dotted.split(".")[-1] != "_":  # gettext's ``_``, public in i18n
            found.append(dotted)
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


def test_nothing_outside_a_package_imports_its_private_names() -> None:
    """Issue 44: the web app and the candy games imported ``tricky_treats._i18n`` and
    ``tricky_treats.protocol._game_kit``; they build on ``tricky_treats.i18n`` and
    ``tricky_treats.protocol.game_kit`` now, public and documented. The engine's own tests,
    the documentation's hooks and its scripts reached into private modules too
    (``tricky_treats._words``, ``_extras``, ``cli._progress``, and last the compact core's
    ``simulator._core``, ``_tables``, ``variants._base_deals``, ``cli._teaching``,
    ``_workers``); they use the public API now, with no exception. No Python file of the
    repository outside ``src/tricky_treats`` (the distributions under ``examples/``,
    ``tests/``, ``docs/hooks/``, ``benchmarks/``, ``scripts/``, ``conftest.py``) imports an
    underscore name of a package other than its own (see ``_private_names`` for what
    counts as an import, and what does not: looking up where a module's file lies)."""
    files = _python_files()
    folders = {path.relative_to(ROOT).parts[0] for path in files}
    assert {"examples", "tests", "docs", "benchmarks", "scripts", "conftest.py"} <= folders
    assert len(files) > 150
    found = [line for path in files for line in _private_imports(path)]
    assert found == []


def _engine_package(dotted: str) -> str:
    """The package of the engine that owns ``dotted``'s private part.

    ``tricky_treats.simulator._core.Core`` belongs to ``tricky_treats.simulator``: a
    subpackage directly under the root, whatever its depth below it. A private module or
    name of the root package itself (``tricky_treats._workers``,
    ``tricky_treats.dealing._Dealer``: the root and its modules) belongs to
    ``tricky_treats``.
    """
    parts = dotted.split(".")
    folder = ROOT / "src" / "tricky_treats" / parts[1] if len(parts) > 1 else None
    if folder is not None and (folder / "__init__.py").is_file() and not _private(parts[1]):
        return ".".join(parts[:2])
    return "tricky_treats"


def _private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__") and part != "_"


def _engine_private_imports() -> list[str]:
    """Every import, inside ``src/tricky_treats``, of another package's private part."""
    found = []
    for path in sorted((ROOT / "src" / "tricky_treats").rglob("*.py")):
        own = _engine_package(".".join(path.relative_to(ROOT / "src").with_suffix("").parts))
        for dotted in _imported(ast.parse(path.read_text(encoding="utf-8"))):
            parts = dotted.split(".")
            if parts[0] != "tricky_treats" or not any(map(_private, parts[1:])):
                continue
            owner = _engine_package(dotted)
            if owner not in {own, "tricky_treats"}:
                found.append(f"{path.relative_to(ROOT)}: {dotted}")
    return found


def test_the_checks_see_the_imports_they_name() -> None:
    """What counts as an import of a private part, on code written for the purpose."""
    assert _engine_package("tricky_treats.simulator._core.Core") == "tricky_treats.simulator"
    assert _engine_package("tricky_treats.cli._teaching") == "tricky_treats.cli"
    assert _engine_package("tricky_treats._workers.end_with_parent") == "tricky_treats"
    assert _engine_package("tricky_treats.dealing._Dealer") == "tricky_treats"
    code = (
        "import importlib, importlib.util, pytest\n"
        "import tricky_treats.simulator._core\n"
        "from tricky_treats.cli import _teaching\n"
        "from tests import _helpers\n"
        "def f():\n"
        "    from tricky_treats._workers import end_with_parent\n"
        "    importlib.import_module('tricky_treats.simulator._tables')\n"
        "    pytest.importorskip('tricky_treats.adapters._encoder')\n"
        "    importlib.util.find_spec('tricky_treats.simulator._lookup')\n"
        "    return 'tricky_treats.variants._base_deals'\n"
    )
    assert _private_names(ast.parse(code), "tests") == [
        "tricky_treats.simulator._core",
        "tricky_treats.cli._teaching",
        "tricky_treats._workers.end_with_parent",
        "tricky_treats.simulator._tables",
        "tricky_treats.adapters._encoder",
    ]


CORE_SEAMS: Mapping[str, frozenset[str]] = {
    # The compact core's dealer reads the core's tables and lookups: it belongs with the
    # simulator, and variants/_base_deals.py is to move there.
    "src/tricky_treats/variants/_base_deals.py": frozenset(
        {
            "tricky_treats.simulator._core",
            "tricky_treats.simulator._deal",
            "tricky_treats.simulator._lookup.house_info",
            "tricky_treats.simulator._lookup.needs",
            "tricky_treats.simulator._lookup.token_info",
            "tricky_treats.simulator._simulator.dealt",
            "tricky_treats.simulator._tables.first_core",
            "tricky_treats.simulator._tables.tables",
        }
    ),
    "src/tricky_treats/simulator/_simulator.py": frozenset(
        {
            "tricky_treats.variants._base_deals.BaseDeals",
            "tricky_treats.variants._base_deals.new_simulator",
        }
    ),
    # The adapters' one encoder and the vector env write their arrays from the core's lists.
    "src/tricky_treats/adapters/_encoder.py": frozenset({"tricky_treats.simulator._core"}),
    "src/tricky_treats/adapters/_vector_tables.py": frozenset({"tricky_treats.simulator._core"}),
    "src/tricky_treats/adapters/vector.py": frozenset(
        {
            "tricky_treats.simulator._core",
            "tricky_treats.simulator._simulator.dealt",
            "tricky_treats.variants._base_deals.BaseDeals",
        }
    ),
    # The bots' determinization copies a simulator and redraws its hidden parts.
    "src/tricky_treats/agents.py": frozenset(
        {
            "tricky_treats.simulator._redealt_setup",
            "tricky_treats.simulator._simulator._greedy_values",
            "tricky_treats.variants._shuffles.fast_shuffles",
            "tricky_treats.variants._shuffles.plan",
        }
    ),
    # The events' records are made by the records' converter.
    "src/tricky_treats/event_records.py": frozenset(
        {
            "tricky_treats.serialization.schemas._schema",
            "tricky_treats.serialization.shapes._converter",
            "tricky_treats.serialization.shapes._structure",
        }
    ),
}
"""The engine's modules that still reach into another subpackage's private parts (issue 44),
and which: the seams between the compact core and its users. This list only shrinks; a
module not in it imports no other package's private part, and one in it no other part."""


def test_no_package_of_the_engine_imports_another_packages_private_names() -> None:
    """Issue 44: ``bot_protocol.agent`` wrote its views with
    ``serialization.player_records._view_text``; it calls the public
    ``serialization.dumps_view`` now. Inside ``src/tricky_treats`` a module imports private
    parts (``_name``, ``_module``, found as ``_private_imports`` finds them) of its own
    package only, or of the root package.

    A module's own package is the subpackage directly under ``tricky_treats`` that holds it,
    at any depth (``tricky_treats/simulator/_simulator.py`` and
    ``tricky_treats/protocol/game/x.py`` belong to ``tricky_treats.simulator`` and
    ``tricky_treats.protocol``); a module directly under ``tricky_treats`` belongs to the
    root package. The root package's private modules and names (``tricky_treats._workers``,
    ``tricky_treats._json``, ``tricky_treats.dealing._Dealer``) are shared by the whole
    engine: any module may import them. A private module or name of a subpackage
    (``tricky_treats.simulator._core``, ``tricky_treats.cli.common._write``) is for the
    modules of that subpackage alone, the root package's modules included: they are
    another package to it. The seams of ``CORE_SEAMS`` are the exceptions still left."""
    found: dict[str, set[str]] = {}
    for line in _engine_private_imports():
        module, name = line.split(": ")
        found.setdefault(module, set()).add(name)
    assert found == CORE_SEAMS

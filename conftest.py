"""Skip what needs a part that is not installed, found from the imports; nothing skips in CI.

A test module, or a module of the package that ``--doctest-modules`` collects, needs what it
imports when it is imported: the imports at its top level (in ``if``, ``with`` and ``try``
blocks too, but not in a ``try`` that catches ``ImportError``, not under ``if
TYPE_CHECKING:``, not inside functions), and those of the repository's own modules it
imports, followed through them. Where one of those cannot be imported here, the module is
not imported: it skips, and its reason names the ``pip install`` line that brings it
(``tests/requirements.py``). So no list of modules to skip is kept by hand.

A test that needs an optional extra or a system part inside its body skips the same way,
through ``tests/requirements.py``. ``.ci/run`` installs everything and runs with
``CI=true``: there, a skip means something is missing, so it fails instead.
"""

from __future__ import annotations

import ast
import functools
import importlib.machinery
import importlib.util
import inspect
import os
import sys
import textwrap
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parent

# A module compiled in place by mypyc (hatch_build.py) is imported from its extension beside
# the source, which --doctest-modules would refuse as another file of the same name. Those
# modules hold no doctests (tests/test_build.py checks it), so their sources are not collected.
collect_ignore = [
    str(source)
    for source in (ROOT / "src" / "tricky_treats").rglob("*.py")
    if any(source.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
]

NO_SKIPS = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
"""Whether skips fail: in CI (``CI=true``), which installs every extra and system part."""


# -- what a module needs -------------------------------------------------------------------------


def _sources() -> dict[str, Path]:
    """The folder each of the repository's own top-level packages is found in."""
    found = {"tricky_treats": ROOT / "src", "tests": ROOT}
    for hook in sorted(ROOT.glob("docs/hooks/*.py")):  # the docs' hooks, which tests import
        found[hook.stem] = hook.parent
    for init in sorted(ROOT.glob("examples/*/src/*/__init__.py")):
        found[init.parent.name] = init.parent.parent  # the web app and the candy games
    return found


SOURCES = _sources()
ALWAYS_HERE = {"tricky_treats", "tests", *(hook.stem for hook in ROOT.glob("docs/hooks/*.py"))}
"""The repository's own modules that need no installing (the other distributions do)."""


def _catches_import_errors(node: ast.Try) -> bool:
    names = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
    for handler in node.handlers:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if any(kind is None or (isinstance(kind, ast.Name) and kind.id in names) for kind in kinds):
            return True
    return False


def _top_level_imports(
    statements: list[ast.stmt], package: str, *, deep: bool = False
) -> Iterator[str]:
    """The modules that running ``statements`` (a module's body) imports, by dotted name.

    ``deep``: a function's body, whose loops and nested functions run with it.
    """
    for node in statements:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package up
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)  # maybe submodules
        elif isinstance(node, ast.If):
            test = node.test
            if not (
                isinstance(test, ast.Name | ast.Attribute) and "TYPE_CHECKING" in ast.unparse(test)
            ):
                yield from _top_level_imports(node.body, package, deep=deep)
            yield from _top_level_imports(node.orelse, package, deep=deep)
        elif isinstance(node, ast.Try):
            if not _catches_import_errors(node):
                yield from _top_level_imports(node.body, package, deep=deep)
            yield from _top_level_imports(node.orelse + node.finalbody, package, deep=deep)
        elif isinstance(node, ast.With | ast.ClassDef):
            yield from _top_level_imports(node.body, package, deep=deep)
        elif deep and isinstance(node, ast.For | ast.While):
            yield from _top_level_imports(node.body + node.orelse, package, deep=deep)
        elif deep and isinstance(node, ast.FunctionDef):
            yield from _top_level_imports(node.body, package, deep=deep)


def _local_files(module: str) -> list[Path]:
    """The files of the repository that importing ``module`` runs (its packages' too)."""
    parts = module.split(".")
    folder = SOURCES.get(parts[0])
    if folder is None:
        return []
    files = []
    for end in range(1, len(parts) + 1):
        path = folder.joinpath(*parts[:end])
        if (path / "__init__.py").exists():
            files.append(path / "__init__.py")
        elif path.with_suffix(".py").exists():
            files.append(path.with_suffix(".py"))
    return files


def _module_name(path: Path) -> str:
    for top, folder in SOURCES.items():
        if path.is_relative_to(folder / top):
            parts = path.relative_to(folder).with_suffix("").parts
            return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return path.stem


@functools.cache
def _direct_imports(path: Path) -> tuple[frozenset[str], tuple[Path, ...]]:
    """What importing ``path`` imports itself: packages from outside, the repository's files."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return frozenset(), ()  # collecting it will say what is wrong
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    outside: set[str] = set()
    if name.partition(".")[0] not in (*ALWAYS_HERE, name):
        outside.add(name.partition(".")[0])  # a module of the web app or a candy game
    more, files = _split(_top_level_imports(tree.body, package), path)
    return frozenset(outside | more), files


def _split(modules: Iterator[str], path: Path) -> tuple[set[str], tuple[Path, ...]]:
    """Packages from outside the repository's own (installed or not), and its own files."""
    outside: set[str] = set()
    files: dict[Path, None] = {}
    for module in modules:
        top = module.partition(".")[0]
        if not top or top in sys.stdlib_module_names or top == "__future__":
            continue
        if top not in ALWAYS_HERE:
            outside.add(top)  # a peer, or a distribution of the repository: installed or not
        files.update(dict.fromkeys(f for f in _local_files(module) if f != path))
    return outside, tuple(files)


@functools.cache
def _imports_of(path: Path) -> frozenset[str]:
    """The top-level packages that importing ``path`` needs, beyond the standard library.

    Peers, and the repository's other distributions (the web app, the candy games); the
    repository's own modules are followed through to what they import.
    """
    found: set[str] = set()
    seen = {path}
    waiting = [path]
    while waiting:
        outside, files = _direct_imports(waiting.pop())
        found |= outside
        for file in files:
            if file not in seen:
                seen.add(file)
                waiting.append(file)
    return frozenset(found)


def _missing(path: Path) -> list[str]:
    """The modules ``path`` needs that cannot be imported here."""
    return _not_importable(_imports_of(path))


def _doctest_missing(path: Path) -> list[str]:
    """What the doctests of a page (``README.md``) import that cannot be imported here."""
    modules: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        code = line.strip().removeprefix(">>> ")
        if code != line.strip() and code.startswith(("import ", "from ")):
            try:
                modules += _top_level_imports(ast.parse(code).body, "")
            except SyntaxError:  # a multi-line import: the doctest will say what is wrong
                continue
    outside, files = _split(iter(modules), path)
    return _not_importable(outside.union(*(_imports_of(file) for file in files)))


@functools.cache
def _importable(top: str) -> bool:
    return importlib.util.find_spec(top) is not None


def _not_importable(tops: Iterable[str]) -> list[str]:
    return sorted(top for top in tops if not _importable(top))


def _test_needs(item: pytest.Function) -> frozenset[str]:
    """What a test's own body imports (``import`` inside it), followed as a module's are."""
    function = getattr(item.obj, "__func__", item.obj)
    try:
        source = textwrap.dedent(inspect.getsource(function))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return frozenset()
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.FunctionDef) else []
    outside, files = _split(_top_level_imports(body, "tests", deep=True), item.path)
    return frozenset(outside.union(*(_imports_of(file) for file in files)))


class _NotInstalled(pytest.File):
    """A module that needs what is not installed: collected as one skip that says what."""

    def __init__(self, *, reason: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.reason = reason

    def collect(self) -> list[pytest.Item]:
        pytest.skip(self.reason)


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    """A module whose imports are not installed skips with the line that installs them."""
    collectors = yield
    if not collectors or file_path.suffix not in (".py", ".md"):
        return collectors
    missing = _missing(file_path) if file_path.suffix == ".py" else _doctest_missing(file_path)
    if not missing:
        return collectors
    from tests.requirements import module_hint

    hints = "; ".join(dict.fromkeys(module_hint(module) for module in missing))
    where = file_path.relative_to(ROOT) if file_path.is_relative_to(ROOT) else file_path
    reason = f"{where.as_posix()} {hints}"  # one line per module, not one for them all
    return [_NotInstalled.from_parent(parent, path=file_path, reason=reason)]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test whose own imports are not installed skips with the line that installs them."""
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        missing = _not_importable(_test_needs(item))
        if missing:
            from tests.requirements import module_hint

            reason = "; ".join(dict.fromkeys(module_hint(module) for module in missing))
            item.add_marker(pytest.mark.skip(reason=reason))


# -- no skip in CI -------------------------------------------------------------------------------


def _no_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if NO_SKIPS and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        reason = str(reason).removeprefix("Skipped: ")
        report.outcome = "failed"
        report.longrepr = f"skipped in CI (CI=true), where nothing may skip: {reason}"


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """A module that skips at import (``pytest.importorskip``) fails in CI."""
    report = yield
    _no_skip(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A test that skips fails in CI."""
    report = yield
    _no_skip(report)
    return report

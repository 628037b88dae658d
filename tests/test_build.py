"""The compiled and pure builds of the simulator's core: which one runs, and the fallback.

``.ci/run`` builds both: the suite runs once on the pure core and once more on the core
compiled in place by mypyc (with ``TRICKY_TREATS_EXPECT_COMPILED=1``); it installs compiled
builds into fresh environments with nothing else installed (``pip install .``, ``-e .`` and
a wheel of the sdist, as cibuildwheel builds them), and a wheel built without a C compiler.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import zipfile
from pathlib import Path

import pytest

import tricky_treats as tt

ROOT = Path(__file__).parent.parent
EXPECT_COMPILED = "TRICKY_TREATS_EXPECT_COMPILED"
"""Set by ``.ci/run`` to ``1`` or ``0`` for the run of the suite on one build or the other."""

sys.path.insert(0, str(ROOT))  # hatch_build.py lies at the project's root, beside pyproject.toml
import hatch_build  # noqa: E402

sys.path.remove(str(ROOT))


CORE = "tricky_treats.simulator._core"
"""The module the compiled build ships as an extension module: a file of the distribution
that these tests look at (where it lies), never code they import or call."""


def _file_of(module: str) -> str:
    """The file the installed package would load ``module`` from (it is not imported)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None, module
    assert spec.origin is not None, module
    return spec.origin


def _is_extension(module: str) -> bool:
    return _file_of(module).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_compiled_says_whether_the_core_is_an_extension_module() -> None:
    assert tt.__compiled__ is _is_extension(CORE)


def test_every_listed_module_is_of_the_same_build() -> None:
    """A build compiles all of ``COMPILED_MODULES`` or none of them."""
    names = [
        path.removeprefix("src/").removesuffix(".py").replace("/", ".")
        for path in hatch_build.COMPILED_MODULES
    ]
    assert CORE in names
    assert {_is_extension(name) for name in names} == {tt.__compiled__}


def test_the_suite_runs_on_the_build_ci_asked_for() -> None:
    """A compiled run that silently fell back to the pure core would prove nothing."""
    expected = os.environ.get(EXPECT_COMPILED)
    if expected is None:
        assert "__compiled__" in tt.__all__  # outside CI's two runs: either build is right
        return
    assert tt.__compiled__ is (expected == "1"), f"{_file_of(CORE)} under {EXPECT_COMPILED}"


@pytest.mark.parametrize(
    ("value", "requested"),
    [("1", True), ("true", True), ("YES", True), ("0", False), ("", False), ("no", False)],
)
def test_the_switch_reads_like_a_flag(
    monkeypatch: pytest.MonkeyPatch, value: str, requested: bool
) -> None:
    monkeypatch.setenv(hatch_build.SWITCH, value)
    assert hatch_build.compile_requested() is requested


def test_a_compiling_build_pins_mypy_and_a_pure_one_needs_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hatchling.builders.wheel import WheelBuilder

    monkeypatch.setenv(hatch_build.SWITCH, "1")
    assert "mypy==2.4.1" in WheelBuilder(str(ROOT)).config.dependencies
    monkeypatch.delenv(hatch_build.SWITCH)
    assert not any(d.startswith("mypy") for d in WheelBuilder(str(ROOT)).config.dependencies)


def test_without_a_c_compiler_the_wheel_is_built_pure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from hatchling.builders.wheel import WheelBuilder

    monkeypatch.setenv(hatch_build.SWITCH, "1")
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    wheel = Path(
        next(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"]))
    )
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tricky_treats/simulator/_core.py" in names
    assert not [name for name in names if name.endswith((".so", ".pyd"))]
    message = capfd.readouterr().err
    assert "could not compile the core" in message
    assert "building the pure-Python core instead" in message


def test_compiled_modules_hold_no_doctests() -> None:
    """The root conftest.py does not collect a compiled module's source (its extension is
    what imports), so a doctest there would run in the pure build only."""
    for path in hatch_build.COMPILED_MODULES:
        assert ">>>" not in (ROOT / path).read_text(), path


def test_a_compiler_that_exits_builds_pure_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """mypy stops on a type error with ``SystemExit``: the build falls back, and says why."""
    import mypyc.build
    from hatchling.builders.wheel import WheelBuilder

    def refuse(paths: list[str], **options: object) -> list[object]:
        print(f"{paths[-1]}:1: error: Name 'ray' is not defined  [name-defined]")
        raise SystemExit(2)

    monkeypatch.setattr(mypyc.build, "mypycify", refuse)
    monkeypatch.setenv(hatch_build.SWITCH, "1")
    wheel = Path(
        next(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"]))
    )
    assert wheel.name.endswith("-py3-none-any.whl")
    captured = capfd.readouterr()
    lines = [line for line in captured.err.splitlines() if "tricky-treats build" in line]
    assert len(lines) == 1, captured.err
    assert "could not compile the core" in lines[0]
    assert "mypyc refused src/tricky_treats/simulator/_core.py" in lines[0]
    assert "Name 'ray' is not defined" not in captured.out  # kept out of the build's output


def test_mypyc_checks_only_the_listed_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not the rest of the package nor its optional imports, which a build may not have."""
    import mypyc.build

    seen: list[list[str]] = []

    def record(paths: list[str], **options: object) -> list[object]:
        seen.append(paths)
        raise SystemExit(0)

    monkeypatch.setattr(mypyc.build, "mypycify", record)
    with pytest.raises(RuntimeError, match="mypyc refused"):
        hatch_build.compile_core(str(ROOT), str(ROOT / "build-never-written"))
    # One call for the whole group, so that its modules call each other natively.
    assert seen == [[*hatch_build.MYPYC_OPTIONS, *hatch_build.COMPILED_MODULES]]
    assert "--follow-imports=skip" in hatch_build.MYPYC_OPTIONS


def test_the_compiled_engine_imports_the_standard_library_and_itself_only() -> None:
    """So that mypyc, which follows no import, compiles it on a machine with nothing else.

    The core, the deal and the shuffles import the standard library and each other; the
    ``Simulator``, the tables it makes a core of a ``GameState`` with and the value policy's
    features (its errors) import the rest of the package too, which mypyc sees as ``Any`` (off their hot paths), and nothing outside it.
    """
    import ast

    group = {
        path.removeprefix("src/").removesuffix(".py").replace("/", ".")
        for path in hatch_build.COMPILED_MODULES
    }
    for path in hatch_build.COMPILED_MODULES:
        tree = ast.parse((ROOT / path).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [node.module]
                    if isinstance(node, ast.ImportFrom)
                    else [alias.name for alias in node.names]
                )
                for name in names:
                    assert name is not None
                    top = name.split(".")[0]
                    if path.endswith(
                        (
                            "simulator/_simulator.py",
                            "simulator/_tables.py",
                            "simulator/_policy_features.py",
                        )
                    ) and (top == "tricky_treats"):
                        continue
                    assert top in sys.stdlib_module_names or top == "__future__" or name in group, (
                        path,
                        name,
                    )

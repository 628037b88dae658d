"""The skips of tests that need an extra or a system part: they name what to install, they
find chromium where it is configured, and in CI (``CI=true``) they fail instead (issue 22)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests import requirements

ROOT = Path(__file__).parent.parent


def _expand(extras: dict[str, list[str]], name: str) -> set[str]:
    """``name`` and the extras it brings, through ``tricky-treats[...]`` lines."""
    found = {name}
    for line in extras[name]:
        if line.startswith("tricky-treats["):
            for inner in line.removeprefix("tricky-treats[").partition("]")[0].split(","):
                found |= _expand(extras, inner)
    return found


def test_the_all_extra_brings_every_extra_the_tests_know() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert set(requirements.EXTRA_MODULES) <= set(extras)
    # bench only measures beside OpenSpiel, which the openspiel extra brings.
    assert _expand(extras, "all") == set(extras) - {"bench"}


def test_the_hint_names_the_pip_line_and_a_misspelt_extra_is_an_error() -> None:
    assert requirements.install_hint("report") == (
        "needs the report extra: pip install -e '.[report]'"
    )
    with pytest.raises(KeyError, match="no extra 'reports'"):
        requirements.install_hint("reports")


def test_modules_map_to_the_extra_that_brings_them() -> None:
    assert requirements.extra_of_module("tricky_treats.report") == "report"
    assert requirements.extra_of_module("tricky_treats.adapters.openspiel") == "openspiel"
    assert requirements.extra_of_module("starlette.testclient") == "webtest"
    assert requirements.extra_of_module("tricky_treats.scoring") is None
    assert requirements.extra_of_module("json") is None


def _outside_imports(source: Path) -> dict[str, set[str]]:
    """Per module of the engine, the packages from outside it (not attrs, cattrs, pluggy or
    the standard library) that importing it imports, its own imports followed through."""
    base = {"attrs", "attr", "cattrs", "pluggy", "tricky_treats", "__future__"}
    direct: dict[str, tuple[set[str], set[str]]] = {}
    for path in sorted(source.rglob("*.py")):
        parts = path.relative_to(source.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        outside: set[str] = set()
        own: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:  # top level only
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                stem = package.rsplit(".", node.level - 1)[0] if node.level else ""
                module = ".".join(filter(None, [stem, node.module or ""]))
                names = [module] + [f"{module}.{alias.name}" for alias in node.names]
            for imported in names:
                top = imported.partition(".")[0]
                if top == "tricky_treats":
                    own.add(imported)
                elif top not in base and top not in sys.stdlib_module_names:
                    outside.add(top)
        direct[name] = (outside, own)
    found: dict[str, set[str]] = {}
    for name in direct:
        needs: set[str] = set()
        seen, waiting = {name}, [name]
        while waiting:
            outside, own = direct[waiting.pop()]
            needs |= outside
            for module in own:
                for prefix in [".".join(module.split(".")[:i]) for i in range(1, 5)] + [module]:
                    if prefix in direct and prefix not in seen:
                        seen.add(prefix)
                        waiting.append(prefix)
        found[name] = needs
    return found


def test_every_module_that_needs_an_extra_maps_to_one_that_brings_it() -> None:
    """A page's code or a test that imports such a module skips with that extra's pip line
    when it is missing (the light path of issue 44): ``extra_of_module`` must know them all,
    and name an extra that brings everything the module imports."""
    needing = {
        module: needs
        for module, needs in _outside_imports(ROOT / "src" / "tricky_treats").items()
        if needs and not any(part.startswith("_") for part in module.split("."))
    }  # private modules are imported by no test or page
    assert {"tricky_treats.adapters.policy", "tricky_treats.adapters.vector"} <= set(needing)
    wrong = {
        module: (needs, extra)
        for module, needs in needing.items()
        if (extra := requirements.extra_of_module(module)) is None
        or not needs <= set(requirements.EXTRA_MODULES[extra])
    }
    assert wrong == {}


def test_chromium_comes_from_the_variable_else_from_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "my-chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv(requirements.CHROMIUM_VARIABLE, str(fake))
    assert requirements.chromium_path() == fake
    monkeypatch.setenv(requirements.CHROMIUM_VARIABLE, str(tmp_path / "none"))
    assert requirements.chromium_path() is None
    assert "apt-get install chromium" in requirements.chromium_hint()
    assert f"{tmp_path / 'none'} is not an executable" in requirements.chromium_hint()
    monkeypatch.delenv(requirements.CHROMIUM_VARIABLE)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert requirements.chromium_path() is None
    (tmp_path / "chromium").symlink_to(fake)
    assert requirements.chromium_path() == tmp_path / "chromium"


@pytest.mark.parametrize("ci", ["", "true"])
def test_skips_fail_in_ci(tmp_path: Path, ci: str) -> None:
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_needs.py").write_text(
        "import pytest\n\n"
        "def test_skips():\n    pytest.skip('needs chromium: apt-get install chromium')\n\n"
        "@pytest.mark.xfail(strict=True)\ndef test_expected_to_fail():\n    assert False\n"
    )
    (tmp_path / "test_module.py").write_text(
        "import pytest\n\npytest.importorskip('no_such_module', reason='pip install it')\n"
    )
    env = {**os.environ, "CI": ci}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", "/dev/null",
         "--rootdir", str(tmp_path), "--continue-on-collection-errors", str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    last = result.stdout.strip().splitlines()[-1]
    assert "1 xfailed" in last, result.stdout  # an expected failure is no skip
    if ci:
        assert "1 failed" in last, result.stdout
        assert "1 error" in last, result.stdout
        assert "nothing may skip: needs chromium: apt-get install chromium" in result.stdout
        assert "nothing may skip: pip install it" in result.stdout
    else:
        assert "2 skipped" in last, result.stdout


_WITHOUT_EXTRAS = """
import importlib.abc, importlib.util, sys
BLOCKED = set(sys.argv[1].split(","))
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
found = importlib.util.find_spec
importlib.util.find_spec = lambda name, package=None: (
    None if name.partition(".")[0] in BLOCKED else found(name, package)
)
import pytest
sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-rs", *sys.argv[2:]]))
"""


def test_the_suite_collects_with_the_dev_extra_alone(tmp_path: Path) -> None:
    """With ``pip install -e '.[dev]'`` alone, the README's ``python -m pytest`` collects with
    no error: every module needing more skips with the pip line instead of stopping
    collection (issue 37: tests/test_web_hosting.py imported starlette at module level; issue
    44: the adapters' numpy modules under src/, collected for their doctests). It collects
    what the README's command collects (the testpaths: tests, src, README.md, the candy
    games). The other extras' modules and the repository's other distributions are made
    unimportable here."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    dev = _expand(extras, "dev")
    blocked = sorted(
        {module for extra, modules in requirements.EXTRA_MODULES.items() if extra not in dev
         for module in modules}
        - {module for extra in dev if extra in requirements.EXTRA_MODULES
           for module in requirements.EXTRA_MODULES[extra]}
        | set(requirements.DISTRIBUTIONS)
        | set(requirements.EXAMPLE_REQUIREMENTS)
    )  # fmt: skip
    assert {"starlette", "numpy", "tricky_treats_web", "hack_trick"} <= set(blocked)
    script = tmp_path / "without_extras.py"
    script.write_text(_WITHOUT_EXTRAS)
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # in CI a skip is a failure
    result = subprocess.run(
        [sys.executable, str(script), ",".join(blocked)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:]
    assert "error" not in result.stdout.strip().splitlines()[-1], result.stdout[-3000:]
    skips = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    for needed in (
        "tests/test_web_hosting.py",  # starlette
        "tests/test_vector.py",  # numpy, through tricky_treats.adapters.vector
        "src/tricky_treats/adapters/_vector_tables.py",  # numpy, for its doctests
        "examples/hack-trick/tests/test_hack_trick.py",  # the candy game itself
        "tests/test_learning_example.py",  # torch and sb3-contrib
    ):
        assert any(needed in line for line in skips), (needed, skips)
    for line in skips:
        assert "pip install" in line, line
    collected = [line for line in result.stdout.splitlines() if "::" in line]
    assert any(line.startswith("README.md::") for line in collected), collected[:5]
    assert any(line.startswith("src/tricky_treats/") for line in collected)


def test_a_module_needing_what_is_not_installed_skips_with_its_pip_line(tmp_path: Path) -> None:
    """Which modules skip follows from their imports, through the repository's own modules."""
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("")
    shutil.copy(ROOT / "tests" / "requirements.py", tmp_path / "tests" / "requirements.py")
    (tmp_path / "tests" / "helper.py").write_text("import numpy\n")
    (tmp_path / "tests" / "test_through_a_helper.py").write_text(
        "from tests.helper import numpy\n\ndef test_it():\n    pass\n"
    )
    (tmp_path / "tests" / "test_guarded.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "try:\n    import no_such_module\nexcept ImportError:\n    no_such_module = None\n"
        "if TYPE_CHECKING:\n    import starlette\n"
        "def test_it():\n    pass\n"
        "def test_needing_a_peer_inside():\n    for _ in range(1):\n        import starlette\n"
    )
    (tmp_path / "tests" / "test_plain.py").write_text("import json\n\ndef test_it():\n    pass\n")
    script = tmp_path / "without_extras.py"
    script.write_text(_WITHOUT_EXTRAS.replace('"--collect-only", ', ""))
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    result = subprocess.run(
        [sys.executable, str(script), "numpy,starlette", "-p", "no:randomly", "tests"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert "needs the policy extra: pip install -e '.[policy]'" in result.stdout, result.stdout
    assert "tests/test_through_a_helper.py" in result.stdout
    assert "tests/test_guarded.py: needs the webtest extra: pip install -e '.[webtest]'" in (
        result.stdout
    )  # an import inside the test's body: the test skips, not its module
    last = result.stdout.strip().splitlines()[-1]
    assert "2 passed, 2 skipped" in last, result.stdout

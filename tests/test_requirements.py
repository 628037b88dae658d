"""The skips of tests that need an extra or a system part: they name what to install, they
find chromium where it is configured, and in CI (``CI=true``) they fail instead (issue 22)."""

from __future__ import annotations

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

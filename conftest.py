"""Collect the adapters' doctests where their peers are installed; let nothing skip in CI.

A test that needs an optional extra or a system part skips with a reason that names what to
install (``tests/requirements.py``). ``.ci/run`` installs everything and runs with
``CI=true``: there, a skip means something is missing, so it fails instead.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from collections.abc import Generator
from pathlib import Path

import pytest

_ADAPTERS = "src/tricky_treats/adapters"
_NEEDS = {
    f"{_ADAPTERS}/observation.py": "numpy",
    f"{_ADAPTERS}/pettingzoo.py": "pettingzoo",
    f"{_ADAPTERS}/openspiel.py": "pyspiel",
    f"{_ADAPTERS}/policy.py": "numpy",
}

collect_ignore = [path for path, module in _NEEDS.items() if not importlib.util.find_spec(module)]

# A module compiled in place by mypyc (hatch_build.py) is imported from its extension beside
# the source, which --doctest-modules would refuse as another file of the same name. Those
# modules hold no doctests (tests/test_build.py checks it), so their sources are not collected.
collect_ignore += [
    str(source)
    for source in (Path(__file__).parent / "src" / "tricky_treats").rglob("*.py")
    if any(source.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
]

NO_SKIPS = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
"""Whether skips fail: in CI (``CI=true``), which installs every extra and system part."""


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

"""What a test needs beyond ``pip install -e '.[dev]'``, and the skip that says how to get it.

Every test that needs an optional extra or a system part goes through this module, so that
its skip reason names what to install (``pip install -e '.[EXTRA]'``, in the clone the tests
run from; ``apt-get install chromium``) and ``pip install -e '.[all]'`` is the one line that
installs every extra. ``.ci/run`` installs everything and runs with ``CI=true``, where the root
``conftest.py`` turns any skip into a failure.

- ``pytest.importorskip("starlette", reason=install_hint("webtest"))`` at the top of a module
  whose imports need an extra (ruff allows imports after it);
- ``@needs_extra("report")`` (or ``pytestmark = needs_extra("report")``) where the imports
  happen inside the tests;
- ``needs_chromium()`` / ``chromium_path()`` for the browser tests, ``npm_path()`` for what
  npm installs, ``postgresql_bin()`` / ``needs_postgresql()`` for a PostgreSQL cluster,
  ``needs_node()`` for Node.js.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import re
import shutil
from pathlib import Path

import pytest

EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "cli": ("rich",),
    "test": ("hypothesis", "jsonschema"),
    "docs": ("mkdocs", "griffe"),
    "report": ("matplotlib", "rich"),
    "ray": ("ray",),
    "pettingzoo": ("pettingzoo", "gymnasium", "numpy"),
    "openspiel": ("pyspiel", "open_spiel", "numpy"),
    "policy": ("numpy", "gymnasium"),
    "webtest": ("starlette", "uvicorn", "websockets", "psycopg", "httpx2", "playwright"),
}
"""The modules each extra brings that the tests import (pyproject.toml lists the packages)."""

WEB_APP_HINT = (
    "needs the web app, a distribution of its own: pip install -e examples/web "
    "(tricky-treats-web) -e '.[webtest]'"
)
"""The skip reason of a test of the web app (``pytest.importorskip("tricky_treats_web", ...)``)."""

CHROMIUM_VARIABLE = "TRICKY_TREATS_CHROMIUM"
"""An environment variable naming the chromium to drive, where it is not ``chromium`` on PATH."""


def install_hint(extra: str) -> str:
    """The skip reason of a test that needs ``extra``: which one, and the line that installs it."""
    if extra not in EXTRA_MODULES:
        raise KeyError(f"no extra {extra!r} in tests/requirements.py; add it to EXTRA_MODULES")
    return f"needs the {extra} extra: pip install -e '.[{extra}]'"


def engine_hint(extra: str) -> re.Pattern[str]:
    """The engine's own line for installing ``extra``, as its errors say it.

    ``pip install -e '<clone>[EXTRA]'`` from a clone (``.`` in the clone itself) and ``pip
    install 'tricky-treats[EXTRA]'`` from the index: which one is ``test_words``'s matter.
    """
    return re.compile(rf"pip install (-e )?'[^'\s]+\[{re.escape(extra)}\]'")


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    install_hint(extra)  # a misspelt extra is an error, not a skip
    return [name for name in EXTRA_MODULES[extra] if importlib.util.find_spec(name) is None]


def needs_extra(*extras: str) -> pytest.MarkDecorator:
    """Skip unless every module of ``extras`` imports; the reason names the extra."""
    missing = [extra for extra in extras if missing_modules(extra)]
    return pytest.mark.skipif(
        bool(missing), reason="; ".join(install_hint(extra) for extra in missing)
    )


LIBRARY_MODULE_EXTRAS = {
    "tricky_treats.report": "report",
    "tricky_treats.adapters.observation": "pettingzoo",  # numpy, which either adapter brings
    "tricky_treats.adapters.pettingzoo": "pettingzoo",
    "tricky_treats.adapters.vector": "pettingzoo",  # gymnasium and numpy
    "tricky_treats.adapters.gym": "pettingzoo",  # gymnasium and numpy
    "tricky_treats.adapters.openspiel": "openspiel",
    "tricky_treats.adapters.policy": "policy",  # numpy
    "tricky_treats.adapters.training": "policy",  # numpy and gymnasium
}
"""The library's modules that work only with an extra installed (``tests/test_requirements.py``
checks it against what each module imports)."""


def extra_of_module(module: str) -> str | None:
    """The extra that ``module`` needs (a library module or a peer's package), if one."""
    for name, extra in LIBRARY_MODULE_EXTRAS.items():
        if module == name or module.startswith(f"{name}."):
            return extra
    top = module.partition(".")[0]
    return next((extra for extra, names in EXTRA_MODULES.items() if top in names), None)


DISTRIBUTIONS = {
    "tricky_treats_web": WEB_APP_HINT,
    "hack_trick": "needs Hack Trick, a distribution of its own: pip install -e examples/hack-trick",
    "candy_chaser": (
        "needs Candy Chaser, a distribution of its own: pip install -e examples/candy-chaser"
    ),
    "tricks_and_treats": (
        "needs Tricks & Treats, a distribution of its own: "
        "pip install -e examples/tricks-and-treats"
    ),
}
"""The repository's other distributions, by package, each with the skip of a test needing it."""

LEARNING_HINT = (
    "needs the learning example's requirements: "
    "pip install torch==2.13.0 && pip install -r examples/learning/requirements.txt"
)
"""The skip reason of a test of examples/learning (torch and sb3-contrib, in no extra)."""

EXAMPLE_REQUIREMENTS = {
    "torch": LEARNING_HINT,
    "stable_baselines3": LEARNING_HINT,
    "sb3_contrib": LEARNING_HINT,
}
"""Packages an example's own requirements.txt brings, not an extra, with their skip reason."""


def module_hint(module: str) -> str:
    """The skip reason of a test whose imports need ``module`` (a top-level package).

    The repository's distributions name their folder; a peer names the smallest extra that
    brings it (numpy: the policy extra), else its own package.
    """
    if module in DISTRIBUTIONS:
        return DISTRIBUTIONS[module]
    if module in EXAMPLE_REQUIREMENTS:
        return EXAMPLE_REQUIREMENTS[module]
    extras = sorted(
        (len(names), extra) for extra, names in EXTRA_MODULES.items() if module in names
    )
    if extras:
        return install_hint(extras[0][1])
    return f"needs {module}: pip install {module}"


def chromium_path() -> Path | None:
    """Chromium from ``$TRICKY_TREATS_CHROMIUM``, else ``chromium`` on PATH (Debian's package)."""
    configured = os.environ.get(CHROMIUM_VARIABLE)
    if configured is not None:
        return Path(configured) if os.access(configured, os.X_OK) else None
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    return Path(found) if found else None


def chromium_hint() -> str:
    """The skip reason of a browser test where no chromium is found."""
    configured = os.environ.get(CHROMIUM_VARIABLE)
    where = (
        f"{CHROMIUM_VARIABLE}={configured} is not an executable"
        if configured is not None
        else f"none on PATH; or set {CHROMIUM_VARIABLE} to one"
    )
    return f"needs chromium: apt-get install chromium ({where})"


def needs_chromium() -> pytest.MarkDecorator:
    """Skip unless a chromium is found (``chromium_path``); the reason says how to get one."""
    return pytest.mark.skipif(chromium_path() is None, reason=chromium_hint())


def npm_path() -> Path | None:
    """npm on PATH, which installs the web example's Pyodide runtime (``npm ci``)."""
    found = shutil.which("npm")
    return Path(found) if found else None


NPM_HINT = "needs npm to install the Pyodide runtime: apt-get install npm"
"""The skip reason of a test that needs what ``npm ci`` installs in examples/web."""


def postgresql_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``), if installed.

    On PATH, else where Debian's postgresql package puts them (/usr/lib/postgresql/N/bin).
    """
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    return Path(versions[-1]).parent if versions else None


def _version(path: str) -> tuple[int, ...]:
    number = Path(path).parent.parent.name
    return tuple(int(part) for part in number.split(".") if part.isdigit())


NODE_HINT = "needs Node.js to run the JavaScript example bot: apt-get install nodejs"
"""The skip reason of a test that runs ``examples/bots/js_bot.mjs``."""


def node_path() -> Path | None:
    """Node.js on PATH (``node``, as Debian's nodejs package installs it)."""
    found = shutil.which("node")
    return Path(found) if found else None


def needs_node() -> pytest.MarkDecorator:
    """Skip unless Node.js is installed (``node_path``); the reason says how to get it."""
    return pytest.mark.skipif(node_path() is None, reason=NODE_HINT)


POSTGRESQL_HINT = "needs PostgreSQL's server: apt-get install postgresql"
"""The skip reason of a test that starts a PostgreSQL cluster."""


def needs_postgresql() -> pytest.MarkDecorator:
    """Skip unless PostgreSQL's server programs are installed (``postgresql_bin``)."""
    return pytest.mark.skipif(postgresql_bin() is None, reason=POSTGRESQL_HINT)

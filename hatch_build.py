"""Build hooks: the package index's README, and the engine's core compiled with mypyc.

``PackageReadmeHook`` writes the README for the package index: in the repository its links
are relative (``docs/rules.md``, ``examples/``), so that they work in a clone and on the
code host; the package index has no files beside the README, so its copy links to the
documentation site and to the repository instead (``package_readme``).

``CompiledCoreHook`` compiles the engine's compact core with mypyc when asked to, else builds
pure.

The simulator's fast lane is a group of plain, precisely typed Python modules
(``COMPILED_MODULES``): the compact core, the ``Simulator`` over it, the deal into it and the
deal's shuffles. Built with ``TRICKY_TREATS_COMPILE=1`` in the environment, a wheel carries
them compiled by mypyc as one group (a platform wheel such as ``cp311-cp311-linux_x86_64``),
so that they call each other natively; without it, the wheel is ``py3-none-any`` and the same
files run as plain Python. Both builds play identical games:
``.ci/run`` checks them against each other. If compiling fails (no C compiler, no Python
headers), the hook says why on stderr and the wheel is built pure, so an install never fails
for want of a compiler. ``python -c "import tricky_treats; print(tricky_treats.__compiled__)"``
tells which build is installed.

An editable install (``pip install -e .``) with the switch compiles in place, next to the
sources; one without the switch removes what an earlier compiled install left there, so that
editing a module is never hidden by a stale compiled copy.

mypyc type-checks only the listed modules (``--follow-imports=skip``): never the rest of the
package or its optional imports, which it sees as ``Any`` (``Simulator`` calls them off the
hot path: building states, the rules' errors), so a compiled build needs nothing installed
but the build requirements, as in pip's and cibuildwheel's isolated build environments. Any
failure of the compiler, mypy's ``SystemExit`` included, builds pure instead with one line on
stderr.
"""

from __future__ import annotations

import contextlib
import glob
import io
import os
import re
import shutil
import sys
import sysconfig
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.metadata.plugin.interface import MetadataHookInterface

SITE = "https://tricky-treats.github.io/tricky-treats/"
"""The documentation site: the pages of ``docs/``, built by MkDocs."""
REPOSITORY = "https://github.com/tricky-treats/tricky-treats"
"""The repository on the code host, for links to its other files."""
_RELATIVE_LINK = re.compile(r"(\]\(|^\[[^\]]+\]:\s*)(?![a-z][a-z0-9+.-]*:|#|/)([^)\s]+)", re.M)
"""A Markdown link's target that is a relative path: inline, ``](path)``, or a reference."""


def package_readme(text: str, root: str) -> str:
    """The README ``text`` with its relative links made absolute, for the package index.

    ``docs/PAGE.md#part`` becomes the site's page (``SITE/PAGE/#part``); any other path a
    file or folder of the repository on the code host.
    """

    def absolute(match: re.Match[str]) -> str:
        lead, target = match.groups()
        path, hash_, part = target.partition("#")
        anchor = hash_ + part
        if path.startswith("docs/") and path.endswith(".md"):
            page = path.removeprefix("docs/").removesuffix(".md")
            return f"{lead}{SITE}{'' if page == 'index' else page + '/'}{anchor}"
        kind = "tree" if os.path.isdir(os.path.join(root, path)) else "blob"
        return f"{lead}{REPOSITORY}/{kind}/main/{path.rstrip('/')}{anchor}"

    return _RELATIVE_LINK.sub(absolute, text)


class PackageReadmeHook(MetadataHookInterface):
    """The project's README as the package index shows it: every link absolute."""

    PLUGIN_NAME = "custom"

    def update(self, metadata: dict[str, Any]) -> None:
        """Set the long description: README.md, its relative links made absolute."""
        with open(os.path.join(self.root, "README.md"), encoding="utf-8") as file:
            text = file.read()
        metadata["readme"] = {
            "content-type": "text/markdown",
            "text": package_readme(text, self.root),
        }


SWITCH = "TRICKY_TREATS_COMPILE"
"""The environment variable that asks for the compiled core (``1``, ``true`` or ``yes``)."""

COMPILED_MODULES = (
    "src/tricky_treats/simulator/_core.py",
    "src/tricky_treats/simulator/_deal.py",
    "src/tricky_treats/simulator/_policy_features.py",
    "src/tricky_treats/simulator/_simulator.py",
    "src/tricky_treats/simulator/_tables.py",
    "src/tricky_treats/variants/_shuffles.py",
)
"""The modules mypyc compiles, as one group: the compact core, the deal into it, the
``Simulator`` over it, the tables that turn a ``GameState`` into a core (``Simulator(state)``),
the deal's shuffles and the value policy's features (``simulator.value_policy_codes``).

They call each other natively. The core, the deal and the shuffles import the standard library
and each other only; the ``Simulator``, the tables and the policy's features import the rest
of the package too, which mypyc sees as ``Any`` (off their hot paths). Each runs the same as
plain Python."""

MYPYC_OPTIONS = ("--follow-imports=skip", "--ignore-missing-imports", "--no-warn-return-any")
"""How mypyc reads the group: alone, the package's other modules (and what they return) Any."""

GROUP = "tricky_treats.simulator._compiled"
"""The group's name: mypyc's runtime library for it is ``<GROUP>__mypyc.<tag>.so``."""

BUILD_REQUIREMENTS = (
    "mypy==2.4.1",  # mypyc: pinned, as a new release may compile the same file differently
    "setuptools>=70",  # mypyc builds its C extension with setuptools' build_ext
)


def compile_requested() -> bool:
    """Whether the environment asks for the compiled core."""
    return os.environ.get(SWITCH, "").strip().lower() in {"1", "true", "yes"}


def compile_core(root: str, out_dir: str) -> list[str]:
    """Compile ``COMPILED_MODULES`` with mypyc into ``out_dir``; the paths of the extensions.

    The extensions lie under ``out_dir`` by package: for each module, ``<module>.<tag>.so``,
    and the group's runtime library, ``tricky_treats/simulator/_compiled__mypyc.<tag>.so``.
    Raises whatever mypyc or the C compiler raised.
    """
    from mypyc.build import mypycify  # the build requirements, only when compiling
    from setuptools import Distribution

    work = tempfile.mkdtemp(prefix="tricky-treats-mypyc-")
    here = os.getcwd()
    try:
        os.chdir(root)  # mypyc names modules from paths relative to the project
        # Only these modules: their other imports are not followed, so no other module of
        # the package, and none of its dependencies, needs to be there (what they return is
        # Any here, typed in the project's own mypy check).
        report = io.StringIO()  # mypy prints its errors: kept for the one line about them
        try:
            with contextlib.redirect_stdout(report):
                extensions = mypycify(
                    [*MYPYC_OPTIONS, *COMPILED_MODULES],
                    opt_level="3",
                    target_dir=os.path.join(work, "c"),
                    group_name=GROUP,
                )
        except SystemExit as error:
            raise RuntimeError(
                f"mypyc refused {', '.join(COMPILED_MODULES)}: {report.getvalue().strip()}"
            ) from error
        distribution = Distribution({"name": "tricky-treats", "ext_modules": extensions})
        command: Any = distribution.get_command_obj("build_ext")
        command.build_lib = out_dir
        command.build_temp = os.path.join(work, "temp")
        command.ensure_finalized()
        command.run()
        outputs: list[str] = command.get_outputs()
        return outputs
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)


def _in_place_builds(root: str) -> list[str]:
    """Compiled copies an editable install left beside the modules they were built from.

    With those of earlier builds that compiled each module on its own (``<module>__mypyc``).
    """
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    group = os.path.join(root, "src", *GROUP.split("."))
    found = glob.glob(f"{group}__mypyc{suffix}")
    for module in COMPILED_MODULES:
        stem = os.path.join(root, module[: -len(".py")])
        found += glob.glob(f"{stem}{suffix}") + glob.glob(f"{stem}__mypyc{suffix}")
    return found


def _up_to_date(root: str, built: list[str]) -> bool:
    """Whether ``built`` holds the group's modules and library, all newer than its sources."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    needed = {os.path.join(root, m[: -len(".py")]) + suffix for m in COMPILED_MODULES}
    needed.add(os.path.join(root, "src", *GROUP.split(".")) + f"__mypyc{suffix}")
    if not needed <= set(built):
        return False
    newest_source = max(os.path.getmtime(os.path.join(root, m)) for m in COMPILED_MODULES)
    return min(map(os.path.getmtime, built)) > newest_source


class CompiledCoreHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the core into wheels when ``TRICKY_TREATS_COMPILE`` asks for it."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """The build requirements of mypyc, only for a build that compiles."""
        return list(BUILD_REQUIREMENTS) if compile_requested() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile the core, or build pure: for a wheel or an editable install."""
        if self.target_name != "wheel":
            return
        editable = version == "editable"
        if editable:
            in_place = _in_place_builds(self.root)
            if compile_requested() and _up_to_date(self.root, in_place):
                return  # pip builds an editable wheel twice: once for its metadata
            for stale in in_place:
                os.remove(stale)
                _say(f"removed the compiled core of an earlier install: {stale}")
        if not compile_requested():
            return
        out_dir = tempfile.mkdtemp(prefix="tricky-treats-core-")
        self._out_dir = out_dir  # removed once the wheel is written (finalize)
        try:
            built = compile_core(self.root, out_dir)
        except (Exception, SystemExit) as error:  # any failure (mypy exits): build pure instead
            _say(
                f"could not compile the core ({type(error).__name__}: {_first_line(error)}); "
                "building the "
                "pure-Python core instead, which plays the same games more slowly. A C compiler "
                "and the Python headers (Debian: gcc, python3-dev) let it compile."
            )
            return
        for path in built:
            relative = os.path.relpath(path, out_dir)
            if editable:
                shutil.copy2(path, os.path.join(self.root, "src", relative))
            else:
                build_data["force_include"][path] = relative
        if not editable:
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
        _say(f"compiled the core with mypyc: {', '.join(sorted(map(os.path.basename, built)))}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the compiled files' temporary directory, now in the wheel (or in place)."""
        out_dir = getattr(self, "_out_dir", None)
        if out_dir is not None:
            shutil.rmtree(out_dir, ignore_errors=True)


def _first_line(error: BaseException) -> str:
    """The first line of an error's text, for the one line the build prints about it."""
    text = str(error).strip()
    return text.splitlines()[0] if text else "no message"


def _say(message: str) -> None:
    print(f"tricky-treats build: {message}", file=sys.stderr)

"""The documentation: its code blocks run, its API reference is complete (issue 12).

The README's examples are doctests (``--doctest-glob``); the pages under ``docs/`` show code
blocks instead, so this module runs them: Python blocks are executed page by page, shell
lines are checked against the command line's parser and the project's files, and the
variant walkthrough is built into a package, installed and tested.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from unittest import mock

import attrs
import pytest

import tricky_treats as tt
from tests.requirements import extra_of_module, install_hint, missing_modules
from tricky_treats import cli

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
PAGES = sorted(DOCS.glob("*.md"))
IMPORT = re.compile(r"^\s*(?:from|import) ([\w.]+)", re.MULTILINE)
WALKTHROUGH = DOCS / "writing-a-variant.md"


def _blocks(page: Path, language: str) -> list[tuple[str, str]]:
    """``(the line before, code)`` of every ``language`` block of ``page``, snippets left out."""
    text = page.read_text()
    found = []
    for match in FENCE.finditer(text):
        if match.group(1) != language or match.group(2).startswith("--8<--"):
            continue  # an included example file is run by tests/test_examples.py
        before = text[: match.start()].rstrip().splitlines()[-1]
        found.append((before, match.group(2)))
    return found


@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if p != WALKTHROUGH and _blocks(p, "python")],
    ids=lambda p: p.name,
)
def test_python_blocks_run(page: Path) -> None:
    """A page's Python blocks run in order, in one namespace, as a reader would paste them."""
    blocks = _blocks(page, "python")
    imported = {m for _, code in blocks for m in IMPORT.findall(code)}
    for extra in sorted({e for m in imported if (e := extra_of_module(m))}):
        if missing_modules(extra):
            pytest.skip(f"{page.name} {install_hint(extra)}")
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    for _, code in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, str(page), "exec", dont_inherit=True), namespace)


def _extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return set(project["optional-dependencies"])


def _example_distributions() -> dict[str, Path]:
    """The distributions under examples/ by name, with their folders."""
    found = {}
    for path in ROOT.glob("examples/*/pyproject.toml"):
        found[tomllib.loads(path.read_text())["project"]["name"]] = path.parent
    return found


def _example_scripts() -> set[str]:
    """The console scripts of the packages under examples/."""
    scripts: set[str] = set()
    for path in ROOT.glob("examples/*/pyproject.toml"):
        project = tomllib.loads(path.read_text())["project"]
        scripts |= set(project.get("scripts", {}))
    return scripts


def _check_shell_line(page: Path, line: str) -> None:
    if " && " in line:
        for part in line.split(" && "):
            _check_shell_line(page, part)
        return
    words = shlex.split(line, comments=True)
    if not words:
        return
    if words[0] == "tricky-treats":
        args = cli._parser().parse_args(words[1:])  # exits (fails) on an unknown option
        if args.command is cli._play:
            cli._seats(args, None)  # the bots named exist
        for spec in (getattr(args, "agents", None) or "").split(","):
            if spec:
                tt_make_agent(spec)
        return
    if words[:4] == ["python", "-m", "pip", "install"] or words[:2] == ["pip", "install"]:
        for word in words[words.index("install") + 1 :]:
            if word == "-e":
                continue
            name, _, extras = word.partition("[")
            known = _extras()
            if name.startswith("examples/") or name in _example_distributions():
                # A distribution under examples/ (the web app): its own extras.
                folder = ROOT / name if name.startswith("examples/") else None
                folder = folder or _example_distributions()[name]
                assert (folder / "pyproject.toml").is_file(), f"{page.name}: {line!r}"
                project = tomllib.loads((folder / "pyproject.toml").read_text())["project"]
                known = set(project.get("optional-dependencies", {}))
            elif name.startswith("."):
                made = name in ("./my-variant", "./tricky-treats")  # the variant guide's folders
                assert (ROOT / name).exists() or made, f"{page.name}: {line!r}"
            else:
                assert name == "tricky-treats", f"{page.name}: {line!r}"
            for extra in filter(None, extras.rstrip("]").split(",")):
                assert extra in known, f"{page.name}: no extra {extra!r} in {line!r}"
        return
    if words == ["git", "clone", "https://github.com/tricky-treats/tricky-treats"]:
        return  # the repository itself (the variant guide, before the first release)
    if words[:3] == ["python3", "-m", "venv"] or words[0] == ".":
        return  # a virtual environment, made and activated
    if words[0] in {"sqlite3", "pg_dump", "pg_restore"}:
        return  # the databases' own backup tools (docs/hosting.md)
    if words[0] == "tricky-treats-web" and importlib.util.find_spec("tricky_treats_web"):
        from tricky_treats_web.cli import parser

        parser().parse_args(words[1:])  # exits (fails) on an unknown option
        return
    if words[0].startswith("scripts/"):  # the project's own scripts (docs/translating.md)
        assert (ROOT / words[0]).is_file(), f"{page.name}: {line!r}"
        assert os.access(ROOT / words[0], os.X_OK), f"{page.name}: {words[0]} is not executable"
        return
    if words[0] in _example_scripts():
        return  # the console script of a package under examples/, tested by its own tests
    if words[0] == "python" and words[1].endswith(".py"):
        assert (ROOT / words[1]).is_file(), f"{page.name}: {line!r}"
        return
    if words[:3] == ["python", "-m", "tricky_treats.adapters.training"]:
        pytest.importorskip("numpy", reason=install_hint("policy"))
        from tricky_treats.adapters import training

        class TrainingStartedError(Exception):
            """The options parsed and checked: where ``main`` would start training."""

        # exits (fails) on an unknown option or a value TrainingConfig refuses
        with (
            mock.patch.object(training, "train", side_effect=TrainingStartedError),
            pytest.raises(TrainingStartedError),
        ):
            training.main(words[3:])
        return
    if words[:3] in (["python", "-m", "pytest"], ["python", "-c", words[2]]):
        return  # the test suite itself; one-liners run in the walkthrough test
    pytest.fail(f"{page.name}: a shell line this test does not know how to check: {line!r}")


def tt_make_agent(spec: str) -> None:
    from tricky_treats.agents import make_agent
    from tricky_treats.bot_protocol import exec_command, is_exec_spec

    if is_exec_spec(spec):
        exec_command(spec)  # the program is found (the bot is not run)
    else:
        make_agent(spec)


@pytest.mark.parametrize("page", [p for p in PAGES if _blocks(p, "sh")], ids=lambda p: p.name)
def test_shell_lines_name_real_commands_options_and_files(page: Path) -> None:
    for _, code in _blocks(page, "sh"):
        for line in code.splitlines():
            _check_shell_line(page, line)


def test_the_variant_walkthrough_builds_installs_and_passes_its_tests(tmp_path: Path) -> None:
    """Every file the page shows, written out, makes an installable variant whose tests pass."""
    package = tmp_path / "my-variant"
    files = {}
    for language in ("toml", "python"):
        for before, code in _blocks(WALKTHROUGH, language):
            label = re.fullmatch(r"`([^`]+)`:", before)
            assert label, f"say which file a block is: {before!r}"
            files[label.group(1)] = code
    assert set(files) == {
        "pyproject.toml",
        "src/tricky_treats_double_pumpkins/__init__.py",
        "tests/test_double_pumpkins.py",
    }
    # Its tests need pytest, which the package names (issue 38: it did not).
    project = tomllib.loads(files["pyproject.toml"])["project"]
    assert any(r.startswith("pytest") for r in project["optional-dependencies"]["test"])
    for path, code in files.items():
        (package / path).parent.mkdir(parents=True, exist_ok=True)
        (package / path).write_text(code)
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--no-build-isolation", "--target", str(site), str(package)],
        check=True,
    )  # fmt: skip
    env = {"PYTHONPATH": str(site), "PATH": ""}
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "/dev/null",
         str(package / "tests")],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout
    (one_liner,) = [
        line for _, code in _blocks(WALKTHROUGH, "sh") for line in code.splitlines()
        if line.startswith("python -c ")
    ]  # fmt: skip
    shown = subprocess.run(
        [sys.executable, *shlex.split(one_liner)[1:]],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    assert "'double-pumpkins'" in shown.stdout


def test_the_home_pages_code_fits_its_column() -> None:
    """The quick start overflowed sideways; at 1280 pixels a code block shows 66 characters."""
    for language in ("sh", "python"):
        for _, code in _blocks(DOCS / "index.md", language):
            for line in code.splitlines():
                assert len(line) <= 64, line


# -- the API reference -----------------------------------------------------------------------

API = (DOCS / "api.md").read_text()
PRIVATE_FIELDS = {
    # docs/stability.md: derived counts and the lookup tables may change in any release
    "PlayerState": {"feature_counts", "visible_icons", "free_kids", "qualified", "visitable"},
    "Setup": {"lookup"},
}
# Modules whose public fields are not yet documented field by field (none now).
FIELD_DOCS_PENDING: set[str] = set()


def test_every_public_name_has_its_entry_under_its_public_name() -> None:
    entries = re.findall(r"^::: (\S+)", API, flags=re.MULTILINE)
    public = {f"tricky_treats.{name}" for name in tt.__all__ if not name.startswith("__")}
    for dunder in ("__version__", "__compiled__"):  # described in the page's opening words
        assert f"`tt.{dunder}`" in API
    assert public <= set(entries)
    assert len(entries) == len(set(entries))
    for entry in set(entries) - public:  # the public modules of docs/stability.md
        assert entry in {
            "tricky_treats.hookspecs",
            "tricky_treats.plugins",
            "tricky_treats.rules.build_player",
            "tricky_treats.testing",
            "tricky_treats.testing.strategies",
            "tricky_treats.report",
            "tricky_treats.report.stats",
            "tricky_treats.protocol.installed",
            "tricky_treats.protocol.game_kit",
            "tricky_treats.i18n",
            "tricky_treats.words",
        } or entry.rpartition(".")[0] in {  # names of modules outside the root (issue 44)
            "tricky_treats.host",
            "tricky_treats.drawing",
            "tricky_treats.serialization",
            "tricky_treats.simulation",
            "tricky_treats.simulator",
        }, entry


def _public_classes() -> list[type]:
    return [
        obj for name in tt.__all__ if isinstance(obj := getattr(tt, name), type) and attrs.has(obj)
    ]


def test_every_public_field_has_a_type_and_a_meaning() -> None:
    """What mkdocstrings renders for a field: its annotation and its docstring."""
    griffe = pytest.importorskip("griffe", reason=install_hint("docs"))
    package = griffe.load("tricky_treats", search_paths=[str(ROOT / "src")])
    missing = []
    for cls in _public_classes():
        if cls.__module__ in FIELD_DOCS_PENDING:
            continue
        documented = package[f"{cls.__module__.removeprefix('tricky_treats.')}.{cls.__name__}"]
        for field in attrs.fields(cls):
            if field.name.startswith("_") or field.name in PRIVATE_FIELDS.get(cls.__name__, ()):
                continue
            member = documented.members.get(field.name)
            if member is None or member.annotation is None or not member.docstring:
                missing.append(f"{cls.__name__}.{field.name}")
    assert missing == []


def test_the_private_fields_are_filtered_out_of_the_reference() -> None:
    config = (ROOT / "mkdocs.yml").read_text()
    (pattern,) = re.findall(r'"!\^\((.*)\)\$"', config)
    assert set(pattern.split("|")) == set().union(*PRIVATE_FIELDS.values())
    for cls in _public_classes():  # no public field shares a private field's name
        for field in attrs.fields(cls):
            if field.name in set(pattern.split("|")):
                assert field.name in PRIVATE_FIELDS.get(cls.__name__, ()), cls


def test_attrs_fields_show_their_default_not_their_validators() -> None:
    griffe = pytest.importorskip("griffe", reason=install_hint("docs"))
    sys.path.insert(0, str(DOCS / "hooks"))
    try:
        from griffe_attrs import AttrsDefaults  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(DOCS / "hooks"))
    package = griffe.load(
        "tricky_treats",
        search_paths=[str(ROOT / "src")],
        extensions=griffe.load_extensions(AttrsDefaults),
    )
    card = package["components.CostumeCard"]
    assert card.members["colour"].value is None  # required: no default, no _member(...)
    rules = package["components.RulesData"]
    assert str(rules.members["market_size"].value) == "5"  # not _InRange(...)
    for member in package["components.Colour"].members.values():
        assert member.value is not None  # an enum member keeps its value
    config = (ROOT / "mkdocs.yml").read_text()
    assert "show_if_no_docstring: true" in config  # enum members have no docstrings


def test_doctest_examples_become_code_blocks() -> None:
    sys.path.insert(0, str(DOCS / "hooks"))
    try:
        from griffe_doctest import fence_doctests  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(DOCS / "hooks"))
    text = "Intro.\n\n>>> 1 + 1\n2\n\nAfter.\n\n    >>> x\n    1\n\n```py\n>>> kept\n```"
    assert fence_doctests(text) == (
        "Intro.\n\n```pycon\n>>> 1 + 1\n2\n```\n\nAfter.\n\n    ```pycon\n    >>> x\n    1\n"
        "    ```\n\n```py\n>>> kept\n```"
    )


# -- the rules page ----------------------------------------------------------------------------

RULES = (DOCS / "rules.md").read_text()
ROW = re.compile(r"^\| \*\*([RP]\d+)\*\* \| (.*?) \| (.*?) \| (.*?) \|$", re.MULTILINE)


def _test_docstrings(file: str) -> dict[str, str]:
    import ast

    tree = ast.parse((ROOT / "tests" / file).read_text())
    return {
        node.name: ast.get_docstring(node) or ""
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


def test_every_ruling_quotes_the_rulebook_and_links_tests_that_cite_it() -> None:
    rows = ROW.findall(RULES)
    rulings = {ruling for ruling, *_ in rows}
    assert {f"R{n}" for n in range(1, 25)} <= rulings
    projects = sorted(int(r[1:]) for r in rulings if r.startswith("P"))
    assert projects == list(range(1, len(projects) + 1))  # P1, P2, ... without gaps
    links = dict(re.findall(r"^\[(test_\w+)\]: (\S+)$", RULES, flags=re.MULTILINE))
    for ruling, rulebook, engine, tests in rows:
        assert rulebook.startswith(('"', "*(silent")), f"{ruling}: quote the rulebook"
        assert engine
        groups = re.findall(r"\[`(test_\w+\.py)`\]\[(test_\w+)\]: ((?:`test_\w+`(?:, )?)+)", tests)
        assert groups, f"{ruling}: name the tests that check it"
        for file, label, names in groups:
            assert links[label].endswith(f"/tests/{file}"), label
            docstrings = _test_docstrings(file)
            for name in re.findall(r"`(test_\w+)`", names):
                assert name in docstrings, f"{ruling}: no {file}::{name}"
                assert re.search(rf"\b{ruling}\b", docstrings[name]), f"{name} cites no {ruling}"


def test_the_docs_cite_no_file_outside_the_repository() -> None:
    """The rules folder the project was built from is not shipped: quote it, never cite it."""
    for page in PAGES:
        text = page.read_text()
        for outside in ("shared/rules", "RULINGS.md", "../shared"):
            assert outside not in text or page.name == "changelog.md", (page.name, outside)


SITE = "https://tricky-treats.github.io/tricky-treats/"
DIRECTIVE = re.compile(r"^(?::::|--8<--) ", re.MULTILINE)


@pytest.mark.parametrize("page", [p for p in PAGES if DIRECTIVE.search(p.read_text())], ids=str)
def test_a_page_the_site_fills_in_says_where_its_rendered_form_is(page: Path) -> None:
    """Issue 38: on a code host `:::` and `--8<--` lines show as they are, and nothing else."""
    text = page.read_text()
    assert f"<{SITE}{page.stem}/>" in text, f"{page.name}: say where the rendered page is"
    for included in re.findall(r'^--8<-- "([^"]+)"', text, re.MULTILINE):
        assert f"blob/main/{included})" in text, f"{page.name}: link {included}"


def test_the_embedding_page_names_the_schema_of_the_views_it_describes() -> None:
    """Issue 38: the page named view-v1.schema.json while views are at version 2."""
    current = tt.view_schema()["$id"].rsplit("/", 1)[1]
    assert f"`schemas/{current}`" in (DOCS / "embedding.md").read_text()


RELEASED_INSTALL = re.compile(r"pip install [\"']?tricky-treats\b")


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=lambda p: p.name)
def test_a_released_install_line_stands_beside_the_clones(page: Path) -> None:
    """Issue 38: `pip install 'tricky-treats[cli]'` fails until the first release."""
    if page.name in ("changelog.md", "releasing.md"):
        return  # the release's own steps, and the project's history
    paragraphs = re.split(r"\n\s*\n", page.read_text())
    for before, paragraph in zip(["", *paragraphs], paragraphs, strict=False):
        if RELEASED_INSTALL.search(paragraph):  # the clone's line in it, or just before it
            assert "pip install -e" in before + paragraph, f"{page.name}: {paragraph[:200]!r}"


def test_the_api_page_reads_in_a_clone() -> None:
    """Issue 48: in the repository the API page was 114 lines of ``::: name`` placeholders.

    Each section opens with a table of its entries and their docstrings' first sentences,
    as ``scripts/api_summaries`` writes it: it must be current.
    """
    pytest.importorskip("griffe", reason="needs the docs extra: pip install -e '.[docs]'")
    import importlib.machinery
    import importlib.util

    path = ROOT / "scripts" / "api_summaries"
    loader = importlib.machinery.SourceFileLoader("_api_summaries_script", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    script = importlib.util.module_from_spec(spec)
    loader.exec_module(script)
    page = (ROOT / "docs" / "api.md").read_text()
    assert script.tables(page) == page, "run scripts/api_summaries"
    entries = re.findall(r"^::: (\S+)", page, flags=re.MULTILINE)
    rows = re.findall(r"^\| `(?:tt\.)?[^`]+` \| .+ \|$", page, flags=re.MULTILINE)
    assert len(rows) == len(entries) > 100  # a row per entry, none of them empty

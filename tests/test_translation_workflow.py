"""``scripts/translations``, as docs/translating.md has a translator run it (issue 48).

Run on a copy of the project's sources: from the light install the page documents (Babel,
without the web app or the candy games installed), it must change no file when nothing
changed, update every catalog (the candy games' too) when a message is added, and start a
new language whose catalogs hold no placeholder header.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("babel", reason="needs Babel: pip install -e '.[dev]'")

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("scripts", "src/tricky_treats", "examples", "pyproject.toml", "LICENSE")
"""What the workflow reads and writes, copied from the checkout."""
NOT_INSTALLED = ("tricky_treats_web", "hack_trick", "candy_chaser", "tricks_and_treats")
"""Packages a light install (``pip install -e '.[dev]'``) does not have."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the files the workflow works on, as git has them in this checkout."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", *SOURCES], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    copy = tmp_path / "project"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.is_file():
            continue  # deleted in the work tree
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    # The packages a light install lacks: importing one fails, as it would there.
    blocked = tmp_path / "not-installed"
    blocked.mkdir()
    for package in NOT_INSTALLED:
        (blocked / f"{package}.py").write_text(
            f"raise ImportError('{package} is not installed (a light install)')\n"
        )
    return copy


def _run(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ, PYTHONPATH=str(project.parent / "not-installed"))
    return subprocess.run(
        [sys.executable, str(project / "scripts" / "translations"), *argv],
        cwd=project,
        capture_output=True,
        text=True,
        env=environ,
        check=False,
    )


def _catalog_files(project: Path) -> dict[Path, tuple[bytes, int]]:
    found = {}
    for path in project.rglob("*"):
        catalog = path.suffix in (".po", ".pot", ".mo", ".json")
        if catalog and {"locale", "i18n"} & set(path.parts):
            found[path.relative_to(project)] = (path.read_bytes(), path.stat().st_mtime_ns)
    return found


def test_the_workflow_runs_from_a_light_install_and_changes_nothing_unchanged(
    project: Path,
) -> None:
    """It crashed without the web app, emptied the web template, and rewrote 9 date stamps."""
    before = _catalog_files(project)
    assert any(p.suffix == ".json" for p in before)  # the web pages' catalogs are looked at
    ran = _run(project)
    assert ran.returncode == 0, ran.stderr
    assert "wrote" not in ran.stdout
    assert ran.stderr == ""
    assert _catalog_files(project) == before  # every byte, and every file left untouched
    ran = _run(project)  # and again
    assert ran.returncode == 0
    assert _catalog_files(project) == before


def test_a_new_message_reaches_every_catalog_that_has_it(project: Path) -> None:
    """The candy games' catalogs were never updated (the script stopped before them)."""
    console = project / "examples" / "hack-trick" / "src" / "hack_trick" / "__main__.py"
    console.write_text(console.read_text() + '\nNEW_WORDS = N_("a message added today")\n')
    board = project / "examples" / "web" / "src" / "tricky_treats_web" / "static" / "board.js"
    board.write_text(board.read_text() + '\nconst ADDED = N_("a page text added today");\n')
    ran = _run(project)
    assert ran.returncode == 0, ran.stderr
    locale = console.parent / "locale"
    assert 'msgid "a message added today"' in (locale / "hack_trick.pot").read_text()
    dutch = (locale / "nl" / "LC_MESSAGES" / "hack_trick.po").read_text()
    assert 'msgid "a message added today"\nmsgstr ""' in dutch
    assert "hack_trick nl: 1 of " in ran.stdout
    web = project / "examples" / "web" / "src" / "tricky_treats_web" / "locale"
    assert 'msgid "a page text added today"' in (web / "tricky_treats_web.pot").read_text()
    template = (web / "tricky_treats_web.pot").read_text()
    assert template.count("msgid ") > 200  # the pages' texts are all there, not emptied
    # The other catalogs did not change: only what the new messages touch is written.
    written = {line.removeprefix("wrote ") for line in ran.stdout.splitlines() if "wrote" in line}
    assert written == {
        "examples/hack-trick/src/hack_trick/locale/hack_trick.pot",
        "examples/hack-trick/src/hack_trick/locale/nl/LC_MESSAGES/hack_trick.po",
        "examples/hack-trick/src/hack_trick/locale/nl/LC_MESSAGES/hack_trick.mo",  # its dates
        "examples/web/src/tricky_treats_web/locale/tricky_treats_web.pot",
        "examples/web/src/tricky_treats_web/locale/nl/LC_MESSAGES/tricky_treats_web.po",
    }


def test_a_new_language_starts_with_a_real_header(project: Path) -> None:
    ran = _run(project, "init", "de")
    assert ran.returncode == 0, ran.stderr
    engine = project / "src" / "tricky_treats" / "locale" / "de" / "LC_MESSAGES"
    web = project / "examples" / "web" / "src" / "tricky_treats_web" / "locale" / "de"
    assert (engine / "tricky_treats.po").is_file()
    assert (web / "LC_MESSAGES" / "tricky_treats_web.po").is_file()
    ran = _run(project)
    assert ran.returncode == 0, ran.stderr
    assert (engine / "tricky_treats.mo").is_file()
    assert "tricky_treats de: " in ran.stdout  # what is left to translate, counted
    assert (web.parent.parent / "static" / "i18n" / "de.json").read_text() == "{}\n"
    for po in (engine / "tricky_treats.po", web / "LC_MESSAGES" / "tricky_treats_web.po"):
        header = po.read_text().split("\n\n")[0]
        for placeholder in ("PROJECT", "FIRST AUTHOR", "EMAIL@ADDRESS", "YEAR-MO-DA"):
            assert placeholder not in header, (po, placeholder)
        assert "Language: de" in header


def test_the_shipped_catalogs_pass_msgfmt_check_without_a_warning() -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("needs GNU gettext's msgfmt: apt-get install gettext")
    catalogs = [
        p
        for p in ROOT.glob("**/locale/*/LC_MESSAGES/*.po")
        if "node_modules" not in p.parts and ".git" not in p.parts
    ]
    assert len(catalogs) >= 5
    for po in catalogs:
        checked = subprocess.run(
            [msgfmt, "--check", "-o", os.devnull, str(po)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr
        assert checked.stderr == "", checked.stderr  # no warning: no placeholder header

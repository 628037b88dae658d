"""What a user of the published package sees: licence, README links, extras (issue 12)."""

from __future__ import annotations

import importlib.metadata
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.requirements import engine_hint

ROOT = Path(__file__).parent.parent
REPOSITORY = "https://github.com/tricky-treats/tricky-treats"
SITE = "https://tricky-treats.github.io/tricky-treats/"
SUGAR_RUSH = ROOT / "examples" / "sugar-rush"


def test_the_licence_is_mit_in_the_file_and_the_metadata() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    metadata = importlib.metadata.metadata("tricky-treats")
    assert metadata["License-Expression"] == "MIT"


def _links(markdown: str) -> list[str]:
    inline = re.findall(r"\]\(([^)\s]+)\)", markdown)
    references = re.findall(r"^\[[^\]]+\]:\s*(\S+)", markdown, flags=re.MULTILINE)
    return inline + references


def test_readme_links_work_in_a_clone() -> None:
    """Issue 48: all 23 links went to the site or the code host, none to ``docs/*.md``.

    In the repository the README links its files relatively: a documentation page is its
    Markdown file under ``docs/`` (a page of the site too), anything else a file or folder.
    """
    links = _links((ROOT / "README.md").read_text())
    assert len(links) >= 10
    config = (ROOT / "mkdocs.yml").read_text()
    relative = [link for link in links if "://" not in link]
    assert len(relative) >= 20
    assert all(link.startswith(("https://", "http://")) for link in set(links) - set(relative))
    for link in relative:
        path = link.partition("#")[0]
        assert (ROOT / path).exists(), link
        if path.startswith("docs/"):
            assert f": {path.removeprefix('docs/')}" in config, f"{link}: not in the site's nav"


def test_readme_links_work_on_the_package_index() -> None:
    """The README is the package's long description: there, no file stands beside it.

    The build (hatch_build.py) makes every relative link absolute: documentation pages link
    to the built site, where their snippets and API entries are rendered, other files to the
    repository. The installed metadata holds that copy.
    """
    sys.path.insert(0, str(ROOT))
    try:
        from hatch_build import package_readme
    finally:
        sys.path.remove(str(ROOT))
    description = package_readme((ROOT / "README.md").read_text(), str(ROOT))
    assert importlib.metadata.metadata("tricky-treats")["Description"].strip() == (
        description.strip()
    ), "reinstall: pip install -e ."
    links = _links(description)
    assert len(links) >= 10
    config = (ROOT / "mkdocs.yml").read_text()
    assert f"site_url: {SITE}\n" in config
    for link in links:
        if link.startswith(SITE):
            page = link.removeprefix(SITE).partition("#")[0].rstrip("/")
            assert (ROOT / "docs" / f"{page or 'index'}.md").is_file(), link
            assert f": {page}.md" in config or not page, f"{link}: not in the site's nav"
            continue
        assert link.startswith(f"{REPOSITORY}/"), link
        kind, branch, path = link.removeprefix(f"{REPOSITORY}/").split("/", 2)
        assert (kind, branch) in {("blob", "main"), ("tree", "main")}, link
        assert not path.startswith("docs/"), f"{link}: link the page on the site"
        target = ROOT / path
        assert target.is_file() if kind == "blob" else target.is_dir(), link


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```", readme, flags=re.MULTILINE | re.DOTALL)
    return [line for block in blocks for line in block.splitlines()]


def test_readme_installs_from_a_clone_and_says_the_index_release_is_pending() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "The first release is not on the package index yet ([releasing]), so install" in readme
    commands = _readme_commands()
    assert "python -m pip install -e . && python examples/random_game.py" in commands
    assert not any(re.search(r"pip install [\"']?tricky-treats\b", line) for line in commands)


def test_ci_runs_the_readmes_test_command_and_checks_a_release() -> None:
    light, test_command = [line for line in _readme_commands() if line.endswith("python -m pytest")]
    # Issue 38: the engine's tests alone, beside the whole suite that CI runs.
    assert light == "python -m pip install -e '.[dev]' && python -m pytest"
    assert test_command == (
        "python -m pip install -e '.[all]' -e 'examples/web[postgresql]' -e examples/hack-trick "
        "-e examples/candy-chaser -e examples/tricks-and-treats && python -m pytest"
    )
    ci = (ROOT / ".ci" / "run").read_text()
    assert f"\n{test_command}\n" in ci
    assert "export CI=true" in ci  # where a skip fails
    # Issue 44: the light path as written, in a fresh venv, its skips naming their pip line.
    assert f'grep -xF "{light}" README.md' in ci
    assert "grep '^SKIPPED' \"$light_log\" | grep -v 'pip install'" in ci
    for step in ("python -m build", "twine check", "examples/random_game.py"):
        assert step in ci, step


def test_the_sdist_carries_what_its_tests_and_docs_need() -> None:
    sdist = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"][
        "targets"
    ]["sdist"]["include"]
    for needed in ("src/", "tests/", "docs/", "examples/", "mkdocs.yml", "conftest.py"):
        assert needed in sdist, needed


def test_strategies_without_hypothesis_say_which_extra_to_install() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"  # as if Hypothesis were not installed
        "import tricky_treats.testing.strategies"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: tricky_treats.testing.strategies needs Hypothesis")
    assert engine_hint("test").search(last)


@pytest.fixture(scope="module")
def sugar_rush_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--no-build-isolation", "--target", str(target), str(SUGAR_RUSH)],
        check=True,
    )  # fmt: skip
    return target


def test_the_example_variants_one_liner_shows_its_effect(sugar_rush_site: Path) -> None:
    readme = (SUGAR_RUSH / "README.md").read_text()
    command = next(line for line in readme.splitlines() if line.startswith("python -c "))
    shown = readme.split("```text\n", 1)[1].split("```", 1)[0]
    argv = shlex.split(command)
    result = subprocess.run(
        [sys.executable, *argv[1:]],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(sugar_rush_site)},
    )
    assert result.stdout == shown
    base, sugar = result.stdout.splitlines()
    assert base != sugar.replace("sugar rush:", "base game: ")  # the variant changed the house


def test_every_benchmark_has_a_quick_mode_that_ci_runs() -> None:
    """Issue 44: bench_engine.py crashed for a release and nothing saw it; CI now runs every
    script under benchmarks/ with --quick."""
    scripts = sorted((ROOT / "benchmarks").glob("bench_*.py"))
    assert len(scripts) > 10
    for script in scripts:
        assert '"--quick"' in script.read_text(encoding="utf-8"), script.name
    ci = (ROOT / ".ci" / "run").read_text()
    assert "for script in benchmarks/bench_*.py; do" in ci
    assert 'python "$script" --quick >/dev/null' in ci

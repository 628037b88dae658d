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

ROOT = Path(__file__).parent.parent
REPOSITORY = "https://github.com/tricky-treats/tricky-treats"
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


def test_readme_links_work_on_the_package_index() -> None:
    """The README is the package's long description: a relative link would break there."""
    links = _links((ROOT / "README.md").read_text())
    assert len(links) >= 10
    for link in links:
        assert link.startswith(f"{REPOSITORY}/"), link
        kind, branch, path = link.removeprefix(f"{REPOSITORY}/").split("/", 2)
        assert (kind, branch) in {("blob", "main"), ("tree", "main")}, link
        target = ROOT / path
        assert target.is_file() if kind == "blob" else target.is_dir(), link


def test_readme_says_how_to_install_the_library() -> None:
    assert "python -m pip install tricky-treats " in (ROOT / "README.md").read_text()


def test_strategies_without_hypothesis_say_which_extra_to_install() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"  # as if Hypothesis were not installed
        "import tricky_treats.testing.strategies"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: tricky_treats.testing.strategies needs Hypothesis")
    assert "pip install 'tricky-treats[test]'" in last


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

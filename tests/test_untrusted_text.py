"""Names are text (issue 37): a name from a record, a command line or a plugin label is never
markup or script wherever it is shown (the terminal, the replay page, pictures, the balance
report), and a message quotes a short, marked excerpt of what it was given, never all of it."""

from __future__ import annotations

import html.parser
import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

import tricky_treats as tt
from tests.registry import registered_variants
from tests.requirements import WEB_APP_HINT, install_hint, needs_extra
from tricky_treats.cli import main
from tricky_treats.drawing import board_svg
from tricky_treats.host import Table
from tricky_treats.simulation import simulate

SCRIPT = "</script><script>alert(1)</script>"
LINK = "[link=https://example.org]Ann[/link]"
CLOSING = "[/]"
FORMULA = "$\\frac$ {0} <!--"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _record(tmp_path: Path, names: list[str], moves: int | None = None) -> Path:
    """A record of a seeded game between greedy bots named ``names``, cut after ``moves``."""
    states = tt.play_game(tt.new_game(players=names, seed=6), [tt.GreedyAgent()] * 2, seed=6)
    path = tmp_path / "game.json"
    path.write_text(tt.dumps(states[-1] if moves is None else states[moves]))
    return path


class _Page(html.parser.HTMLParser):
    """The elements of a page and the text of its scripts, as a browser would split them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


# -- the replay page ------------------------------------------------------------------------------


def test_a_name_in_a_record_cannot_end_the_replay_pages_script(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``replay --svg`` put the captions into the page's script as they were: a player named
    ``</script><script>alert(1)</script>`` ran script when index.html was opened."""
    record = _record(tmp_path, [SCRIPT, FORMULA])
    folder = tmp_path / "pictures"
    assert _run(capsys, "replay", "--svg", str(folder), str(record))[0] == 0
    text = (folder / "index.html").read_text()
    page = _Page()
    page.feed(text)
    assert page.tags.count("script") == 1
    (script,) = page.scripts
    assert "</script" not in script.lower()
    assert "<!--" not in script
    captions = json.loads(re.search(r"const captions = (\[.*?\]);\n", script, re.S)[1])  # type: ignore[index]
    assert any(f"{SCRIPT} plays" in caption for caption in captions)
    assert any(f"{FORMULA} plays" in caption for caption in captions)
    assert "<title>Tricky Treats replay: &lt;/script&gt;&lt;script&gt;alert(1)" in text


def test_a_picture_shows_a_hostile_name_as_text() -> None:
    import xml.etree.ElementTree as ET

    svg = board_svg(tt.new_game(players=[SCRIPT, LINK], seed=1).view(0))
    root = ET.fromstring(svg)
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    assert SCRIPT in "".join(root.itertext())
    assert "<script>" not in svg


# -- the terminal ---------------------------------------------------------------------------------


def test_names_on_the_command_line_print_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``play --names '[/],Bo'`` ended in MarkupError; a link name printed as "Ann" with a
    hidden hyperlink."""
    saved = tmp_path / "saved.json"
    names = f"{CLOSING},{LINK}"
    status, out, err = _run(
        capsys, "play", "--seats", "greedy,greedy", "--names", names, "--seed", "3",
        "--save", str(saved),
    )  # fmt: skip
    assert status == 0, err
    assert f"Tricky Treats: {CLOSING}, {LINK}." in out
    assert f"{LINK} (winner)" in out or f"{CLOSING} (winner)" in out
    assert tt.loads(saved.read_text()).config.players == (CLOSING, LINK)


def test_names_in_a_record_print_as_written_in_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = _record(tmp_path, [CLOSING, LINK])
    status, out, err = _run(capsys, "replay", str(record))
    assert status == 0, err
    assert f"2 players ({CLOSING}, {LINK})" in out
    assert f"  1. {CLOSING}: " in out
    assert "\x1b]8;" not in out  # no hyperlink escape


def test_names_in_a_loaded_game_print_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = _record(tmp_path, [LINK, CLOSING], moves=4)
    status, out, err = _run(capsys, "play", "--load", str(record), "--seats", "greedy,greedy")
    assert status == 0, err
    assert f"Tricky Treats: {LINK}, {CLOSING}." in out


def test_a_plugins_title_prints_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    variant = tt.Variant(
        name="marked", version="1", title=f"{CLOSING} [bold]loud", description="d", plugin=object()
    )
    with registered_variants(variant):
        status, out, err = _run(capsys, "variants")
    assert status == 0, err
    assert f"{CLOSING} [bold]loud" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@needs_extra("report")
def test_a_progress_label_is_neither_markup_nor_a_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bar's label was rich markup and a format string: "[/]" or "{0}" broke it. A
    report's sample is labelled by its player, and its games are played under a bar."""
    stream = _Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    label = shlex.quote(f"{CLOSING} {FORMULA}")
    spec = f"label={label} games=2 players=2 bot=random"
    assert main(["report", "--config", spec, "--jobs", "1", "-o", str(tmp_path / "r.html")]) == 0
    assert f"Playing {CLOSING} {FORMULA}" in stream.getvalue()


# -- the balance report ---------------------------------------------------------------------------


def test_the_report_shows_a_hostile_label_as_text() -> None:
    """Sample labels are escaped in the page, and plots draw "$...$" as written (a label
    "$\\frac$" gave matplotlib's ValueError)."""
    pytest.importorskip("matplotlib", reason=install_hint("report"))
    from tests.test_report import _four, _other
    from tricky_treats.report import Sample, render_report

    other = _other()
    hostile = Sample(f"{SCRIPT} {FORMULA}", other.results, other.description)
    page = render_report([hostile, _four()], title=SCRIPT)
    parsed = _Page()
    parsed.feed(page)
    assert "script" not in parsed.tags
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; $\\frac$ {0} &lt;!--" in page


# -- echoed input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda huge: tt.new_game(2, variants=[huge]),
        lambda huge: tt.get_variant(huge),
        lambda huge: tt.new_game(2, first_player=huge),
        lambda huge: Table(tt.new_game(2, seed=1), bots={0: huge}),
        lambda huge: list(simulate(1, ["random", "random"], backend=huge)),
        lambda huge: list(simulate(1, ["random", "random"], variants=huge)),
    ],
    ids=["variant", "get_variant", "first_player", "bot", "backend", "variants-string"],
)
def test_a_message_quotes_a_short_marked_excerpt_of_huge_input(make: object) -> None:
    """``new_game(variants=['k' * 10**6])`` gave a message of 1,000,092 characters."""
    huge = "k" * 10**6
    with pytest.raises(tt.TrickyTreatsError) as caught:
        make(huge)  # type: ignore[operator]
    message = str(caught.value)
    assert len(message) < 400, len(message)
    assert "kkkk" in message
    assert "(1000002 characters)" in message or message.count("...") == 1


@needs_extra("webtest")
def test_the_web_app_quotes_a_short_excerpt_of_a_huge_variant_name(tmp_path: Path) -> None:
    """A 3.9 KB variant name in a POST to the web example came back whole."""
    from starlette.testclient import TestClient

    pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)
    from tricky_treats_web import Lobby, create_app

    client = TestClient(create_app(Lobby(max_games=2), wheel_dir=tmp_path / "wheels"))
    request = {"players": [{"name": "Ann"}, {"name": "Bo"}], "variants": ["v" * 3900]}
    response = client.post("/api/games", content=json.dumps(request))
    assert response.status_code == 400
    assert len(response.text) < 400
    assert "(3902 characters)" in response.text

"""Words and first steps (issue 48): the screens in the player's language and grammar.

Grammar is checked where a player reads it, on rendered screens (the terminal's turn, the
picture, the end of the game, the replay page, the command line's errors), not in the
catalogs alone. Names are names: a player called "You" or "Jij" is never the reader.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import tricky_treats as tt
from tests.test_cli_play import _run, _script, _stdin
from tricky_treats.drawing import MAX_SIZE, MIN_SIZE, BoardSvg, board_svg


def _svg_words(svg: str) -> str:
    """The words of a picture: its texts, titles and description, without the markup."""
    return html.unescape(" ".join(re.findall(r">([^<>]+)<", svg)))


def _play_dutch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> tuple[str, tt.GameState]:
    """A whole Dutch game at the command line, with its default names; its screens and end."""
    record = tmp_path / "spel.json"
    lines, _final = _script(["human", "greedy"], ["Speler 1", "Snoeper 2"], seed=6)
    _stdin(monkeypatch, lines)
    status, out, err = _run(capsys, "play", "--lang", "nl", "--players", "2", "--seed", "6",
                            "--save", str(record))  # fmt: skip
    assert status == 0, err
    return out, tt.loads(record.read_text())


# -- names are names -----------------------------------------------------------------------------


def test_the_dutch_round_header_speaks_to_the_player_at_the_keyboard(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every Dutch round header read "Jij (A) is aan de beurt": "Jij" used as a name."""
    out, final = _play_dutch(capsys, monkeypatch, tmp_path)
    assert final.config.players == ("Speler 1", "Snoeper 2")  # names, in the player's language
    headers = [line for line in out.splitlines() if " · Speler 1 (A)" in line]
    assert headers
    for header in headers:
        assert re.match(r"(.*> )?Ronde \d+ · Speler 1 \(A\), jij bent aan de beurt", header)
    assert "Jij (A)" not in out
    assert "Jij is " not in out
    assert "Jij heeft" not in out


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_picture_of_a_command_line_game_calls_nobody_you(
    language: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The SVG said "You has 0", "Jij heeft 5" and "De kinderen van Jij"."""
    record = tmp_path / "game.json"
    names = ["Player 1", "Greedy 2"] if language == "en" else ["Speler 1", "Snoeper 2"]
    lines, _final = _script(["human", "greedy"], names, seed=3, stop_after=20)
    _stdin(monkeypatch, [*lines, f"save {record}" if language == "en" else f"bewaar {record}",
                         "quit"])  # fmt: skip
    assert _run(capsys, "play", "--lang", language, "--players", "2", "--seed", "3")[0] == 0
    game = tt.loads(record.read_text())
    for seat in (0, 1):
        words = _svg_words(board_svg(game.view(seat), language=language))
        assert f"{names[seat]} has " in words or f"{names[seat]} heeft " in words
        for slip in ("You has", "You shows", "You's", "Jij heeft", "Jij toont", "van Jij"):
            assert slip not in words


def test_a_player_named_jij_is_a_name_on_the_dutch_screens(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name given is shown as given, and the reader is addressed as "jij" whatever it is."""
    lines, _ = _script(["human", "human"], ["Jij", "Bo"], seed=2, stop_after=3)
    _stdin(monkeypatch, lines)
    status, out, _ = _run(capsys, "play", "--lang", "nl", "--seats", "human,human",
                          "--names", "Jij,Bo", "--seed", "2")  # fmt: skip
    assert status == 0
    screens = out.split("Ronde ")[1:]
    assert screens[0].startswith("1 · Jij (A), jij bent aan de beurt · ")
    assert screens[1].startswith("1 · Bo (B), jij bent aan de beurt · ")
    first = lines[0]
    assert f"\nVorige ronde: Jij {first} (" in screens[1]  # a name, to Bo
    assert screens[2].startswith("2 · Jij (A), jij bent aan de beurt · ")
    assert f"\nVorige ronde: Jij {first} (" in screens[2]  # the reader: still the name


# -- the Dutch rulebook's words ------------------------------------------------------------------


def test_the_dutch_tie_break_is_the_rulebooks_points_from_candy(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rulebook: "Bij een gelijke stand wint de speler met de meeste punten uit snoep".

    Seeds 31 and 3 end in a tie: Anna (at the keyboard) has 9 points from treats (through
    her tiles) to Bram's 5 in the first, Bram 17 to her 15 in the second. Anna reads the
    short guide ("regels") first."""
    outs = []
    for seed, treats in ((31, (9, 5)), (3, (15, 17))):
        lines, final = _script(["human", "greedy"], ["Anna", "Bram"], seed)
        sheets = final.scores()
        assert sheets[0].total == sheets[1].total
        assert (sheets[0].treats, sheets[1].treats) == treats
        _stdin(monkeypatch, ["regels", "", "", "", "", *lines])
        status, out, _ = _run(capsys, "play", "--lang", "nl", "--seats", "human,greedy",
                              "--names", "Anna,Bram", "--seed", str(seed))  # fmt: skip
        assert status == 0
        outs.append(out)
    mine, told = outs
    assert "\nJij wint bij de gelijke stand: 9 punten uit snoep tegen 5 (R15)." in mine
    assert "\nBram wint bij de gelijke stand: 17 punten uit snoep tegen 15 (R15)." in told
    guide = mine.partition("Jij wint bij de gelijke stand")[0]
    assert "punten uit snoep" in guide
    assert "punten uit plaagtegels" not in mine


def test_the_dutch_picture_says_what_the_rulebook_says() -> None:
    """The SVG said "plaag ze" where the rulebook says "haal je een streek uit"."""
    game = tt.new_game(players=["Anna", "Bram"], seed=5)
    words = _svg_words(board_svg(game.view(0), language="nl"))
    assert "Gemene buren: streken uithalen" in words  # the rulebook: "een streek uithalen"
    assert "plaagsymbool" in words
    assert "punten uit snoep" in _svg_words(board_svg(_to_the_end(game).view(0), language="nl"))
    for slip in ("plaag ze", " plaag ", "uit plaagtegels"):
        assert slip not in f" {words} "


def _to_the_end(game: tt.GameState) -> tt.GameState:
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])
    return game


def test_dutch_amounts_agree_with_their_numbers_on_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terminal said "+2 zuurtje", "2 gombeer" (street bonuses) and "2 zuurtje=3"."""
    lines, final = _script(["human", "human"], ["Anna", "Bram"], seed=5)  # visits first
    assert final.is_over
    _stdin(monkeypatch, lines)
    status, out, _ = _run(capsys, "play", "--lang", "nl", "--seats", "human,human",
                          "--names", "Anna,Bram", "--seed", "5")  # fmt: skip
    assert status == 0
    # The players' lines are tracks, "zuurtje  0 lolly  2 gombeer  1": a word, then a count.
    text = "\n".join(line for line in out.splitlines() if "voetafdruk" not in line)
    assert re.search(r"\+[2-9] (zuurtjes|lolly's|gomberen)\b", text)
    singular = r"\b(?:[2-9]|\d\d) (?:zuurtje|lolly|gombeer)(?![\w'])"
    assert not re.search(singular, text), re.findall(f".{{20}}{singular}.{{5}}", text)[:3]


# -- the command line in the player's language ---------------------------------------------------


def test_replay_svg_writes_a_dutch_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`replay --lang nl --svg` wrote a page marked English, with English title and buttons."""
    record = tmp_path / "game.json"
    game = tt.new_game(players=["Anna", "Bram"], seed=2)
    for _ in range(3):
        game = game.apply(game.legal_actions()[0])
    record.write_text(tt.dumps(game))
    status, out, _err = _run(capsys, "replay", str(record), "--lang", "nl", "--svg",
                             str(tmp_path / "svg"))  # fmt: skip
    assert status == 0
    assert "Afbeeldingen van 4 standen in" in out
    page = (tmp_path / "svg" / "index.html").read_text()
    assert '<html lang="nl">' in page
    assert "<title>Tricky Treats, een spel teruggekeken: Anna, Bram</title>" in page
    for button in ("eerste", "vorige", "volgende", "laatste", "stand {number} van {count}"):
        assert button in page
    shown = " ".join(re.findall(r">([^<>]+)<", page.split("<script>")[0]))
    for english in ("first", "previous", "next", "last", "position", "replay"):
        assert not re.search(rf"\b{english}\b", shown), english
    assert "Aardige buren" in (tmp_path / "svg" / "move-000.svg").read_text()


@pytest.mark.parametrize(
    ("argv", "dutch"),
    [
        (["play", "--names", "Ann,Ann"], "--names noemt Ann twee keer"),
        (["play", "--names", "Ann,Bo", "--players", "3"], "--names geeft 2 namen voor 3 plaatsen"),
        (["play", "--seats", "human,robot"], "'robot' is geen mens en geen bot: kies uit human,"),
        (["play", "--seats", "human,search:0"], "het aantal iteraties van search is een geheel"),
        (["play", "--variant", "chess"], "geen variant 'chess'; de geïnstalleerde varianten zijn"),
        (["replay", "/no/such/game.json"], "kan /no/such/game.json niet lezen: dat bestand of"),
    ],
)
def test_the_command_lines_errors_are_dutch_under_dutch(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    dutch: str,
) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    status, _out, err = _run(capsys, *argv)
    assert status == 2
    assert dutch in " ".join(err.split())


def test_a_refusal_shows_what_the_player_typed_as_typed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its errors capitalised what the player typed: "T9k0 is not an action"."""
    _stdin(monkeypatch, ["t9k0", "v0", "quit", "quit"])
    status, out, _err = _run(capsys, "play", "--players", "2", "--seed", "5")
    assert status == 0
    assert "> t9k0 is not an action of this game" in out
    assert "T9k0" not in out
    assert "> You cannot visit nice house 0" in out  # a sentence of the game's own: capitalised


# -- first steps ---------------------------------------------------------------------------------


def _hint_without_rich(where: Path, direct_url: str | None = "as installed") -> str:
    """The install line ``tricky-treats variants`` prints without rich, run in ``where``.

    ``direct_url`` stands for the ``direct_url.json`` pip wrote when it installed this copy
    (``None``: none, as from a wheel of the index); by default the real one is read.
    """
    code = (
        "import sys, importlib.metadata as m\n"
        "sys.modules['rich'] = None\n"
        f"text = {direct_url!r}\n"
        "real = m.distribution\n"
        "class Copy:\n"  # the installed distribution, but for the file pip wrote
        "    def __getattr__(self, name):\n"
        "        return getattr(real('tricky-treats'), name)\n"
        "    def read_text(self, name):\n"
        "        return text if name == 'direct_url.json' else real('tricky-treats').read_text(name)\n"
        "if text != 'as installed':\n"
        "    m.distribution = lambda name: Copy() if name == 'tricky-treats' else real(name)\n"
        "from tricky_treats.cli import main\n"
        "sys.exit(main(['variants']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=where
    )
    assert result.returncode == 2, result.stderr
    found = re.search(r"pip install [^\n]*\]'", result.stderr)
    assert found, result.stderr
    return found.group()


def test_install_hints_name_the_clone_an_editable_install_came_from(tmp_path: Path) -> None:
    """The hints said `pip install 'tricky-treats[cli]'`, which fails before the release."""
    clone = tmp_path / "tricky-treats"
    clone.mkdir()
    editable = json.dumps({"url": clone.as_uri(), "dir_info": {"editable": True}})
    assert _hint_without_rich(clone, editable) == "pip install -e '.[cli]'"
    assert _hint_without_rich(tmp_path, editable) == f"pip install -e '{clone}[cli]'"
    copied = json.dumps({"url": clone.as_uri(), "dir_info": {}})
    assert _hint_without_rich(tmp_path, copied) == f"pip install '{clone}[cli]'"
    assert _hint_without_rich(tmp_path, None) == "pip install 'tricky-treats[cli]'"  # the index


def test_this_checkout_is_told_to_install_from_itself() -> None:
    root = Path(__file__).resolve().parents[1]
    text = metadata.distribution("tricky-treats").read_text("direct_url.json")
    if text is None or json.loads(text).get("url") != root.as_uri():
        pytest.skip("tricky-treats is not installed from this checkout (pip install -e '.[dev]')")
    assert _hint_without_rich(root) in ("pip install -e '.[cli]'", "pip install '.[cli]'")


def test_board_svg_takes_a_size_and_draws_itself_in_a_notebook() -> None:
    """Every notebook picture was a fixed 970 x 1452 px string that a notebook shows as text."""
    view = tt.new_game(players=3, seed=1).view(0)
    natural = board_svg(view)
    small = board_svg(view, size=390)
    assert isinstance(small, str)
    assert isinstance(small, BoardSvg)
    assert small._repr_svg_() == small  # what Jupyter and IPython draw
    width, height = map(int, re.search(r'width="(\d+)" height="(\d+)"', natural).groups())  # type: ignore[union-attr]
    assert small.startswith(f'<svg xmlns="http://www.w3.org/2000/svg" width="390" height="'
                            f'{round(height * 390 / width)}" viewBox="0 0 {width} {height}"')  # fmt: skip
    # The same picture, shown smaller: only the size on the page differs.
    assert re.sub(r'width="\d+" height="\d+"', "", small, count=1) == re.sub(
        r'width="\d+" height="\d+"', "", natural, count=1
    )
    assert natural == board_svg(view, size=None)
    assert (natural + "").startswith("<svg ")  # still a str for every existing caller
    for wrong in (True, 0, MIN_SIZE - 1, MAX_SIZE + 1, 400.0, "400"):
        with pytest.raises(tt.ConfigurationError, match="size is a width in pixels"):
            board_svg(view, size=wrong)  # type: ignore[arg-type]

"""Translations (issue 39): catalogs, the choice of language, and whole games in every language.

The English strings of the code are the message ids; each shipped language has a catalog in
src/tricky_treats/locale, edited as .po and read at run time, compiled, as .mo.
"""

from __future__ import annotations

import functools
import io
import re
import string
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tricky_treats as tt
from tests.test_cli_play import _script, _stdin, _turn_screens
from tricky_treats import i18n
from tricky_treats.cli import main
from tricky_treats.drawing import board_svg
from tricky_treats.events import (
    CardPlaced,
    CardRevealed,
    EndTriggered,
    GameOver,
    HouseTricked,
    HouseVisited,
    MarketRefreshed,
    Passed,
    PumpkinTaken,
    StreetBonusTaken,
    describe_event,
)

babel = pytest.importorskip("babel", reason="needs Babel: pip install -e '.[dev]'")
from babel.messages.catalog import Catalog, Message  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "tricky_treats"
TRANSLATED = [language for language in i18n.LANGUAGES if language != "en"]


@functools.cache
def _workflow() -> Any:
    """``scripts/translations`` as a module: its catalogs and its extraction."""
    import importlib.machinery
    import importlib.util

    path = ROOT / "scripts" / "translations"
    loader = importlib.machinery.SourceFileLoader("_translations_script", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module  # its dataclasses look their module up
    loader.exec_module(module)
    return module


@functools.cache
def _found(domain: str) -> frozenset[tuple[str | None, str]]:
    """The messages of a catalog's sources, as ``scripts/translations`` extracts them."""
    workflow = _workflow()
    (chosen,) = [d for d in workflow.DOMAINS if d.name == domain]
    return frozenset(_key(m) for m in workflow.extract(chosen) if m.id)


def _po(language: str) -> Catalog:
    path = PACKAGE / "locale" / language / "LC_MESSAGES" / "tricky_treats.po"
    with path.open("rb") as file:
        return read_po(file, locale=language)


def _extracted() -> set[tuple[str | None, str]]:
    """The messages of the engine, as scripts/translations extracts them."""
    return set(_found("tricky_treats"))


def _strings(message: Message) -> list[str]:
    """A message's translation, or its singular and plurals."""
    found = message.string
    if found is None:
        return []
    return [found] if isinstance(found, str) else list(found)


def _ids(message: Message) -> list[str]:
    return [message.id] if isinstance(message.id, str) else list(message.id)


def _key(message: object) -> tuple[str | None, str]:
    ident = message.id  # type: ignore[attr-defined]
    return message.context, ident if isinstance(ident, str) else ident[0]  # type: ignore[attr-defined]


# -- loading: nothing of it at import ------------------------------------------------------------


def test_a_plain_import_loads_no_catalog_nor_gettext_nor_babel() -> None:
    code = (
        "import sys, tricky_treats, tricky_treats.i18n as i\n"
        "tricky_treats.new_game(players=2, seed=1).apply_with_events(\n"
        "    tricky_treats.new_game(players=2, seed=1).legal_actions()[0])\n"
        "print(i.catalog.cache_info().currsize, 'gettext' in sys.modules, 'babel' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False", "False"]


def test_english_needs_no_catalog_and_dutch_loads_one() -> None:
    event = Passed(0)
    assert describe_event(event, ["Ann"]) == "Ann passes"
    assert describe_event(event, ["Ann"], language="nl") == "Ann past"


# -- the catalogs: complete, compiled, placeholders kept -----------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_source_is_in_the_catalog_and_translated(language: str) -> None:
    catalog = _po(language)
    held = {_key(m): m for m in catalog if m.id}
    missing = _extracted() - set(held)
    assert not missing, f"run scripts/translations: {sorted(map(str, missing))[:5]}"
    untranslated = [
        key for key, m in held.items() if m.fuzzy or not all(_strings(m)) or not _strings(m)
    ]
    assert not untranslated, untranslated[:5]
    stale = set(held) - _extracted()
    assert not stale, f"messages no longer in the source: {sorted(map(str, stale))[:5]}"


def _fields(text: str) -> set[str]:
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field}


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_translation_breaks_its_placeholders(language: str) -> None:
    for message in _po(language):
        if not message.id:
            continue
        wanted = set().union(*map(_fields, _ids(message)))
        for text in _strings(message):
            assert _fields(text) == wanted, (message.id, text)
            text.format(**dict.fromkeys(wanted, 1))  # braces balanced, format specs valid


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_shipped_mo_is_the_compiled_po(language: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, _po(language))
    shipped = PACKAGE / "locale" / language / "LC_MESSAGES" / "tricky_treats.mo"
    assert shipped.read_bytes() == compiled.getvalue(), "run scripts/translations"


def test_every_component_word_is_marked_for_the_catalogs() -> None:
    extracted = {message for _context, message in _extracted()}
    for kind in (tt.Colour, tt.Theme, tt.CostumeType, tt.TrickIcon, tt.Treat):
        for member in kind:
            assert member.value in extracted


# -- the choice of language ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "nl_NL.UTF-8"}, "nl"),
        # "qaa" (ISO 639's reserved for local use) names a language that will never ship.
        ({"LANG": "qaa_QA.UTF-8"}, "en"),
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "nl_BE.UTF-8"}, "nl"),
        ({"LC_ALL": "C"}, "en"),
        ({"LANGUAGE": "fr:nl", "LANG": "en_US.UTF-8"}, "nl"),
        ({"LANGUAGE": "nl", "LC_ALL": "C.UTF-8"}, "nl"),
        ({"LC_MESSAGES": "nl_NL", "LANG": "en_US"}, "nl"),
    ],
)
def test_the_locale_chooses_the_language(environ: dict[str, str], language: str) -> None:
    assert i18n.from_environment(environ) == language


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("nl-NL,nl;q=0.9,en;q=0.8", "nl"),
        ("en-US,en;q=0.9,nl;q=0.8", "en"),
        ("qaa-QA,nl;q=0.5", "nl"),
        ("fr", "en"),
        ("nl;q=0, en", "en"),
        ("*", "en"),
    ],
)
def test_accept_language_chooses_the_web_language(header: str | None, language: str) -> None:
    assert i18n.from_accept_language(header) == language


def test_an_unknown_language_is_a_clear_error() -> None:
    shipped = ", ".join(i18n.LANGUAGES)  # however many ship
    with pytest.raises(
        tt.ConfigurationError, match=rf"no translation into 'qaa'; the languages are {shipped}$"
    ):
        describe_event(Passed(0), ["Ann"], language="qaa")


def test_the_command_line_takes_lang_before_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    lines, _final = _script(["human", "greedy"], ["Ann", "Bo"], 5, stop_after=2)
    _stdin(monkeypatch, [*lines, "quit", "quit"])
    main(["play", "--seats", "human,greedy", "--names", "Ann,Bo", "--seed", "5"])
    assert "Ann, jouw actie> " in capsys.readouterr().out
    _stdin(monkeypatch, [*lines, "quit", "quit"])
    main(["play", "--lang", "en", "--seats", "human,greedy", "--names", "Ann,Bo", "--seed", "5"])
    assert "Ann, your action> " in capsys.readouterr().out
    assert main(["play", "--lang", "xx"]) == 2
    assert "no translation into 'xx'" in capsys.readouterr().err


def test_records_are_the_same_in_every_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, _final = _script(["human", "greedy"], ["Ann", "Bo"], 8)
    saved = []
    for language in i18n.LANGUAGES:
        _stdin(monkeypatch, lines)
        path = tmp_path / f"{language}.json"
        args = ["play", "--lang", language, "--seats", "human,greedy", "--names", "Ann,Bo"]
        assert main([*args, "--seed", "8", "--save", str(path)]) == 0
        saved.append(path.read_text())
    capsys.readouterr()
    assert len(set(saved)) == 1


def test_errors_are_the_same_classes_in_every_language() -> None:
    game = tt.new_game(players=2, seed=3)
    with i18n.speaking("nl"), pytest.raises(tt.IllegalActionError) as dutch:
        game.apply(tt.Pass())
    with pytest.raises(tt.IllegalActionError) as english:
        game.apply(tt.Pass())
    assert str(dutch.value) == str(english.value)  # the engine's message is the English one


# -- every event, in every language --------------------------------------------------------------


def _events(game: tt.GameState) -> list[object]:
    card = game.market[0]
    tile = game.setup.mean_houses[0].tile
    assert card is not None
    return [
        CardPlaced(0, 1, 2, card),
        CardRevealed(3, card),
        MarketRefreshed(1, (card,) * 5),
        HouseVisited(0, 4, 3, tt.Treat.CANDY, 1),
        HouseVisited(1, 4, 6, tt.Treat.LOLLIPOP, 3),
        HouseTricked(1, 2, tile),
        PumpkinTaken(0, 5, False),
        PumpkinTaken(1, 1, True),
        StreetBonusTaken(0, 4, tt.Treat.GUMMY, 2, True),
        StreetBonusTaken(1, 0, tt.Treat.GUMMY, 1, False),
        Passed(1),
        *(EndTriggered(0, reason) for reason in tt.Termination),
        GameOver((0,)),
        GameOver((0, 1)),
    ]


DUTCH_EVENTS = [
    "Jij legt de {card} van plek 1 op kind 2",
    "de {card} wordt opengelegd op plek 3",
    "Bo legt de markt af (5 kaarten)",
    "Jij bezoekt aardige buur 4 met 3 passende kaarten en krijgt 1 zuurtje",
    "Bo bezoekt aardige buur 4 met 6 passende kaarten en krijgt 3 lolly's",
    "Bo haalt een streek uit bij gemene buur 2 en krijgt zijn plaagtegel ({tile})",
    "Jij pakt de pompoen van aardige buur 5",
    "Bo pakt de pompoen van gemene buur 1",
    "Jij maakt kolom 1 compleet: 2 gomberen (voorkant van het straatbonusfiche)",
    "Bo maakt rij 0 compleet: 1 gombeer (achterkant van het straatbonusfiche)",
    "Bo past",
    "Jij zet het einde van het spel in gang (laatste voetafdruk); de ronde wordt afgemaakt",
    "Jij zet het einde van het spel in gang (complete kostuums); de ronde wordt afgemaakt",
    "Jij zet het einde van het spel in gang (trekstapel op); de ronde wordt afgemaakt",
    "Jij zet het einde van het spel in gang (iedereen paste); de ronde wordt afgemaakt",
    "het spel is voorbij; jij wint",
    "het spel is voorbij; jij en Bo delen de overwinning",
]


def test_every_event_is_told_in_dutch() -> None:
    from tricky_treats.words import card_words, tile_words

    game = tt.new_game(players=2, seed=3)
    card, tile = game.market[0], game.setup.mean_houses[0].tile
    assert card is not None
    with i18n.speaking("nl"):
        card_nl, tile_nl = card_words(card), tile_words(tile)
    told = [describe_event(e, ["Ann", "Bo"], you=0, language="nl") for e in _events(game)]  # type: ignore[arg-type]
    assert told == [line.format(card=card_nl, tile=tile_nl) for line in DUTCH_EVENTS]
    assert re.fullmatch(
        r"kaart (hoofddeksel|bovenstuk|broek) \((paars|rood|groen), "
        r"(dieren|horror|sprookjes|ruimte), (spinnenweb|wc-rol|kapot ei)\)",
        card_nl,
    )


def test_english_events_read_as_before() -> None:
    game = tt.new_game(players=2, seed=3)
    card = game.market[0]
    assert card is not None
    assert describe_event(CardPlaced(1, 1, 2, card), ["Ann", "Bo"]) == (
        f"Bo puts the {card} from slot 1 on kid 2"
    )
    assert describe_event(HouseVisited(0, 4, 3, tt.Treat.CANDY, 2), ["Ann", "Bo"], you=0) == (
        "You visit nice house 4 with 3 matching cards and get 2 candy"
    )


# -- whole games, in every language --------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _words(text: str) -> set[str]:
    found = _WORD.findall(re.sub(r"\{[^{}]*\}", " ", text))
    return {w.lower() for w in found if len(w) > 1}


def english_only_words(language: str) -> set[str]:
    """Words of the English messages that no translation into ``language`` uses.

    Such a word in a text written in ``language`` is English left where a translation exists.
    """
    english: set[str] = set()
    translated: set[str] = set()
    for message in _po(language):
        if not message.id:
            continue
        for ident in _ids(message):
            english |= _words(ident)
        for text in _strings(message):
            translated |= _words(text)
    return english - translated


def _english_left(text: str, language: str, names: tuple[str, ...] = ("Ann", "Bo")) -> set[str]:
    for name in (*names, "Tricky Treats", "tricky-treats"):
        text = text.replace(name, " ")
    return _words(text) & english_only_words(language)


_COMMANDS = {
    "nl": [
        "hulp",
        "regels",
        "",
        "",
        "",
        "",
        "waarom",
        "uitleg v0",
        "uitleg t0k0",
        "uitleg",
        "kijk B",
        "kijk Z",
        "scores",
        "verloop",
        "xyz",
        "t0k0-4",
        "m0",
        "waarom",
        "pass",
        "bewaar",
    ],
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_terminal_plays_a_whole_game_without_english(
    language: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, final = _script(["human", "greedy"], ["Ann", "Bo"], 11)
    assert final.is_over
    _stdin(monkeypatch, [*_COMMANDS[language], *lines])
    status = main(
        ["play", "--lang", language, "--seats", "human,greedy", "--names", "Ann,Bo", "--seed", "11"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "het spel is voorbij" in out.lower() or language != "nl"
    # A turn's screen: from its heading ("Ronde 3 · Ann (A), ...") to the prompt.
    with i18n.speaking(language):
        word = i18n._("Round {round} · {name} ({letter}), your turn").split("{round}")[0]
    turns = _turn_screens(out, word)
    assert len(turns) >= len([line for line in lines if line])  # one per action typed
    assert max(len(line) for screen in turns for line in screen) <= 80
    assert max(len(screen) for screen in turns) <= 23
    assert _english_left(out, language) == set()


def test_the_english_vocabulary_is_found_where_english_is_left() -> None:
    # The check above would catch an untranslated screen: English output is full of it.
    assert {"market", "kid", "pumpkins", "footprints"} <= _english_left(
        "kid head body legs top │ market (deck 40) pumpkins 0 footprints 8", "nl"
    )


# -- the words are the Dutch rulebook's ----------------------------------------------------------

GLOSSARY_NL = {
    # English id: the Dutch rulebook's word (../shared/rules/tricky-treats-rulebook-nl.txt)
    "head": "hoofddeksel",
    "body": "bovenstuk",
    "legs": "broek",
    "purple": "paars",
    "red": "rood",
    "green": "groen",
    "animal": "dieren",
    "horror": "horror",
    "fable": "sprookjes",
    "space": "ruimte",
    "spiderweb": "spinnenweb",
    "toilet-paper": "wc-rol",
    "egg": "kapot ei",
}
RULEBOOK_TERMS_NL = (
    "kostuumkaart",
    "aardige buur",
    "gemene buur",
    "plaagtegel",
    "plaagsymbool",
    "straatbonusfiche",
    "voetafdruk",
    "pompoen",
    "snoep",
    "trekstapel",
    "markt",
    "streek uit",
    "snoepsporen",
    "startspeler",
    "kostuum",
)


def test_the_dutch_words_are_the_rulebooks() -> None:
    rulebook = ROOT.parent / "shared" / "rules" / "tricky-treats-rulebook-nl.txt"
    text = rulebook.read_text(encoding="utf-8").lower() if rulebook.exists() else None
    catalog = _po("nl")
    for english, dutch in GLOSSARY_NL.items():
        message = catalog.get(english)
        assert message is not None, english
        assert message.string == dutch, english
        if text is not None:
            assert dutch in text, dutch
    translated = re.sub(
        r"\{[^{}]*\}",
        " ",
        " ".join(" ".join(_strings(m)) for m in catalog if m.id).lower(),
    )
    for term in RULEBOOK_TERMS_NL:
        assert term in translated, term
        if text is not None:
            assert term in text, term
    # and none of the words a Dutch family would not find in the rulebook
    for foreign in ("trick tile", "pumpkin", "footprint", "nice house", "mean house"):
        assert foreign not in translated


def _svg_text(svg: str) -> str:
    """The words of a picture: its texts, titles and description, without the markup."""
    import html

    return html.unescape(" ".join(re.findall(r">([^<>]+)<", svg)))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_svg_draws_a_whole_game_without_english(language: str) -> None:
    import random

    game = tt.new_game(players=["Ann", "Bo", "Cy"], seed=21)
    rng = random.Random(21)
    left: set[str] = set()
    while True:
        for seat in range(3):
            left |= _english_left(
                _svg_text(board_svg(game.view(seat), language=language)),
                language,
                ("Ann", "Bo", "Cy"),
            )
        if game.is_over:
            break
        for _turn in range(7):  # every few moves, and the end
            if not game.is_over:
                game = game.apply(rng.choice(game.legal_actions()))
    assert left == set()


def test_the_svg_is_english_by_default_and_dutch_when_asked() -> None:
    view = tt.new_game(players=2, seed=1).view(0)
    english, dutch = board_svg(view), board_svg(view, language="nl")
    assert "Nice neighbours: visit them for treats" in english
    assert "Aardige buren: bezoek ze voor snoep" in dutch
    assert "Nice neighbours" not in dutch
    assert board_svg(view, language="en") == english


# -- the web pages' catalog ----------------------------------------------------------------------

WEB = ROOT / "examples" / "web" / "src" / "tricky_treats_web"


def _web_po(language: str) -> Catalog:
    with (WEB / "locale" / language / "LC_MESSAGES" / "tricky_treats_web.po").open("rb") as file:
        return read_po(file, locale=language)


def test_every_message_of_the_web_pages_is_in_its_catalog_and_translated() -> None:
    found = {ident for _context, ident in _found("tricky_treats_web")}
    for language in TRANSLATED:
        catalog = _web_po(language)
        held = {m.id: m for m in catalog if isinstance(m.id, str) and m.id}
        assert found - set(held) == set(), "run scripts/translations"
        assert set(held) - found == set(), "messages no longer in the pages"
        assert [i for i, m in held.items() if m.fuzzy or not m.string] == []
        for ident, message in held.items():
            (text,) = _strings(message)
            assert _fields(text) == _fields(ident), (ident, text)


def test_every_literal_the_scripts_translate_is_extracted() -> None:
    # Babel does not see t("...") written inside a template literal or another t() call's
    # arguments: every literal passed to t() must still be in the catalog.
    held = {m.id for m in _web_po("nl") if m.id}
    for script in (WEB / "static").glob("*.js"):
        for literal in re.findall(r'\b(?:t|N_)\("((?:[^"\\]|\\.)*)"', script.read_text()):
            assert literal.replace('\\"', '"') in held, (script.name, literal)


def test_the_browsers_messages_are_the_catalog() -> None:
    import json

    for language in TRANSLATED:
        shipped = json.loads((WEB / "static" / "i18n" / f"{language}.json").read_text())
        catalog = {m.id: m.string for m in _web_po(language) if m.id}
        assert shipped == catalog, "run scripts/translations"


def _served(page: str, language: str, tmp_path: Path) -> str:
    """The web app's ``page`` (a path) as it serves it in ``language`` (asked by a link)."""
    pytest.importorskip("starlette", reason="pip install -e examples/web")
    from starlette.testclient import TestClient
    from tricky_treats_web.app import Lobby, create_app

    client = TestClient(create_app(Lobby(), wheel_dir=tmp_path / "wheels"))
    response = client.get(f"{page}?lang={language}")
    assert response.status_code == 200
    return response.text


def test_a_page_is_served_in_the_players_language(tmp_path: Path) -> None:
    from tricky_treats_web.app import page_language

    assert page_language(None, {"accept-language": "nl-BE,nl;q=0.9"}) == "nl"
    assert page_language("en", {"accept-language": "nl"}) == "en"  # the switch wins
    assert page_language("xx", {"accept-language": "nl"}) == "nl"  # a bad cookie is ignored
    # A host's link in a language (issue 48: ?lang=nl did nothing) wins over both.
    assert page_language("en", {"accept-language": "en"}, "nl") == "nl"
    assert page_language("nl", {}, "qaa") == "nl"  # one the pages do not speak is passed over
    assert page_language("nl", {}, "x" * 100_000) == "nl"
    dutch = _served("/", "nl", tmp_path)
    assert '<html lang="nl">' in dutch
    assert '"Nieuw spel"' in dutch  # the messages, for the scripts
    assert '<html lang="en">' in _served("/", "en", tmp_path)


def test_the_language_switch_offers_every_catalog_shipped(tmp_path: Path) -> None:
    """The switch knew English and Dutch only (a map in i18n.js)."""
    import json

    from tricky_treats_web.app import web_languages

    catalogs = sorted(p.stem for p in (WEB / "static" / "i18n").glob("*.json"))
    assert set(web_languages()) == {"en", *catalogs}  # each a language the engine speaks too
    assert set(catalogs) <= set(i18n.LANGUAGES)
    for code, name in web_languages().items():
        # Each named in its own words: a catalog's translation of "English".
        own = (
            json.loads((WEB / "static" / "i18n" / f"{code}.json").read_text())
            if code != "en"
            else {}
        )
        assert name == own.get("English", "English")
        assert name != "English" or code == "en"
    page = _served("/play/any-game", "nl", tmp_path)
    listed = re.search(r'<script id="tt-languages" type="application/json">(.*?)</script>', page)
    assert listed is not None
    assert json.loads(listed.group(1)) == web_languages()


def test_a_page_link_in_a_language_serves_that_language(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="pip install -e examples/web")
    from starlette.testclient import TestClient
    from tricky_treats_web.app import Lobby, create_app

    client = TestClient(create_app(Lobby(), wheel_dir=tmp_path / "wheels"))
    english = {"accept-language": "en-US"}
    assert '<html lang="nl">' in client.get("/?lang=nl", headers=english).text
    assert '<html lang="en">' in client.get("/", headers=english).text
    client.cookies.set("tt_lang", "en")
    assert '<html lang="nl">' in client.get("/offline?lang=nl").text  # the link wins
    titles = client.get("/api/variants?lang=nl", headers=english).json()["variants"]
    assert any(v["title"] != v["name"] for v in titles)
    english_titles = client.get("/api/variants", headers=english).json()["variants"]
    assert [v["title"] for v in titles] != [v["title"] for v in english_titles]


def test_the_wheel_ships_the_compiled_catalogs(tmp_path: Path) -> None:
    import zipfile

    from hatchling.builders.wheel import WheelBuilder

    wheel = Path(next(WheelBuilder(str(ROOT)).build(directory=str(tmp_path))))
    names = set(zipfile.ZipFile(wheel).namelist())
    for language in TRANSLATED:
        assert f"tricky_treats/locale/{language}/LC_MESSAGES/tricky_treats.mo" in names


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_refusal_of_the_engine_is_told_in_the_language(
    language: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each turn of a game the play command plays, the player types every action the
    engine refuses there before the one it takes: each refusal is told in the language."""
    lines, final = _script(["human", "human"], ["Ann", "Bo"], 4)
    assert final.is_over
    game = tt.new_game(players=["Ann", "Bo"], seed=4)
    typed: list[str] = []
    refused = 0
    for line in lines:
        if line:  # an action: the refused ones first
            legal = set(game.legal_actions())
            wrong = [str(a) for a in game.setup.action_space.actions if a not in legal]
            typed += wrong
            refused += len(wrong)
            game = game.apply(tt.parse_action(line))
        typed.append(line)
    _stdin(monkeypatch, typed)
    argv = ["play", "--lang", language, "--seats", "human,human", "--names", "Ann,Bo"]
    assert main([*argv, "--seed", "4"]) == 0
    # Each answer to the prompt ("Ann, ...> ") starts on the prompt's line and goes on, as
    # the console wraps it, to the next prompt; a legal action is answered by a new line.
    told: list[str] = []
    for line in capsys.readouterr().out.splitlines():
        _prompt, mark, answer = line.partition("> ")
        if mark:
            told.append(answer)
        elif told and told[-1]:
            told[-1] += " " + line
    told = [text for text in told if text]
    assert len(told) == refused
    for text in told:
        assert _english_left(text, language) == set(), text
    assert len({text.split(":")[0] for text in told}) >= 4  # takes, visits, tricks, ...


# -- the candy games' consoles, in their original languages -------------------------------------

CANDY = {
    "hack_trick": ROOT / "examples" / "hack-trick" / "src" / "hack_trick",
    "candy_chaser": ROOT / "examples" / "candy-chaser" / "src" / "candy_chaser",
    "tricks_and_treats": ROOT / "examples" / "tricks-and-treats" / "src" / "tricks_and_treats",
}
"""Each candy game whose console speaks the language of its original rules."""


def _candy_po(domain: str, language: str) -> Catalog:
    path = CANDY[domain] / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as file:
        return read_po(file, locale=language)


def _candy_languages(domain: str) -> list[str]:
    folder = domain.replace("_", "-")
    pytest.importorskip(domain, reason=f"pip install -e examples/{folder}")
    catalogs = CANDY[domain] / "locale"  # a folder per language the game ships
    return sorted(path.name for path in catalogs.iterdir() if path.is_dir())


@pytest.mark.parametrize("domain", sorted(CANDY))
def test_every_message_of_a_candy_console_is_translated_and_compiled(domain: str) -> None:
    # The game's messages and the shared console's words (tricky_treats.protocol).
    found = {ident for _context, ident in _found(domain)}
    for language in _candy_languages(domain):
        catalog = _candy_po(domain, language)
        held = {m.id: m for m in catalog if isinstance(m.id, str) and m.id}
        assert found == set(held), "run scripts/translations"
        for ident, message in held.items():
            (text,) = _strings(message)
            assert text, ident
            assert not message.fuzzy, ident
            assert _fields(text) == _fields(ident), (ident, text)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        shipped = CANDY[domain] / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"
        assert shipped.read_bytes() == compiled.getvalue(), "run scripts/translations"


WHOLE_GAMES = [
    # domain, language, seed, words the end of the game says, words the rules of the moment say
    ("hack_trick", "nl", "3", "wint het spel met", "de handlimiet"),
    ("candy_chaser", "es", "3", "el precio más alto", "fase Tattletale"),
    ("tricks_and_treats", "zh_Hant", "12", "獲勝", "特殊提籃"),
]


@pytest.mark.parametrize(("domain", "language", "seed", "end", "rule"), WHOLE_GAMES)
def test_a_candy_console_plays_a_whole_game_in_its_original_language(
    domain: str,
    language: str,
    seed: str,
    end: str,
    rule: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib

    pytest.importorskip(domain, reason=f"pip install -e examples/{domain.replace('_', '-')}")
    console = importlib.import_module(f"{domain}.__main__")
    # The first legal action every time, and help once: a whole game, to its end.
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n" + "0\n" * 2000))
    assert console.main(["play", "--lang", language, "--seed", seed, "--bot", "random"]) == 0
    out = capsys.readouterr().out
    assert end in out
    assert rule in out
    english: set[str] = set()
    translated: set[str] = set()
    for message in _candy_po(domain, language):
        if message.id:
            english |= _words(" ".join(_ids(message)))
            translated |= _words(" ".join(_strings(message)))
    # The help may name the English notation, in parentheses, for those who type it.
    notation = re.compile(
        r"\uff08[^\uff08\uff09]*[a-z][^\uff08\uff09]*\uff09|\([^()]*(move|draw|ask)[^()]*\)"
    )
    assert _words(notation.sub(" ", out)) & (english - translated) == set()


CONSOLE_WORDS = [
    # domain, language, arguments, what the player types, what the screens must then say
    (
        "candy_chaser",
        "es",
        ["--seed", "3", "--players", "3", "--bot", "greedy"],
        ["ayuda", "pasar", "xyz", "move rojo"],
        [
            "posibles: [0] mover rojo, [1] mover naranja,",
            "Acciones: mover CARAMELO, acusar JUGADOR CARAMELO, pasar",
            "ahora no se puede pasar: en la fase de marketing se tira el dado y se mueve un cubo",
            "'xyz' no es una acción; escribe una de las acciones de arriba o su número (ayuda",
            "jugador 0: saca +2 y mueve el cubo rojo de 0 a 2",
        ],
    ),
    (
        "hack_trick",
        "nl",
        ["--seed", "3", "--bot", "random"],
        ["hulp", "dwing", "speel 5", "trek"],
        [
            "mogelijk: [0] trek, [1] speel 0, [2] speel 0x",
            "Acties: start N, vraag, trek, speel N,",
            "dwing mag nu niet: passen, dwingen en blokkeren doe je na het spelen van een kaart",
            "speel 5 mag nu niet: je hebt geen 5 op hand [2.B]",
            "speler 0: trekt een kaart",
            "speler 1: legt 2 open als startkaart",
        ],
    ),
    (
        "tricks_and_treats",
        "zh_Hant",
        ["--seed", "12", "--bot", "random", "--specials", "2"],
        ["幫助", "出牌 G1 迪斯可提籃", "抽牌", "出牌G4小豬提籃"],
        [
            "可行的行動：[0] 抽牌, [1] 檢舉 1 1,",
            "M 是薄荷糖、G 是軟糖、C 是巧克力、K 是玉米糖",
            "迪斯可提籃（迪斯可，disco）：",  # noqa: RUF001 - Chinese punctuation
            "好人緣提籃（好人緣，popular）：遊戲結束時，若此提籃卡下方的糖果數量為偶數，",  # noqa: RUF001
            "現在不能出牌 G1 迪斯可提籃：請先抽取1張卡牌",
            "玩家 0：抽取1張卡牌",
            "玩家 0：將 G4 置於小豬提籃下方",
            "樂透提籃: C4 G2 G2",
        ],
    ),
]


@pytest.mark.parametrize(("domain", "language", "argv", "typed", "said"), CONSOLE_WORDS)
def test_a_candy_console_takes_commands_in_its_language_and_says_why_it_refuses(
    domain: str,
    language: str,
    argv: list[str],
    typed: list[str],
    said: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 48: the consoles listed English notation ("move red" under "rojo"), refused
    "ayuda", "hulp", "幫助" and "move rojo" as illegal moves, and never said why."""
    import importlib

    pytest.importorskip(domain, reason=f"pip install -e examples/{domain.replace('_', '-')}")
    console = importlib.import_module(f"{domain}.__main__")
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{t}\n" for t in typed)))
    console.main(["play", "--lang", language, *argv])  # the input ends: the game is abandoned
    out = " ".join(capsys.readouterr().out.split())
    for words in said:
        assert " ".join(words.split()) in out, words


def test_hack_trick_speaks_english_by_default_and_refuses_an_unknown_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("hack_trick", reason="pip install -e examples/hack-trick")
    from hack_trick.__main__ import main as hack_trick

    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    hack_trick(["play", "--seed", "3"])
    assert "you are player 0" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")  # the locale chooses when --lang does not
    hack_trick(["play", "--seed", "3"])
    assert "jij bent speler 0" in capsys.readouterr().out
    import hack_trick as package

    catalogs = Path(package.__file__).parent / "locale"
    languages = ["en", *sorted(p.name for p in catalogs.iterdir() if p.is_dir())]
    assert "nl" in languages
    with pytest.raises(SystemExit):
        hack_trick(["play", "--lang", "qaa"])
    shipped = ", ".join(languages)
    assert f"no translation into 'qaa'; the languages are {shipped}" in capsys.readouterr().err


def test_tricks_and_treats_plays_special_baskets_in_chinese_within_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 39: the special baskets' effects were English in the Chinese console, and its lines
    # were wrapped at 80 characters, which is 160 columns of Chinese.
    pytest.importorskip("tricks_and_treats", reason="pip install -e examples/tricks-and-treats")
    from tricks_and_treats.__main__ import main as tricks_and_treats

    from tricky_treats.protocol.game_kit import columns

    english: set[str] = set()
    translated: set[str] = set()
    for message in _candy_po("tricks_and_treats", "zh_Hant"):
        if message.id:
            english |= _words(" ".join(_ids(message)))
            translated |= _words(" ".join(_strings(message)))
    effects = []
    for seed in ("1", "3", "12"):
        monkeypatch.setattr("sys.stdin", io.StringIO("help\n" + "0\n" * 2000))
        argv = ["play", "--lang", "zh-TW", "--seed", seed, "--players", "3", "--bot", "greedy"]
        assert tricks_and_treats([*argv, "--specials", "2"]) == 0
        out = capsys.readouterr().out
        assert "時間到" in out  # a whole game, to its scoring
        lines = [re.sub(r"^(玩家 \d> )+", "", line) for line in out.splitlines()]
        # The legal actions and the news of each move are in Chinese too (issue 48); only the
        # help names the English notation, in parentheses, for those who type it.
        notation = re.compile(r"\uff08[^\uff08\uff09]*[a-z][^\uff08\uff09]*\uff09")
        words = _words("\n".join(notation.sub(" ", line) for line in lines))
        assert words & (english - translated) == set()
        assert "可行的行動：[0] " in out
        effects += [line for line in lines if line.startswith("  特殊提籃：")]
        # Every screen, help and news line fits 80 columns; the list of legal actions is one
        # line of notation, as in English, that the terminal folds.
        assert max(columns(line) for line in lines if not line.startswith("可行的行動：")) <= 80
    assert len(effects) >= 4
    for line in effects:
        assert not re.search(r"[A-Za-z]{2,}", line), line  # the cards' notation (K3) only

# ruff: noqa: F811 - the fixtures of tests/test_web_browser.py, imported by name
"""The web page in Dutch, in a real browser (issue 39): the language from Accept-Language, a
visible switch kept per player (a cookie), and whole games at 1280 and 390 pixels with no
English word left where the web catalog has a translation.

Screenshots (lobby, first turn, a refusal, the end sheet, at both sizes) are saved beside the
other browser tests' (``TRICKY_TREATS_SCREENSHOTS``, else pytest's temporary folder).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tricky_treats as tt
from tests.test_i18n import _ids, _strings, _words
from tests.test_web_browser import (  # noqa: F401 - the fixtures, shared with those tests
    DESKTOP,
    PHONE,
    _axe,
    _fits,
    _play_to_the_end,
    _Watched,
    browser,
    screenshots,
    server,
)

babel = pytest.importorskip("babel", reason="needs Babel: pip install -e '.[dev]'")
from babel.messages.pofile import read_po  # noqa: E402
from playwright.sync_api import Browser, Page  # noqa: E402 - after the skips above
from tricky_treats_web import Lobby  # noqa: E402
from tricky_treats_web.app import Limits, create_app  # noqa: E402

from tests.local import post_json, serving  # noqa: E402

WEB = Path(__file__).parents[1] / "examples" / "web" / "src" / "tricky_treats_web"
NAMES = ("Anna", "Bram", "Tricky Treats", "tricky-treats", "Pyodide", "Python")


def _english_only() -> set[str]:
    """Words of the page's English messages (the web's and the engine's) no Dutch text uses."""
    english: set[str] = set()
    dutch: set[str] = set()
    for po in (
        WEB / "locale" / "nl" / "LC_MESSAGES" / "tricky_treats_web.po",
        WEB.parents[3]
        / "src"
        / "tricky_treats"
        / "locale"
        / "nl"
        / "LC_MESSAGES"
        / "tricky_treats.po",
    ):
        with po.open("rb") as file:
            for message in read_po(file):
                if message.id:
                    english |= _words(" ".join(_ids(message)))
                    dutch |= _words(" ".join(_strings(message)))
    return english - dutch


# The links' random tokens (``secrets.token_urlsafe``) are no words: "…4be9…" is not "be".
_LINK = re.compile(r"https?://\S+")


def _english_left(text: str) -> set[str]:
    from tricky_treats_web.app import web_languages

    text = _LINK.sub(" ", text)
    # The players' names, and the languages' own names on the switch ("English").
    for name in (*NAMES, *web_languages().values()):
        text = text.replace(name, " ")
    for variant in tt.available_variants():
        if variant.distribution != "tricky-treats":  # a plugin's own words, shown as written
            text = text.replace(variant.title, " ").replace(variant.description, " ")
    return _words(text) & _english_only()


def test_a_links_random_token_is_no_english_word() -> None:
    # A seat link once held "…4be9…", and the lobby was said to show the English word "be".
    link = "http://127.0.0.1:8000/play/x4be9Qz?seat=0"
    assert "be" in _english_only()
    assert _english_left(f"Anna: speel als Anna {link}") == set()
    assert _english_left(f"{link} be") == {"be"}  # a real word beside a link still counts


def _page_words(page: Page) -> str:
    """Everything a person or a screen reader meets: the text and the labels."""
    labels = page.eval_on_selector_all(
        "[aria-label], [title], [alt]",
        "els => els.map(e => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('alt')].filter(Boolean).join(' '))",
    )
    return f"{page.inner_text('body')} {' '.join(labels)} {page.title()}"


def _overflowing(page: Page, selector: str) -> list[str]:
    """The texts of ``selector`` wider than their box (cut, or spilling out of it)."""
    found: list[str] = page.eval_on_selector_all(
        selector,
        """els => els.filter(e => {
            const range = document.createRange();
            range.selectNodeContents(e);
            const style = getComputedStyle(e);
            const inner = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return range.getBoundingClientRect().width > inner + 0.5;
        }).map(e => e.textContent)""",
    )
    return found


def _dutch_game(base: str, browser: Browser, shots: Path, size: str, how: str) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    watched = _Watched(browser, viewport=viewport, locale="nl-NL", has_touch=how == "tap")
    page = watched.page()
    page.goto(f"{base}/")
    page.wait_for_selector("#variants input")
    assert page.get_attribute("html", "lang") == "nl"
    assert (page.text_content("#new-game") or "").strip() == "Nieuw spel"
    page.fill("#seats .seat-row:nth-child(1) input", "Anna")
    page.fill("#seats .seat-row:nth-child(2) input", "Bram")
    page.fill("#seed", "2024")
    left = _english_left(_page_words(page))
    assert left == set(), (left, _page_words(page))
    page.screenshot(path=str(shots / f"nl-{size}-1-lobby.png"), full_page=True)
    page.click("#create-game")
    link = page.wait_for_selector("a.seat-link[data-seat='0']")
    assert link is not None
    assert _english_left(_page_words(page)) == set()
    link.click()
    page.wait_for_selector("[data-testid=status]")
    assert page.inner_text("[data-testid=status]") == "Jouw beurt"
    assert page.inner_text("[data-testid=language]") == "English"  # the switch, on every page
    assert "Tel je passende kaarten" in page.inner_text("[data-testid=help]")
    left = _english_left(_page_words(page))
    assert left == set(), (left, _page_words(page))
    # The longer Dutch words fit: the help's card (HOOFDDEKSEL) and the houses' wishes
    # (Bovenstuk, Sprookjes), whose chips were cut ("Bovens…").
    assert _overflowing(page, ".help-card .card-type, .nice-house .feature") == []
    page.screenshot(path=str(shots / f"nl-{size}-2-first-turn.png"), full_page=size == "desktop")
    # A refusal, in Dutch words, naming the house by what it wants.
    page.click(".nice-house[data-house='0']", force=True)
    notice = page.wait_for_selector("[data-testid=notice]")
    assert notice is not None
    assert re.search(
        r"wil minstens 2 kaarten met \w+ zien en je kinderen dragen er 0", notice.inner_text()
    )
    page.screenshot(path=str(shots / f"nl-{size}-3-refusal.png"))
    seen: set[str] = set()

    def after_move(moves: int) -> None:
        if moves % 6 == 0:
            seen.update(_english_left(_page_words(page)))
            # Issue 48: the kids' covered strips cut "HOOFDDEKSEL" to "HOOFDDEKS", and the
            # tracks read "1 pompoenen", "1 voetafdrukken over".
            strips = ".stack .layer .card-type, .stack .layer:not(:last-child) .card-theme"
            assert _overflowing(page, f"{strips}, .market .card-type") == []
            tracks = " ".join(
                page.eval_on_selector_all(
                    ".track, [data-testid=pays]", "els => els.map(e => e.innerText)"
                )
            )
            assert not re.search(
                r"\b1\s+(pompoenen|zuurtjes|lolly's|gomberen|voetafdrukken)", tracks
            )
            assert not re.search(
                r"\b([02-9]|\d\d)\s+(pompoen|zuurtje|lolly|gombeer|voetafdruk)\b(?!')", tracks
            )
        if moves == 12:
            page.screenshot(
                path=str(shots / f"nl-{size}-4-mid-game.png"), full_page=size == "desktop"
            )

    _play_to_the_end(page, how=how, after_move=after_move)
    sheet = page.wait_for_selector("[data-testid=score-sheet]")
    assert sheet is not None
    assert "2 punten per stuk" in sheet.inner_text()
    # Each row its own name: the points of the trick tiles, and the tiles held (issue 39).
    rows = [th.inner_text().split("\n")[0] for th in sheet.query_selector_all("th[scope=row]")]
    assert "Plaagtegels" in rows
    assert "Tegels in bezit" in rows
    assert len(set(rows)) == len(rows), rows
    seen.update(_english_left(_page_words(page)))
    assert seen == set(), seen
    if size == "phone":
        _fits(page)
    page.screenshot(path=str(shots / f"nl-{size}-5-end-sheet.png"))
    _axe(page, "the Dutch end sheet")
    watched.check()


def test_a_whole_game_in_dutch_at_1280x800(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path
) -> None:
    _dutch_game(server[0], browser, screenshots, "desktop", "click")


def test_a_whole_game_in_dutch_at_390x844(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path
) -> None:
    _dutch_game(server[0], browser, screenshots, "phone", "tap")


def test_the_switch_changes_the_language_and_the_choice_is_kept(
    server: tuple[str, Lobby], browser: Browser
) -> None:
    watched = _Watched(browser, locale="nl-NL")
    page = watched.page()
    page.goto(f"{server[0]}/")
    page.wait_for_selector("#variants input")
    assert page.inner_text("[data-testid=language]") == "English"
    page.click("[data-testid=language]")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector("#variants input")
    assert (page.text_content("#new-game") or "").strip() == "New game"
    page.goto(f"{server[0]}/offline")  # another page, the same player: still English
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("[data-testid=language]") == "Nederlands"
    page.click("[data-testid=language]")
    page.wait_for_function("document.documentElement.lang === 'nl'")
    assert "Speel tegen de computer" in (page.text_content("#offline-title") or "")
    # Another player (a context without the cookie) still gets the browser's language.
    other = _Watched(browser, locale="en-GB").page()
    other.goto(f"{server[0]}/")
    assert other.get_attribute("html", "lang") == "en"
    # A host's link in Dutch (issue 48: ?lang=nl did nothing) opens in Dutch; the switch then
    # goes to English and leaves the link's choice behind, so that the choice is kept.
    other.goto(f"{server[0]}/?lang=nl")
    other.wait_for_selector("#variants input")
    assert other.get_attribute("html", "lang") == "nl"
    other.click("[data-testid=language]")
    other.wait_for_function("document.documentElement.lang === 'en'")
    assert "lang=" not in other.url
    other.wait_for_selector("#variants input")
    other.reload()
    assert other.get_attribute("html", "lang") == "en"


def test_the_servers_refusals_are_dutch_on_a_dutch_page(browser: Browser, tmp_path: Path) -> None:
    """Issue 48: on Dutch pages the server's refusals (quota, busy, spectators full, too many
    sockets, server full, store unavailable) were English."""
    lobby = Lobby(limits=Limits(games_per_client=1, spectators_per_game=1))
    app = create_app(lobby, wheel_dir=tmp_path / "wheels")
    with serving(app, ws="websockets-sansio") as base:
        answer = post_json(f"{base}/api/games", {"players": [{"name": "Anna"}, {"name": "Bram"}]})
        watched = _Watched(browser, locale="nl-NL")
        watcher = watched.page()
        watcher.goto(f"{base}{answer['watch']}")
        watcher.wait_for_selector("main.table")
        turned = watched.page()
        turned.goto(f"{base}{answer['watch']}")
        refusal = turned.wait_for_selector("[data-testid=refusal]")
        assert refusal is not None
        assert refusal.inner_text() == (
            "Dit spel heeft al zoveel toeschouwers als het kan hebben; probeer het later opnieuw."
        )
        # A second game from this address is past its quota: the lobby says so in Dutch,
        # with the minutes the server counted.
        lobby_page = watched.page()
        lobby_page.goto(f"{base}/")
        lobby_page.wait_for_selector("#variants input")
        lobby_page.click("#create-game")
        lobby_page.wait_for_selector("#error:has-text('Je hebt')")
        said = lobby_page.inner_text("#error")
        assert re.fullmatch(
            r"Je hebt de laatste tijd zoveel spellen aangemaakt als één adres mag; probeer het "
            r"over \d+ minuten opnieuw, of speel een van die spellen\.",
            said,
        ), said
        assert _english_left(said) == set()
        watched.check()

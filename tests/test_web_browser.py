"""The web example in a real browser: Debian's chromium driven by Playwright.

A person's whole game by clicks, two people in two browser contexts, the offline Pyodide page,
and no request that leaves 127.0.0.1. Screenshots of the board mid-game and of the end screen
are saved in the folder printed at the end of the run (``TRICKY_TREATS_SCREENSHOTS`` to
choose it). Needs ``.[webtest]`` and chromium (``apt-get install chromium``, or
``$TRICKY_TREATS_CHROMIUM``); the offline page needs the Pyodide runtime, which these tests
install with ``npm ci`` in examples/web where npm is. Playwright's own browser download is
never used.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.requirements import NPM_HINT, install_hint, npm_path

pytest.importorskip("starlette", reason=install_hint("webtest"))
pytest.importorskip("playwright", reason=install_hint("webtest"))

import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

sys.path.insert(0, str(Path(__file__).parents[1] / "examples" / "web"))

from tricky_treats_web import Lobby, create_app
from tricky_treats_web.app import PYODIDE

from tests import chromium as _chromium

VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
MAX_MOVES = 400  # a game has far fewer: a bound, so that a stuck page fails instead of looping
SCREENSHOTS = Path(
    os.environ.get("TRICKY_TREATS_SCREENSHOTS")
    or Path(tempfile.gettempdir()) / "tricky-treats-screenshots"
)


@pytest.fixture(scope="module")
def screenshots(request: pytest.FixtureRequest) -> Iterator[Path]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield SCREENSHOTS
    # Printed past pytest's capture, so that the run's output names the folder.
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print(
            f"\nweb example screenshots saved in {SCREENSHOTS}: {sorted(os.listdir(SCREENSHOTS))}"
        )


def _install_pyodide() -> bool:
    """Whether the offline page's Pyodide runtime is there, after ``npm ci`` where npm is.

    Run before the app is made: it serves /pyodide only when the runtime is installed.
    """
    runtime = PYODIDE / "pyodide.mjs"
    npm = npm_path()
    if not runtime.is_file() and npm is not None:
        subprocess.run(
            [str(npm), "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=PYODIDE.parents[1],
            check=True,
        )
    return runtime.is_file()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Lobby]]:
    """The app on 127.0.0.1 on a free port, in a thread, for the module's tests."""
    _install_pyodide()
    lobby = Lobby()
    app = create_app(lobby, wheel_dir=tmp_path_factory.mktemp("wheels"))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", lifespan="off")
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, kwargs={"sockets": [sock]})
    thread.start()
    deadline = time.monotonic() + 20
    while not uvicorn_server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", lobby
    uvicorn_server.should_exit = True
    thread.join(20)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=_chromium.executable(), args=_chromium.FLAGS
        )
        yield chromium
        chromium.close()


class _Watched:
    """A browser context that records every request and every page error."""

    def __init__(self, browser: Browser) -> None:
        self.context: BrowserContext = browser.new_context(viewport=VIEWPORT)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.context.on("weberror", lambda e: self.errors.append(str(e.error)))

    def page(self) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def check(self) -> None:
        """Nothing went wrong on the page and no request left 127.0.0.1."""
        assert self.errors == []
        assert self.requests
        for url in self.requests:
            parsed = urlparse(url)
            assert parsed.scheme in ("data", "blob") or parsed.hostname == "127.0.0.1", url
        self.context.close()


def _updates(page: Page) -> int:
    return int(page.get_attribute("#app", "data-updates") or 0)


def _wait_for_update(page: Page, seen: int, timeout: float = 30_000) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('app').dataset.updates || 0) > {seen}", timeout=timeout
    )


def _click_a_move(page: Page) -> str:
    """Play one legal move by clicks, preferring visits so that games end; return it."""
    for selector in (".nice-house.playable", ".mean-house.playable"):
        target = page.query_selector(selector)
        if target is not None:
            action = target.get_attribute("data-action") or ""
            target.click()
            return action
    card = page.query_selector(".market .card.playable")
    if card is not None:
        card.click()
        kid = page.wait_for_selector(".kid.playable", timeout=5000)
        assert kid is not None
        action = kid.get_attribute("data-action") or ""
        kid.click()
        return action
    button = page.query_selector("button.act[data-action]")
    assert button is not None, "it is my turn, yet the page offers no move"
    action = button.get_attribute("data-action") or ""
    button.click()
    return action


def _play_to_the_end(page: Page, screenshot: Path | None = None) -> int:
    """Play every turn of this page's seat by clicks until the score sheet shows."""
    for moves in range(MAX_MOVES):
        page.wait_for_selector(".status.yours, [data-testid=score-sheet]", timeout=30_000)
        if page.query_selector("[data-testid=score-sheet]"):
            return moves
        if screenshot is not None and moves == 12:
            page.screenshot(path=str(screenshot))
        seen = _updates(page)
        _click_a_move(page)
        _wait_for_update(page, seen)
    raise AssertionError(f"no end of the game after {MAX_MOVES} moves")


def _create(base: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/games", data=json.dumps(body).encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def _sheet_totals(page: Page) -> list[int]:
    cells = page.query_selector_all("[data-testid=score-sheet] tr.total td")
    return [int(cell.inner_text()) for cell in cells[1:]]


def test_a_person_plays_a_whole_game_by_clicks_to_the_final_score_sheet(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path
) -> None:
    base, lobby = server
    watched = _Watched(browser)
    page = watched.page()
    page.goto(f"{base}/")
    page.wait_for_selector("#variants input")  # the variants came from the server
    page.fill("#seats .seat-row:nth-child(1) input", "Ann")
    page.fill("#seats .seat-row:nth-child(2) input", "Bo")
    page.click("#add-seat")
    page.select_option("#seats .seat-row:nth-child(3) select", "random")
    page.fill("#seed", "2024")
    page.click("#create-game")
    link = page.wait_for_selector("a.seat-link[data-seat='0']")
    assert link is not None
    assert len(page.query_selector_all("a.seat-link")) == 1  # the bots get no link
    link.click()
    page.wait_for_selector("[data-testid=status]")
    assert page.inner_text("[data-testid=status]") == "Your turn"
    assert len(page.query_selector_all(".nice-house")) == 9
    assert len(page.query_selector_all(".mean-house")) == 3
    assert len(page.query_selector_all(".street")) == 6
    assert len(page.query_selector_all(".kid")) == 5
    # Illegal moves are not offered: no visit is possible before any card is taken.
    assert page.query_selector_all(".nice-house.playable") == []
    assert page.query_selector("button[data-action=pass]") is None

    moves = _play_to_the_end(page, screenshot=screenshots / "board-mid-game.png")
    assert moves > 12

    (room,) = (r for r in lobby.rooms.values() if r.table.game.config.seed == 2024)
    game = room.table.game
    assert game.is_over
    sheet = page.wait_for_selector("[data-testid=score-sheet]")
    assert sheet is not None
    assert _sheet_totals(page) == [s.total for s in game.scores()]
    winners = " and ".join(game.config.players[w] for w in game.winners())
    assert winners in sheet.inner_text()
    page.screenshot(path=str(screenshots / "end-screen.png"))
    watched.check()


def test_two_people_play_one_game_in_two_browser_contexts(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path
) -> None:
    base, lobby = server
    answer = _create(base, {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": 77})
    ann_ctx, bo_ctx = _Watched(browser), _Watched(browser)
    ann, bo = ann_ctx.page(), bo_ctx.page()
    ann.goto(base + answer["seats"][0]["link"])
    bo.goto(base + answer["seats"][1]["link"])
    for page in (ann, bo):
        page.wait_for_selector("[data-testid=status]")
    assert ann.inner_text("[data-testid=status]") == "Your turn"
    assert bo.inner_text("[data-testid=status]") == "Ann is playing…"
    assert bo.query_selector_all(".playable") == []  # nothing to click out of turn
    table = lobby.rooms[answer["game"]].table
    turns = 0
    while not table.game.is_over:
        assert turns < MAX_MOVES
        mover, other = (ann, bo) if table.game.current_player == 0 else (bo, ann)
        seen_mover, seen_other = _updates(mover), _updates(other)
        action = _click_a_move(mover)
        _wait_for_update(mover, seen_mover)
        _wait_for_update(other, seen_other)
        assert str(table.game.history[-1]) == action
        # Each sees only their own secret tile while the game goes on.
        if not table.game.is_over:
            for page in (ann, bo):
                assert len(page.query_selector_all(".player.me .secret .hidden-tile")) == 0
                assert len(page.query_selector_all(".player:not(.me) .secret .hidden-tile")) == 1
        turns += 1
        if turns == 20:
            bo.screenshot(path=str(screenshots / "two-players-mid-game.png"))
    for page in (ann, bo):
        page.wait_for_selector("[data-testid=score-sheet]")
        assert _sheet_totals(page) == [s.total for s in table.game.scores()]
    ann_ctx.check()
    bo_ctx.check()


def test_the_offline_page_plays_a_game_with_the_engine_in_the_browser(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path
) -> None:
    if not _install_pyodide():
        pytest.skip(f"{NPM_HINT} (or run `npm ci` in examples/web)")
    base, lobby = server
    games_before = len(lobby.rooms)
    watched = _Watched(browser)
    page = watched.page()
    page.goto(f"{base}/offline")
    page.wait_for_selector("#loading[data-ready=true]", timeout=240_000)
    assert "tricky-treats" in page.inner_text("#loading")
    page.select_option("select[name=bot]", "random")
    page.fill("input[name=seed]", "5")
    page.click("#start-game")
    page.wait_for_selector("[data-testid=status]")
    moves = _play_to_the_end(page)
    assert moves > 5
    assert _sheet_totals(page)
    page.screenshot(path=str(screenshots / "offline-end-screen.png"))
    assert len(lobby.rooms) == games_before  # the server hosted nothing: the browser played
    served = {urlparse(url).path for url in watched.requests}
    assert "/pyodide/pyodide.asm.wasm" in served
    assert any(path.startswith("/wheels/tricky_treats-") for path in served)
    assert not any(path.startswith("/ws/") for path in served)
    watched.check()

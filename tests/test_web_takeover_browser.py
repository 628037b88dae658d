# ruff: noqa: F811 - the fixtures of tests/test_web_browser.py, imported by name
"""Every game finishes, in a real browser (issue 47): a seat's clock runs out and the bot
plays its turn; the seat closes its tab and the others see it; the bot plays it; its player
comes back with the link and takes the seat; the game reaches its end sheet. Also the lobby's
clock and takeover, and the same in Dutch on a phone.

Debian's chromium driven by Playwright, as tests/test_web_browser.py (whose fixtures and
helpers these tests share); axe-core scans the pages with the clocks and the presence shown.
Clocks of a few seconds: each test takes well under a minute, every wait is bounded.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from tricky_treats_web import Lobby

from tests.local import post_json
from tests.test_web_browser import (  # noqa: F401 - the fixtures, shared with those tests
    DESKTOP,
    PHONE,
    _axe,
    _fits,
    _play_a_move,
    _play_to_the_end,
    _updates,
    _wait_for_update,
    _Watched,
    browser,
    screenshots,
    server,
)

SEED = 4_611_686_018_427_387_000 + 4748
WAIT = 30_000
"""Milliseconds any element is waited for: a bound on a loaded machine."""


def _table(base: str, **body: Any) -> dict[str, Any]:
    request = {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": SEED, **body}
    return post_json(f"{base}/api/games", request)


def _seat(page: Page, seat: int, part: str) -> str:
    """The text of ``part`` (``presence``, ``clock``) of a seat's panel."""
    return page.inner_text(f".player[data-seat='{seat}'] [data-testid={part}]")


def _clock_seconds(text: str) -> int:
    minutes, seconds = re.search(r"(\d+):(\d\d)", text).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(seconds)


def _last_move_of(page: Page, name: str) -> str:
    """The log's line of ``name``'s last move."""
    lines = [
        li.inner_text()
        for li in page.query_selector_all("[data-testid=log] li[data-move]")
        if li.inner_text().startswith(name)
    ]
    assert lines, f"no move of {name} in the log"
    return lines[-1]


def test_a_seat_out_of_time_and_away_is_played_to_the_end_sheet_and_taken_back(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path
) -> None:
    base, lobby = server
    answer = _table(base, clock="move:5", grace=2, takeover="greedy")
    ann_context = _Watched(browser)
    ann = ann_context.page()
    ann.goto(base + answer["seats"][0]["link"])
    bo_context = _Watched(browser, PHONE, has_touch=True)
    bo = bo_context.page()
    bo.goto(base + answer["seats"][1]["link"])
    ann.wait_for_selector(".status.yours")
    ann.wait_for_selector(".player[data-seat='1'] .presence.here")
    assert _seat(ann, 1, "presence") == "at the table"
    assert _clock_seconds(ann.inner_text("[data-testid=turn-clock]")) <= 5

    # Ann moves. Bo is at the table, but does not: his clock counts down on both pages.
    seen = _updates(ann)
    _play_a_move(ann)
    _wait_for_update(ann, seen)
    ann.wait_for_selector('[data-testid=turn-clock]:has-text("Bo\'s time")')
    start = _clock_seconds(_seat(ann, 1, "clock"))
    ann.wait_for_function(
        f"(() => {{ const c = document.querySelector(\".player[data-seat='1'] "
        f'[data-testid=clock]"); return c && /(\\d+):(\\d\\d)/.exec(c.textContent) && '
        f"Number(/:(\\d\\d)/.exec(c.textContent)[1]) < {start}; }})()",
        timeout=WAIT,
    )
    # Out of time: the page says when the bot will play, and then it does.
    ann.wait_for_selector("[data-testid=turn-clock]:has-text('is up')", timeout=WAIT)
    assert re.search(
        r"Bo's time is up: the bot plays in 0:0\d", ann.inner_text("[data-testid=turn-clock]")
    )
    assert _seat(ann, 1, "clock").split()[-3:] == ["out", "of", "time"]
    ann.screenshot(path=str(screenshots / "clock-1-out-of-time.png"))
    bo.wait_for_selector(".turn-clock.out", timeout=WAIT)
    bo.screenshot(path=str(screenshots / "clock-2-out-of-time-phone.png"))
    ann.wait_for_selector("[data-testid=played-by]:has-text('was out of time')", timeout=WAIT)
    assert "played by the greedy bot: Bo was out of time" in _last_move_of(ann, "Bo")
    _axe(ann, "a board with the clocks and a move the bot played")
    _axe(bo, "a phone's board with the clocks")
    _fits(bo)

    # Bo closes his tab: Ann sees him leave, then the bot take his seat.
    bo.close()
    ann.wait_for_selector(".player[data-seat='1'] .presence.away", timeout=WAIT)
    assert re.fullmatch(r"away \d+:\d\d", _seat(ann, 1, "presence"))
    ann.wait_for_selector("[data-testid=log-note]:has-text('Bo left the table.')")
    ann.wait_for_selector(".player[data-seat='1'] .presence.taken", timeout=WAIT)
    assert _seat(ann, 1, "presence") == "away: the greedy bot plays"
    assert "Bo has been away too long: the greedy bot plays for them." in ann.inner_text(
        "[data-testid=log]"
    )
    ann.screenshot(path=str(screenshots / "clock-3-taken-over.png"))
    for _ in range(2):  # the bot answers Ann's moves for Bo at once, and says so
        ann.wait_for_selector(".status.yours", timeout=WAIT)
        seen = _updates(ann)
        _play_a_move(ann)
        _wait_for_update(ann, seen)
    ann.wait_for_selector("[data-testid=played-by]:has-text('Bo was away')", timeout=WAIT)

    # Bo opens his link again: the seat is his, and everyone hears it.
    bo = bo_context.page()
    bo.goto(base + answer["seats"][1]["link"])
    notice = bo.wait_for_selector("[data-testid=notice]", timeout=WAIT)
    assert notice is not None
    assert "played for you while you were away" in notice.inner_text()
    assert "Your seat is yours again" in notice.inner_text()
    ann.wait_for_selector("[data-testid=log-note]:has-text('Bo is back and plays again.')")
    ann.wait_for_selector(".player[data-seat='1'] .presence.here", timeout=WAIT)
    bo.screenshot(path=str(screenshots / "clock-4-back-phone.png"))
    _axe(bo, "a phone's board after taking the seat back")
    # He plays his next turn himself, by taps.
    bo.wait_for_selector(".status.yours", timeout=WAIT)
    seen = _updates(bo)
    _play_a_move(bo, "tap")
    _wait_for_update(bo, seen)
    ann.wait_for_function(
        "(() => { const moves = [...document.querySelectorAll('[data-testid=log] li[data-move]')]"
        ".filter(li => li.innerText.startsWith('Bo')); const last = moves[moves.length - 1];"
        " return last && !last.querySelector('[data-testid=played-by]'); })()",
        timeout=WAIT,
    )
    played_by = lobby.rooms[answer["game"]].table.played_by
    assert {by.reason for by in played_by.values()} == {"time", "away"}

    # He leaves again; the bot plays his seat to the end sheet.
    bo.close()
    _play_to_the_end(ann)
    sheet = ann.wait_for_selector("[data-testid=score-sheet]", timeout=WAIT)
    assert sheet is not None
    game = lobby.rooms[answer["game"]].table.game
    assert game.is_over
    assert [int(c.inner_text()) for c in ann.query_selector_all("tr.total td")] == [
        s.total for s in game.scores()
    ]
    ann.screenshot(path=str(screenshots / "clock-5-end-sheet.png"))
    _axe(ann, "the end sheet of a game the bot finished for Bo")
    ann_context.check()
    bo_context.check()


def test_the_lobby_offers_a_clock_and_a_takeover_and_the_table_keeps_them(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path
) -> None:
    base, lobby = server
    watched = _Watched(browser)
    page = watched.page()
    page.goto(f"{base}/")
    page.wait_for_selector("#variants input")
    # Every control has a name a screen reader can read.
    for control in ("#clock", "#takeover", "#grace"):
        assert page.evaluate(f"document.querySelector('{control}').labels.length") == 1
    options = page.eval_on_selector_all("#clock option", "os => os.map(o => o.textContent)")
    assert options[:3] == ["No clock", "30 seconds a turn", "1 minute a turn"]
    assert page.input_value("#takeover") == "greedy"
    page.select_option("#clock", "bank:300+5")
    page.select_option("#takeover", "search")
    page.select_option("#grace", "120")
    page.fill("#seed", "4748")
    page.screenshot(path=str(screenshots / "clock-lobby.png"), full_page=True)
    _axe(page, "the lobby with its clock")
    page.click("#create-game")
    link = page.wait_for_selector("a.seat-link[data-seat='0']")
    assert link is not None
    (game_id,) = (g for g, r in lobby.rooms.items() if r.table.game.config.seed == 4748)
    policy = lobby.rooms[game_id].policy
    assert (str(policy.time_control), policy.takeover, policy.grace) == (
        "bank:300+5",
        "search",
        120,
    )
    link.click()
    page.wait_for_selector("[data-testid=turn-clock]")
    assert re.search(r"Your time 4:5\d|Your time 5:00", page.inner_text("[data-testid=turn-clock]"))
    watched.check()


@pytest.mark.parametrize("size", ["phone"])
def test_presence_and_clocks_speak_dutch(
    server: tuple[str, Lobby], browser: Browser, screenshots: Path, size: str
) -> None:
    from tests.test_web_i18n_browser import _english_left, _page_words

    base, _ = server
    answer = _table(base, players=[{"name": "Anna"}, {"name": "Bram"}], clock="move:2", grace=3)
    watched = _Watched(browser, PHONE, locale="nl-NL")
    anna, bram = watched.page(), watched.page()
    anna.goto(base + answer["seats"][0]["link"])
    bram.goto(base + answer["seats"][1]["link"])
    bram.wait_for_selector("[data-testid=turn-clock]")
    bram.wait_for_selector(".player[data-seat='0'] .presence.here")
    assert _seat(bram, 1, "presence") == "aan tafel"
    assert "Tijd van Anna" in bram.inner_text("[data-testid=turn-clock]")
    # Anna is at the table but does not move: her time runs out, then the bot plays.
    bram.wait_for_selector(".turn-clock.out", timeout=WAIT)
    assert re.search(
        r"Tijd van Anna is op: de computer speelt over 0:0\d",
        bram.inner_text("[data-testid=turn-clock]"),
    )
    left = _english_left(_page_words(bram))
    assert left == set(), left
    _fits(bram)
    bram.screenshot(path=str(screenshots / f"nl-{size}-clock-out-of-time.png"), full_page=True)
    bram.wait_for_selector("[data-testid=played-by]", timeout=WAIT)
    assert "gespeeld door de computer (gulzig): de tijd van Anna was op" in bram.inner_text(
        "[data-testid=log]"
    )
    # Anna leaves: Bram sees it, in Dutch.
    anna.close()
    bram.wait_for_selector(".player[data-seat='0'] .presence.away", timeout=WAIT)
    assert re.fullmatch(r"weg \d+:\d\d", _seat(bram, 0, "presence"))
    bram.wait_for_selector("[data-testid=log-note]:has-text('Anna heeft de tafel verlaten.')")
    assert _english_left(_page_words(bram)) == set()
    bram.screenshot(path=str(screenshots / f"nl-{size}-clock-away.png"), full_page=True)
    _axe(bram, "a Dutch phone board with the clocks")
    watched.check()

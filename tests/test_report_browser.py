"""A balance report in a real browser: Debian's Chromium driven by Playwright.

.ci/run installs the report extra, Playwright and Chromium, so CI never skips these.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.requirements import install_hint, needs_chromium

pytest.importorskip("matplotlib", reason=install_hint("report"))
pytest.importorskip("playwright", reason=install_hint("webtest"))

from playwright import sync_api

from tests import chromium
from tests.test_report import HAND, SECTIONS, _other
from tricky_treats.report import write_report

pytestmark = needs_chromium()


def test_the_report_shows_every_section_and_plot_without_any_request(tmp_path: Path) -> None:
    report = write_report([HAND, _other()], tmp_path / "report.html")
    requests: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})

            def refuse_the_network(route: sync_api.Route) -> None:
                requests.append(route.request.url)
                if route.request.url.startswith(("file:", "data:")):
                    route.continue_()
                else:
                    route.abort()

            page.route("**/*", refuse_the_network)
            page.goto(report.as_uri(), wait_until="load")
            for section in SECTIONS:
                assert page.locator(f"section#{section}").is_visible(), section
            images = page.locator("img")
            assert images.count() == 5
            for index in range(images.count()):
                image = images.nth(index)
                assert image.is_visible()
                width = image.evaluate("i => i.complete ? i.naturalWidth : 0")
                assert width > 300  # the SVG decoded and has its size
            # Nothing sticks out sideways at an ordinary window width.
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            shot = Path(os.environ.get("REPORT_SCREENSHOT", tmp_path / "report.png"))
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
        finally:
            browser.close()
    assert [url for url in requests if not url.startswith(("file:", "data:"))] == []
    assert requests  # the page itself went through the route: the check saw the traffic

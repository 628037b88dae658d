"""Chromium for the browser tests: which one to launch and the flags it needs here."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.requirements import chromium_hint, chromium_path

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these, chromium keeps calling out to the network, which this machine refuses.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Launch flags: headless as root, and no traffic of chromium's own."""

CHROMIUM = chromium_path() or Path("/usr/bin/chromium")
"""The chromium found when the tests start (``executable`` skips where there is none)."""


def executable() -> str:
    """The chromium to launch (``tests.requirements.chromium_path``); skips where there is none.

    Debian's package (``apt-get install chromium``; .ci/run installs it when missing), never a
    browser that ``playwright install`` downloads.
    """
    path = chromium_path()
    if path is None:
        pytest.skip(chromium_hint())
    return str(path)


def launch(playwright: Playwright) -> Browser:
    """Launch ``executable()`` headless with ``FLAGS`` (skips where there is no chromium)."""
    return playwright.chromium.launch(executable_path=executable(), args=FLAGS)

"""Debian's chromium for the browser tests: where it is and the flags it needs here."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium (apt-get install chromium; .ci/run installs it when missing)."""

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

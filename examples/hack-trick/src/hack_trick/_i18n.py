"""The console's texts in the player's language: English, and Dutch, the rules' own.

Dutch is the language of the original rules (Gamehelphacktrick), in their words: ronde, beurt,
markers, vakken.

The catalogs are ``locale/LANG/LC_MESSAGES/hack_trick.po`` (and the compiled ``.mo``), managed
with the engine's by ``scripts/translations``; the English texts are the message ids.
"""

from __future__ import annotations

from pathlib import Path

from tricky_treats.i18n import N_, domain_text

__all__ = ["LANGUAGES", "N_", "_"]

LANGUAGES = ("en", "nl")
"""The console's languages: ``hack-trick play --lang nl``."""

_ = domain_text("hack_trick", Path(__file__).parent / "locale")

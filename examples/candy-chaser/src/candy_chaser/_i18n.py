"""The console's texts in the player's language: English, and Spanish, the rules' own.

Spanish is the language of the original rules (Reglas del juego Candy Chaser), in their words:
caramelos, cubos, dado, fase de marketing, fase Tattletale, acusar, eliminado.
"""

from __future__ import annotations

from pathlib import Path

from tricky_treats.i18n import N_, domain_text

__all__ = ["LANGUAGES", "N_", "_"]

LANGUAGES = ("en", "es")
"""The console's languages: ``candy-chaser play --lang es``."""

_ = domain_text("candy_chaser", Path(__file__).parent / "locale")

"""The console's texts in the player's language: English, and Spanish, the rules' own.

Spanish is the language of the original rules (Reglas del juego Candy Chaser), in their words:
caramelos, cubos, dado, fase de marketing, fase Tattletale, acusar, eliminado.
"""

from __future__ import annotations

from pathlib import Path

from tricky_treats._i18n import N_, domain_text

__all__ = ["LANGUAGES", "N_", "_"]

LANGUAGES = ("en", "es")
"""The console's languages: ``candy-chaser play --lang es``."""

PROTOCOL_WORDS = (
    # The shared console's words (tricky_treats.protocol), in this catalog too: the engine has
    # no catalog of every language a candy game speaks (tests/test_i18n.py checks the list).
    N_("player {number}: {told}"),
    N_("game abandoned"),
    N_("player {number}"),
    N_("winners: {players}"),
    N_("legal: "),
    N_("player {number}> "),
    N_("type one of the legal actions or its number"),
    N_("{answer} is not legal now; type one of the actions or its number (help explains the game)"),
)

_ = domain_text("candy_chaser", Path(__file__).parent / "locale")

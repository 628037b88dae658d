"""The console's texts in the player's language: English, and traditional Chinese, the rules'.

Traditional Chinese is the language of the original text (不給糖就搗蛋), in its words: 提籃,
糖果, 數字卡, 檢舉, 淘汰, 時間到.
"""

from __future__ import annotations

from pathlib import Path

from tricky_treats._i18n import N_, domain_text

__all__ = ["LANGUAGES", "N_", "_"]

LANGUAGES = ("en", "zh_Hant")
"""The console's languages: ``tricks-and-treats play --lang zh_Hant`` (or zh-TW)."""

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

_ = domain_text("tricks_and_treats", Path(__file__).parent / "locale")

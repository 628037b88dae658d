"""The console's texts in the player's language: English, and traditional Chinese, the rules'.

Traditional Chinese is the language of the original text (不給糖就搗蛋), in its words: 提籃,
糖果, 數字卡, 檢舉, 淘汰, 時間到.
"""

from __future__ import annotations

from pathlib import Path

from tricky_treats.i18n import N_, domain_text

__all__ = ["LANGUAGES", "N_", "_"]

LANGUAGES = ("en", "zh_Hant")
"""The console's languages: ``tricks-and-treats play --lang zh_Hant`` (or zh-TW)."""

_ = domain_text("tricks_and_treats", Path(__file__).parent / "locale")

"""The built-in variants. Each is a plugin like any third party's, using the public hooks.

| variant | hooks | what it changes |
|---|---|---|
| ``any-mean-house`` | ``tricky_treats_rules`` | R4 option: 3 matching icons trick any mean house |
| ``card-data`` | ``tricky_treats_components`` | component data from a file |
| ``family`` | ``..._costume_cards``, ``..._scoring`` | 36 cards; +2 per complete costume |
| ``open-objectives`` | ``tricky_treats_board`` | secret tiles dealt face up |

The base game itself is ``tricky_treats.variants.base``.
"""

from __future__ import annotations

from tricky_treats.variants import any_mean_house, card_data, family, open_objectives

__all__ = ["BUILTIN_VARIANTS"]

BUILTIN_VARIANTS = (
    any_mean_house.VARIANT,
    card_data.VARIANT,
    family.VARIANT,
    open_objectives.VARIANT,
)

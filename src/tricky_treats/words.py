"""The components in words, in the current language: cards, tiles and amounts of treats.

In English these are exactly the components' own ``str()`` (``purple horror head (egg)``,
``candy + lollipop = 4``) and the enum values, so that English texts read as they always did.
An app or a bot's client that names a component in its player's language says it the way
the engine's events and pictures do::

    from tricky_treats.i18n import speaking
    from tricky_treats.words import card_words, treat_amount

    with speaking("nl"):
        card_words(card)  # 'kaart broek (groen, horror, kapot ei)'
        treat_amount(2, Treat.CANDY)  # '2 zuurtjes'
"""

from __future__ import annotations

from tricky_treats.components import CostumeCard, Treat, TrickTile
from tricky_treats.i18n import N_, _, ngettext

__all__ = ["card_words", "tile_words", "treat_amount", "word"]

_COMPONENT_WORDS = (
    # colours, themes, types
    N_("purple"),
    N_("red"),
    N_("green"),
    N_("animal"),
    N_("horror"),
    N_("fable"),
    N_("space"),
    N_("head"),
    N_("body"),
    N_("legs"),
    # trick icons: the values, and as the picture names them
    N_("spiderweb"),
    N_("toilet-paper"),
    N_("toilet paper"),
    N_("egg"),
    # treats
    N_("candy"),
    N_("lollipop"),
    N_("gummy"),
)
"""Every component word the texts use, marked for the catalogs (a test checks the enums)."""


def word(value: str) -> str:
    """A component's English word (an enum's value) in the current language."""
    return _(value)


def card_words(card: CostumeCard) -> str:
    """``purple horror head (egg)`` in the current language."""
    return _("{colour} {theme} {type} ({icon})").format(
        colour=word(card.colour.value),
        theme=word(card.theme.value),
        type=word(card.type.value),
        icon=word(card.icon.value),
    )


def tile_words(tile: TrickTile) -> str:
    """``candy + lollipop = 4`` in the current language."""
    return f"{' + '.join(word(t.value) for t in tile.treats)} = {tile.points}"


def treat_amount(count: int, treat: Treat) -> str:
    """``2 candy`` in the current language, singular or plural as it needs."""
    match treat:
        case Treat.CANDY:
            text = ngettext("{count} candy", "{count} candy", count)
        case Treat.LOLLIPOP:
            text = ngettext("{count} lollipop", "{count} lollipop", count)
        case _:
            text = ngettext("{count} gummy", "{count} gummy", count)
    return text.format(count=count)

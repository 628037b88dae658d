"""Translations: the player's language for every text the engine writes, by stdlib gettext.

The English strings in the code are the message ids; ``src/tricky_treats/locale/`` holds a
catalog per shipped language (``LANG/LC_MESSAGES/tricky_treats.po``, edited by people, and its
compiled ``.mo``, read at run time). Babel extracts, updates and compiles the catalogs
(``scripts/translations``, see docs/translating.md); it is a tool of the developers only: at
run time the standard library's ``gettext`` reads the ``.mo`` files, so that playing in Dutch
needs no dependency beyond the engine's own.

The language is a context variable: a caller chooses it for a stretch of code with
``speaking(language)``, and ``_()`` reads it. Nothing is loaded until a text is translated
into a language other than English, so ``import tricky_treats`` opens no catalog, and not
even the ``gettext`` module.

Public (issue 44): the web app and the candy games build on it. A game or an app with
catalogs of its own reads them with ``domain_text``, marks its texts with ``N_`` and chooses
the player's language with ``speaking``, ``from_environment`` or ``from_accept_language``;
the names in ``__all__`` follow the stability policy (docs/stability.md).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from tricky_treats.errors import ConfigurationError, brief

if TYPE_CHECKING:
    import gettext

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "_",
    "catalog",
    "check_language",
    "domain_text",
    "from_accept_language",
    "from_environment",
    "language",
    "ngettext",
    "npgettext",
    "pgettext",
    "speaking",
]

DOMAIN = "tricky_treats"
"""The catalogs' file name: ``locale/LANG/LC_MESSAGES/tricky_treats.mo``."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""Where the catalogs are shipped, as package data."""

LANGUAGES = ("en", "nl")
"""The languages the engine speaks: English (the message ids) and the catalogs shipped."""

_language: ContextVar[str] = ContextVar("tricky_treats_language", default="en")


def check_language(language: str, shipped: Sequence[str] = LANGUAGES) -> str:
    """``language`` as a shipped language code (``nl``, ``nl_BE``, ``NL`` -> ``nl``).

    ``shipped`` are the languages there are (the engine's by default; a candy game's console
    names its own). Raises ``ConfigurationError`` naming them.
    """
    if not isinstance(language, str):
        raise ConfigurationError(f"a language is a code like 'nl', got {brief(language)}")
    code = language.strip().replace("-", "_").split(".")[0]
    # zh_TW and zh_Hant (traditional Chinese) keep their region or script; others their language.
    main, _sep, rest = code.partition("_")
    code = main.lower()
    if code == "zh" and rest.lower() in ("tw", "hk", "mo", "hant"):
        code = "zh_Hant"
    if code not in shipped:
        raise ConfigurationError(
            f"no translation into {brief(language)}; the languages are {', '.join(shipped)}"
        )
    return code


def language() -> str:
    """The language texts are written in now (``en`` unless a caller chose another)."""
    return _language.get()


@contextlib.contextmanager
def speaking(language: str | None, shipped: Sequence[str] = LANGUAGES) -> Iterator[str]:
    """Write texts in ``language`` within the block; ``None`` keeps the current language."""
    if language is None:
        yield _language.get()
        return
    token = _language.set(check_language(language, shipped))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


@functools.cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English: none, the ids are the texts)."""
    import gettext

    if language == "en":
        return gettext.NullTranslations()
    # A candy game's console may speak a language the engine has no catalog for: its shared
    # words (the prompt of protocol.TerminalPlayer) are then English.
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language], fallback=True)


def domain_text(domain: str, localedir: Path) -> Callable[[str], str]:
    """``_`` for another package's own catalogs (a candy game's): the current language's text.

    The catalogs are ``localedir/LANG/LC_MESSAGES/domain.mo``; each is read once, when first
    needed; a language without one gives the English ids.
    """

    @functools.cache
    def load(language: str) -> gettext.NullTranslations:
        import gettext

        found = gettext.translation(
            domain, localedir=localedir, languages=[language], fallback=True
        )
        # The console's shared words (protocol.TerminalPlayer, run_console) come from the
        # engine's catalog; a language the engine has none for finds them in the game's.
        catalog(language).add_fallback(found)
        return found

    def translate(message: str) -> str:
        code = _language.get()
        return message if code == "en" else load(code).gettext(message)

    return translate


def _(message: str) -> str:
    """``message`` in the current language (its English id if the catalog lacks it)."""
    code = _language.get()
    return message if code == "en" else catalog(code).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a message for ``count``, in the current language."""
    code = _language.get()
    if code == "en":
        return singular if count == 1 else plural
    return catalog(code).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as meant in ``context`` (``short``: abbreviated)."""
    code = _language.get()
    return message if code == "en" else catalog(code).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    """The singular or plural of a message in ``context`` for ``count``, in the current language."""
    code = _language.get()
    if code == "en":
        return singular if count == 1 else plural
    return catalog(code).npgettext(context, singular, plural, count)


def NP_(context: str, message: str) -> str:  # noqa: N802 - gettext's own name
    """Mark ``message`` in ``context`` for the catalogs without translating it now."""
    return message


def N_(message: str) -> str:  # noqa: N802 - gettext's own name
    """Mark ``message`` for the catalogs without translating it now (it is translated later)."""
    return message


def from_environment(
    environ: Mapping[str, str] | None = None, shipped: Sequence[str] = LANGUAGES
) -> str:
    """The language the locale asks for, as gettext reads it, else English.

    ``LANGUAGE`` (a colon-separated list of preferences), then ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG``: the first shipped language named wins; ``C`` and ``POSIX`` mean English.
    """
    environ = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        for wanted in value.split(":"):
            if wanted in ("C", "POSIX") or wanted.startswith("C."):
                return "en"
            with contextlib.suppress(ConfigurationError):
                return check_language(wanted, shipped)
        if variable != "LANGUAGE":
            return "en"  # the locale names a language we do not speak: English
    return "en"


def from_accept_language(header: str | None) -> str:
    """The best shipped language of an HTTP ``Accept-Language`` header, else English."""
    choices: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if not tag or quality <= 0:
            continue
        with contextlib.suppress(ConfigurationError):
            choices.append((-quality, index, check_language(tag)))
    return min(choices)[2] if choices else "en"

"""Babel's extraction of the web pages' static texts: each ``data-t`` element's first text.

``scripts/translations`` names this function in ``babel.cfg``; ``static/i18n.js`` translates
the same texts in the browser (``translatePage``), normalising white space as this does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, Any

_ELEMENT = re.compile(r"<(\w+)([^>]*\bdata-t\b[^>]*)>([^<]*)", re.S)
_ATTRS = re.compile(r'data-t-attrs="([^"]*)"')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Yield ``(line, function, message, comments)`` for Babel, one per text of the page."""
    html = fileobj.read().decode("utf-8")
    for match in _TITLE.finditer(html):
        yield html.count("\n", 0, match.start()) + 1, "", match.group(1).strip(), []
    for match in _ELEMENT.finditer(html):
        line = html.count("\n", 0, match.start()) + 1
        text = " ".join(match.group(3).split())  # the element's first text, as i18n.js reads it
        if text:
            yield line, "", text, []
        names = _ATTRS.search(match.group(2))
        for name in names.group(1).split(",") if names else ():
            value = re.search(rf'\b{name}="([^"]*)"', match.group(2))
            if value:
                yield line, "", value.group(1), []

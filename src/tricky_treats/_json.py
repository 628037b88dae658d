"""Strict, bounded JSON: what records read and write, and what variant options may hold.

Python's ``json`` module accepts more than JSON (``NaN``, ``Infinity``), keeps the last of
duplicate keys, parses integers of any length (slowly) and recurses once per nesting level.
Records come from clients and files, so they are read with every one of those refused and
with limits on size and nesting checked before any work grows with them.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from tricky_treats.errors import brief

MAX_INTEGER_DIGITS: Final = 40
"""The most digits an integer in variant options may have."""
MAX_OPTIONS_BYTES: Final = 64 * 1024
"""The largest ``variant_options`` of one game, written as JSON."""
MAX_OPTIONS_DEPTH: Final = 8
"""The deepest nesting of arrays and objects inside ``variant_options``."""


class StrictJSONError(ValueError):
    """A text or value is not strict, bounded JSON; the message says where and why."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise StrictJSONError(f"duplicate key {brief(duplicate)} in an object")
    return result


def _constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not JSON (strict JSON has no NaN or Infinity)")


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise StrictJSONError(f"the number {brief(text)} is out of range")
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A ``\\uD800`` to ``\\uDFFF`` escape: half of a surrogate pair, or a lone surrogate."""


def utf8_size(text: str) -> int:
    """The bytes ``text`` takes as UTF-8; raises ``StrictJSONError`` for a lone surrogate."""
    if text.isascii():
        return len(text)
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise StrictJSONError(_surrogate_problem(f"the text (at character {exc.start})")) from None


def _surrogate_problem(where: str) -> str:
    return f"{where} holds a lone surrogate (such as \\ud800), which is not Unicode text"


def _is_unicode(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _surrogate_path(value: object) -> str | None:
    """Where the first string or key with a lone surrogate is in ``value``, or None.

    Each entry carries its parent's path as a linked pair, so that a large document of good
    strings is walked cheaply and a path is spelled out only for the bad string.
    """
    stack: list[tuple[object, Any]] = [(value, None)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if not _is_unicode(item):
                return f"the string at {_path(at)}"
        elif isinstance(item, dict):
            if not all(_is_unicode(key) for key in item):
                return f"a key in {_path(at)}"
            stack.extend((inner, (at, key)) for key, inner in item.items())
        elif isinstance(item, list):
            stack.extend((inner, (at, index)) for index, inner in enumerate(item))
    return None


def _path(at: Any) -> str:
    """The JSON path of a linked pair ``(parent's pair, key or index)``; None is the top."""
    parts: list[str] = []
    while at is not None:
        at, key = at
        parts.append(f"[{key}]" if isinstance(key, int) else f".{_cut(str(key), 40)}")
    return _cut("$" + "".join(reversed(parts)), 200)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 20]}...({len(text)} characters)"


def strict_loads(text: str | bytes, *, max_bytes: int) -> Any:
    """Parse strict JSON text of at most ``max_bytes`` bytes as UTF-8.

    Nesting is bounded by the C parser, which gives up after about a thousand levels, at
    once; the reader's types then refuse anything deeper than their fixed shape, and free-form
    parts (variant options) are checked with ``check_json_value``. Raises
    ``StrictJSONError`` with a message that says what is wrong (and where, for syntax).
    """
    if not isinstance(text, str | bytes | bytearray):
        raise StrictJSONError(f"expected JSON text (str or bytes), got {type(text).__name__}")
    if len(text) > max_bytes:  # a str of more characters than the limit has more bytes too
        unit = "characters" if isinstance(text, str) else "bytes"
        raise StrictJSONError(f"{len(text):,} {unit}, more than the limit of {max_bytes:,} bytes")
    if isinstance(text, str) and utf8_size(text) > max_bytes:
        raise StrictJSONError(
            f"{utf8_size(text):,} bytes as UTF-8, more than the limit of {max_bytes:,} bytes"
        )
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StrictJSONError(f"not UTF-8 text: {exc}") from None
    document = _parse(text)
    if _SURROGATE_ESCAPE.search(text):  # "\\ud800" is JSON, but not Unicode text
        where = _surrogate_path(document)
        if where is not None:
            raise StrictJSONError(_surrogate_problem(where))
    return document


def _parse(text: str) -> Any:
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_constant=_constant,
            parse_float=_float,
        )
    except StrictJSONError:
        raise
    except ValueError as exc:
        if not isinstance(exc, json.JSONDecodeError):  # Python's limit of 4300 digits
            raise StrictJSONError(f"a number too long to read: {exc}") from None
        raise StrictJSONError(
            f"not valid JSON (truncated or corrupt?): {exc.msg} at line {exc.lineno} "
            f"column {exc.colno}"
        ) from None
    except RecursionError:
        raise StrictJSONError("nested too deeply (records have a fixed shape)") from None


def strict_dumps(value: Any, *, indent: int | None = None) -> str:
    """Write ``value`` as strict JSON (never ``NaN``); raises ``StrictJSONError`` if it cannot."""
    try:
        return json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise StrictJSONError(f"cannot be written as JSON: {exc}") from None


def check_json_value(value: object, *, max_depth: int, max_bytes: int) -> str:
    """Check that ``value`` is plain JSON data within the limits; return it as JSON text.

    Plain JSON data is dicts with string keys, lists, strings, whole numbers, finite
    floats, booleans and None. Raises ``StrictJSONError`` naming the first offending part.
    """
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth >= max_depth:
                raise StrictJSONError(
                    f"{path or 'the value'} is nested deeper than {max_depth} levels"
                )
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not isinstance(key, str):
                        raise StrictJSONError(
                            f"{path or 'the value'} has a key {brief(key)}: keys are strings"
                        )
                    if not _is_unicode(key):
                        raise StrictJSONError(_surrogate_problem(f"a key in {path or 'the value'}"))
                    stack.append((inner, f"{path}[{brief(key, 40)}]", depth + 1))
            else:
                stack.extend((inner, f"{path}[{i}]", depth + 1) for i, inner in enumerate(item))
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                raise StrictJSONError(f"{path or 'the value'} is {item}, which JSON cannot hold")
        elif isinstance(item, int) and not isinstance(item, bool):
            if abs(item) >= 10**MAX_INTEGER_DIGITS:
                raise StrictJSONError(
                    f"{path or 'the value'} has more than {MAX_INTEGER_DIGITS} digits"
                )
        elif isinstance(item, str):
            if not _is_unicode(item):
                raise StrictJSONError(_surrogate_problem(f"the string at {path or 'the value'}"))
        elif item is not None and not isinstance(item, bool):
            raise StrictJSONError(
                f"{path or 'the value'} is a {type(item).__name__}, not a JSON value"
            )
    text = strict_dumps(value)
    if len(text.encode()) > max_bytes:
        raise StrictJSONError(
            f"takes {len(text.encode()):,} bytes as JSON, more than {max_bytes:,}"
        )
    return text

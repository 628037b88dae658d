"""Reading component data files, the base game's among them, within their limits."""

from __future__ import annotations

import functools
import importlib.resources
import re
import tomllib
from pathlib import Path

from tricky_treats._component_files import files_allowed
from tricky_treats.components.data import ComponentData
from tricky_treats.components.format import parse_components
from tricky_treats.components.limits import COMPONENT_LIMITS
from tricky_treats.errors import ComponentDataError, brief

__all__ = ["base_components", "load_components"]


_MAX_KEY_DEPTH = 8


def load_components(path: str | Path) -> ComponentData:
    """Read a component data file (TOML, the format of the package's ``data/base.toml``).

    Raises ``ComponentDataError`` naming the file, the entry and the problem when the file
    is missing, larger than ``COMPONENT_LIMITS["file_bytes"]`` (1 MiB), not TOML or does not
    describe a playable box, and without opening it while ``tt.loads`` reads a record that
    names it (unless called with ``read_files=True``).
    """
    if not files_allowed():
        raise ComponentDataError(
            f"{brief(str(path))}: not read: a game record names this file, and tt.loads reads "
            "the files a record names only when called with read_files=True"
        )
    path = Path(path)
    limit = COMPONENT_LIMITS["file_bytes"][1]
    try:
        with path.open("rb") as file:
            content = file.read(limit + 1)  # never more: the path may be /dev/zero
        text = content.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ComponentDataError(f"{path}: cannot read component data: {exc}") from exc
    if len(content) > limit:
        raise ComponentDataError(
            f"{path}: cannot read component data: the file is larger than {limit} bytes "
            "(1 MiB), the most a component data file may hold"
        )
    return _parse_text(text, str(path))


_KEY_PART = r"""(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""
_DEEP_KEY = re.compile(
    rf"(?:^|[{{,])[ \t]*+\[*+[ \t]*+{_KEY_PART}(?:[ \t]*+\.[ \t]*+{_KEY_PART}){{{_MAX_KEY_DEPTH}}}",
    re.MULTILINE,
)
"""A dotted key (or table name) of more parts than any in the format, where a key may start:
tomllib takes time quadratic in the parts of a key, minutes for one line of a 1 MiB file.
A part is a bare key, a literal string or a basic string, escapes (``"a\\"b"``) included."""


_MAX_KEYS = 20_000
"""More keys and table headers than a file of the largest box has (1,000 cards, 100 houses,
100 tiles, a few keys each): such a file is refused before tomllib reads it, which takes
seconds for a file of 1 MiB full of keys."""

_KEY_START = re.compile(rf"(?:^|[{{,])[ \t]*+(?:\[\[?[ \t]*+)?{_KEY_PART}", re.MULTILINE)
"""Where a key or a table's name may start: counted, an upper bound of the keys a file has."""


def _parse_text(text: str, source: str) -> ComponentData:
    if _DEEP_KEY.search(text):
        raise ComponentDataError(
            f"{source}: not a component data file: a dotted key has more than "
            f"{_MAX_KEY_DEPTH} parts"
        )
    if (text.count("=") + text.count("[")) > _MAX_KEYS and _too_many_keys(text):
        raise ComponentDataError(
            f"{source}: not a component data file: more than {_MAX_KEYS:,} keys and tables "
            "(a file of the largest box has fewer)"
        )
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentDataError(f"{source}: not valid TOML: {exc}") from exc
    except ValueError:  # Python's limit of 4300 digits on reading an integer
        raise ComponentDataError(
            f"{source}: not a component data file: a number of more than 4300 digits"
        ) from None
    except RecursionError:
        raise ComponentDataError(f"{source}: not valid TOML: nested too deeply") from None
    return parse_components(document, source)


def _too_many_keys(text: str) -> bool:
    return any(count > _MAX_KEYS for count, _ in enumerate(_KEY_START.finditer(text), 1))


@functools.cache
def base_components() -> ComponentData:
    """The base game's components, read once from the package's ``data/base.toml``."""
    resource = importlib.resources.files("tricky_treats").joinpath("data/base.toml")
    return _parse_text(resource.read_text(encoding="utf-8"), "tricky_treats/data/base.toml")

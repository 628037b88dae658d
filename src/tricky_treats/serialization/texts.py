"""JSON texts kept by the identity of the immutable objects they are written from.

What both writers share: the table helper, its sizes, the plain encoder and the version
line a record is written by.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tricky_treats._version import VERSION
from tricky_treats.serialization.shapes import _T


def _package_version() -> str:
    return f"tricky-treats {VERSION}"


_WRITE = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False).encode
_CACHE_SIZE = 4096
_GAMES_KEPT = 32
"""How many games' setups the tables of record parts keep alive (a server's active games)."""


def _by_identity(
    cache: dict[int, tuple[Any, _T]], item: Any, make: Callable[[Any], _T], size: int = _CACHE_SIZE
) -> _T:
    """``make(item)``, kept for ``item`` (immutable) by identity; the entry keeps it alive.

    The table is emptied when it holds ``size`` entries.
    """
    entry = cache.get(id(item))
    if entry is None or entry[0] is not item:
        if len(cache) >= size:
            cache.clear()
        entry = cache[id(item)] = (item, make(item))
    return entry[1]

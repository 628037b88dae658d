"""Bounded caches for resolved combinations of variants and their keys."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__: list[str] = []


# -- bounded caches ------------------------------------------------------------------------------

_K = TypeVar("_K")
_V = TypeVar("_V")


class _BoundedCache(Generic[_K, _V]):
    """A thread-safe mapping that keeps the ``maxsize`` most recently used entries."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[_K, _V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: _K) -> _V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: _K, value: _V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


class _Same:
    """A cache key part that matches only the very object it holds (and keeps it alive).

    Keeping the object alive while the key is cached means its ``id`` cannot be reused by
    another object.
    """

    __slots__ = ("_hash", "obj")

    def __init__(self, obj: object) -> None:
        self.obj = obj
        self._hash = id(obj)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj

"""The installed distribution's version, read once (``tricky_treats.__version__``).

Not part of the public API: read ``tricky_treats.__version__``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["VERSION"]

try:
    VERSION: str = version("tricky-treats")
except PackageNotFoundError:  # pragma: no cover - running from a source tree, not installed
    VERSION = "0.0.0+unknown"

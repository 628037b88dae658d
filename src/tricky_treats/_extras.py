"""How to install an optional extra, as the errors that need one say it.

Before the first release ``pip install 'tricky-treats[cli]'`` finds nothing on the package
index: a copy installed from a clone (``pip install -e '.[dev]'``) is told to install the
extra from that clone, and only a copy from the index is told to ask the index.
"""

from __future__ import annotations

import functools
import json
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

__all__: list[str] = []


@functools.cache
def _installed_from() -> tuple[Path, bool] | None:
    """The folder this copy was installed from and whether editable; None from an index."""
    try:
        text = metadata.distribution("tricky-treats").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        info = json.loads(text or "")
    except ValueError:
        return None
    url = urlparse(str(info.get("url", "")))
    if "dir_info" not in info or url.scheme != "file":
        return None  # a wheel or an archive: the index is the way
    return Path(unquote(url.path)), bool(info["dir_info"].get("editable"))


def install_hint(extra: str) -> str:
    """The command that installs ``extra``: ``pip install -e '.[cli]'`` in a clone."""
    source = _installed_from()
    if source is None:
        return f"pip install 'tricky-treats[{extra}]'"
    folder, editable = source
    where = "." if Path.cwd() == folder else str(folder)
    return f"pip install {'-e ' if editable else ''}'{where}[{extra}]'"

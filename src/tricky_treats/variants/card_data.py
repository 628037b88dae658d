"""``card-data``: play with component data from a file, such as the exact cards of a printed box.

The file has the format of the package's own ``data/base.toml`` (copy it and edit it). Give
its path as the variant's ``file`` option::

    tt.new_game(3, seed=1, variants=["card-data"],
                variant_options={"card-data": {"file": "my-box.toml"}})

A malformed file raises ``ComponentDataError`` naming the file, the entry
and the problem. Saved games embed the data, so they load without the file: ``tt.loads``
never opens (or looks at) the file a record names, and uses the record's copy, unless it is
called with ``read_files=True``.

Hooks are resolved once per combination of variants and options (see
``tricky_treats.plugins.resolve``); the file's size and modification time are part of that
combination, so a game created after the file changed reads it again.
"""

from __future__ import annotations

import os
import sys

from tricky_treats._component_files import files_allowed
from tricky_treats.components import ComponentData, load_components
from tricky_treats.declaration import Variant
from tricky_treats.errors import ConfigurationError
from tricky_treats.hookspecs import hookimpl
from tricky_treats.model import GameConfig

NAME = "card-data"


@hookimpl
def tricky_treats_components(config: GameConfig) -> ComponentData:
    """The component data of the file named by the ``file`` option."""
    options = config.variant_options.get(NAME, {})
    path = options.get("file")
    if not isinstance(path, str) or not path:
        raise ConfigurationError(
            f"variant {NAME!r} needs the path of a component data file: "
            f"variant_options={{{NAME!r}: {{'file': 'my-box.toml'}}}}"
        )
    return load_components(path)


def _resolution_key(config: GameConfig) -> object:
    """What besides the options decides this variant's hooks: the file's size and time."""
    if not files_allowed():
        return "not read"  # loading a record: the hooks will not read the file either
    path = config.variant_options.get(NAME, {}).get("file")
    try:
        stat = os.stat(path) if isinstance(path, str) and path else None
    except OSError:
        return None
    return None if stat is None else (stat.st_size, stat.st_mtime_ns, stat.st_ino)


VARIANT = Variant(
    name=NAME,
    version="1.0",
    title="Card data from a file",
    description="Plays with component data read from a file in the package's own format.",
    plugin=sys.modules[__name__],
)

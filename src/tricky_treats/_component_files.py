"""Whether component data files may be read here: the switch ``tt.loads`` turns off.

Shared by three packages: ``components`` (``load_components`` refuses to open a file while
it is off), ``serialization`` (``loads`` and ``loads_view`` turn it off, so that a record
naming a file makes nobody open or look at it) and ``variants`` (``card-data`` does not even
look at the file then).
"""

from __future__ import annotations

import contextvars

__all__: list[str] = []

FILES_ALLOWED: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "tricky_treats_component_files", default=True
)
"""Whether ``load_components`` may read files here: ``tt.loads`` switches it off, so that a
record that names a file (``card-data``'s option) makes nobody open or look at it."""


def files_allowed() -> bool:
    """Whether component data files may be read (and looked at) in this context."""
    return FILES_ALLOWED.get()

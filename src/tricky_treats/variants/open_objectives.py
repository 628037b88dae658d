"""``open-objectives``: the secret trick tiles are dealt face up and every view shows them.

For teaching and analysis: everyone can see what everyone else collects treats for.
"""

from __future__ import annotations

import sys

import attrs

from tricky_treats.declaration import Variant
from tricky_treats.hookspecs import hookimpl
from tricky_treats.i18n import N_  # the title and description, in the catalogs
from tricky_treats.model import Board


@hookimpl
def tricky_treats_board(board: Board) -> Board:
    """Turn the dealt secret tiles face up: views and score sheets show every one."""
    return attrs.evolve(board, secret_tiles_face_up=True)


VARIANT = Variant(
    name="open-objectives",
    version="1.0",
    title=N_("Open objectives"),
    description=N_("Secret trick tiles are dealt face up; every player's view shows them all."),
    plugin=sys.modules[__name__],
)

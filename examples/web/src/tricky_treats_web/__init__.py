"""A small web app on ``tricky_treats.host.Table``: create a game, share per-seat links, play.

``create_app()`` builds the Starlette application; ``tricky-treats-web serve``
(``tricky_treats_web.cli``) runs it with uvicorn on 127.0.0.1. The distribution is
``tricky-treats-web`` (``'tricky-treats-web[postgresql]'`` for a PostgreSQL store shared by
several processes).
"""

from __future__ import annotations

from tricky_treats_web.app import Limits, Lobby, RefusedError, create_app
from tricky_treats_web.store import (
    QuarantinedTable,
    SqliteTableStore,
    StoredMove,
    StoredMoves,
    StoredTable,
    TableStore,
    VersionConflictError,
    WalDamage,
    open_store,
)

__all__ = [
    "Limits",
    "Lobby",
    "QuarantinedTable",
    "RefusedError",
    "SqliteTableStore",
    "StoredMove",
    "StoredMoves",
    "StoredTable",
    "TableStore",
    "VersionConflictError",
    "WalDamage",
    "create_app",
    "open_store",
]

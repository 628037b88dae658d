"""A small web app on ``tricky_treats.Table``: create a game, share per-seat links, play.

``create_app()`` builds the Starlette application; ``examples/web/serve.py`` runs it with
uvicorn on 127.0.0.1. Needs ``pip install 'tricky-treats[web]'``.
"""

from __future__ import annotations

from tricky_treats_web.app import Lobby, StoreFailedError, create_app
from tricky_treats_web.store import QuarantinedTable, SqliteTableStore, TableStore

__all__ = [
    "Lobby",
    "QuarantinedTable",
    "SqliteTableStore",
    "StoreFailedError",
    "TableStore",
    "create_app",
]

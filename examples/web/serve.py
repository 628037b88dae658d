"""Serve the Tricky Treats web app on http://127.0.0.1:8000 (``--port`` to change).

pip install -e '.[web]' && python examples/web/serve.py

Games are stored in ``examples/web/tricky-treats.sqlite3`` and come back after a restart or a
crash; ``--store PATH`` (or the ``TRICKY_TREATS_STORE`` environment variable) puts the file
elsewhere.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

import uvicorn

sys.path.insert(0, str(Path(__file__).parent))

from tricky_treats_web import Lobby, SqliteTableStore, create_app

DEFAULT_STORE = Path(__file__).parent / "tricky-treats.sqlite3"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--store",
        type=Path,
        default=Path(os.environ.get("TRICKY_TREATS_STORE") or DEFAULT_STORE),
        help="the SQLite file of the games (default: $TRICKY_TREATS_STORE or %(default)s)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    lobby = Lobby(store=SqliteTableStore(args.store))
    print(f"Tricky Treats: open http://{args.host}:{args.port}/ (Ctrl+C to stop)", flush=True)
    uvicorn.run(
        create_app(lobby),
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        log_level="warning",
    )


if __name__ == "__main__":
    main()

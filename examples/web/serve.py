"""Serve the Tricky Treats web app on http://127.0.0.1:8000 (``--port`` to change).

pip install -e '.[web]' && python examples/web/serve.py

Games are stored in ``examples/web/tricky-treats.sqlite3`` and come back after a restart or a
crash; ``--store PATH`` (or the ``TRICKY_TREATS_STORE`` environment variable) puts the file
elsewhere. ``--store postgresql://user@host/db`` (``pip install -e '.[postgresql]'``) keeps
them in PostgreSQL instead, where several server processes can share them: start one
``serve.py`` per process on the same URL. docs/hosting.md tells the rest (a TLS proxy, the
limits, backups).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

import uvicorn

sys.path.insert(0, str(Path(__file__).parent))

from tricky_treats_web import Limits, Lobby, create_app, open_store

DEFAULT_STORE = Path(__file__).parent / "tricky-treats.sqlite3"
MAX_FRAME_BYTES = 16 * 1024
"""The largest WebSocket frame uvicorn reads (its default is 16 MiB): above every message."""


DESCRIPTION = "Serve the Tricky Treats web app: create games, share a link per player, play."
EPILOG = """\
Open http://127.0.0.1:8000/ (or the --port you chose) and create a game.

Friends on other machines:
  By default the server listens on 127.0.0.1 only: no other machine reaches it.
  On a home network, bind the machine's address (--host 192.168.1.20, or
  --host 0.0.0.0 for every address) and set the lobby's "address your friends
  use" to http://192.168.1.20:8000 so that the links point there.
  On the internet, keep --host 127.0.0.1 and put a TLS reverse proxy in front,
  such as Caddy (reverse_proxy 127.0.0.1:8000) or nginx (proxy_pass with the
  Upgrade and Connection headers set, for WebSockets). Players then use
  https:// links and the page talks to the server over wss://. Pass
  --forwarded-allow-ips 127.0.0.1 so that the proxy's X-Forwarded-For names
  each player (uvicorn's --proxy-headers). examples/web/README.md tells more.
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--store",
        default=os.environ.get("TRICKY_TREATS_STORE") or str(DEFAULT_STORE),
        help="the SQLite file of the games, or a postgresql:// URL "
        "(default: $TRICKY_TREATS_STORE or %(default)s)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="addresses of the reverse proxies whose X-Forwarded-For names the client "
        "(comma-separated; default: none, each client is its peer address)",
    )
    defaults = Limits()
    limits = parser.add_argument_group("limits (docs/hosting.md)")
    for field in ("games_per_client", "sockets_per_client", "spectators_per_game", "max_games"):
        limits.add_argument(
            f"--{field.replace('_', '-')}", type=int, default=getattr(defaults, field)
        )
    limits.add_argument(
        "--idle-expiry",
        type=float,
        default=defaults.idle_expiry,
        help="seconds after which an unfinished game nobody moves in is deleted",
    )
    limits.add_argument(
        "--finished-expiry",
        type=float,
        default=None,
        help="seconds after which a finished game is deleted (default: kept)",
    )
    limits.add_argument("--sweep-seconds", type=float, default=defaults.sweep_seconds)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    chosen = Limits(
        max_games=args.max_games,
        games_per_client=args.games_per_client,
        sockets_per_client=args.sockets_per_client,
        spectators_per_game=args.spectators_per_game,
        idle_expiry=args.idle_expiry,
        finished_expiry=args.finished_expiry,
        sweep_seconds=args.sweep_seconds,
    )
    lobby = Lobby(store=open_store(args.store), limits=chosen)
    print(f"Tricky Treats: open http://{args.host}:{args.port}/ (Ctrl+C to stop)", flush=True)
    uvicorn.run(
        create_app(lobby),
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        ws_max_size=MAX_FRAME_BYTES,
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips,
        log_level="warning",
    )


if __name__ == "__main__":
    main()

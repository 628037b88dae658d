"""The ``tricky-treats-web`` command: ``tricky-treats-web serve`` runs the app with uvicorn.

From a clone: ``pip install -e . -e examples/web && tricky-treats-web serve``; once released:
``pip install tricky-treats-web``. It binds 127.0.0.1:8000 (``--host``, ``--port``).

Games are stored in ``tricky-treats.sqlite3`` in the current folder and come back after a
restart or a crash; ``--store PATH`` (or the ``TRICKY_TREATS_STORE`` environment variable)
puts the file elsewhere. ``--store postgresql://user@host/db`` (the ``postgresql`` extra)
keeps them in PostgreSQL instead, where several server processes can share them: start one
``tricky-treats-web serve`` per process on the same URL. Tables get the clock, grace and
takeover bot of ``--clock``, ``--grace`` and ``--takeover-bot`` unless their creator chooses;
``--allow-exec-bot NAME=COMMAND`` lets tables seat a bot program by its name. docs/hosting.md
tells the rest (a TLS proxy, the limits, clocks and takeover, bot programs, backups).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import urllib.parse
from collections.abc import Sequence
from pathlib import Path

import tricky_treats as tt

__all__ = ["DEFAULT_STORE", "MAX_FRAME_BYTES", "console_main", "main", "parser"]

DEFAULT_STORE = "tricky-treats.sqlite3"
"""The SQLite file of the games, in the folder the server is started from."""
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
  each player (uvicorn's --proxy-headers). docs/hosting.md tells more.
"""

_LIMIT_HELP = {
    "games_per_client": "games one client (an IPv4 address or an IPv6 /64) may create per hour "
    "on this process, and unplayed games it may hold over every process",
    "max_unplayed": "unplayed games (fewer than two seats moved), over every process of the "
    "store; past it, a newcomer's game replaces one of the client holding the most, else 503 "
    "busy",
    "sockets_per_client": "sockets one client may hold open on this process",
    "max_sockets": "sockets open on this process; past it, a newcomer's socket replaces the "
    "oldest of the client holding the most, else server-full",
    "spectators_per_game": "spectators of one game on this process (seats never count)",
    "max_games": "games this process holds in memory; games nobody is connected to are "
    "unloaded first (the store keeps them), then games only watched, then one of the client "
    "whose seats hold the most rooms, if it holds two more than the newcomer",
    "exec_bots": "bot programs (--allow-exec-bot) running at once on this process; past it, "
    "the greedy bot plays their moves",
}
_SECONDS_HELP = {
    "unplayed_expiry": "seconds after which a game nobody moved in is deleted",
    "idle_expiry": "seconds after which an unfinished game nobody moves in is deleted",
    "sweep_seconds": "how often expired games are looked for, in seconds",
}


def parser() -> argparse.ArgumentParser:
    """The command line of ``tricky-treats-web``: every option with its help and default."""
    from tricky_treats_web.app import Limits

    top = argparse.ArgumentParser(prog="tricky-treats-web", description=DESCRIPTION)
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser(
        "serve",
        help="run the web server",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: %(default)s)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    serve.add_argument(
        "--store",
        default=os.environ.get("TRICKY_TREATS_STORE") or DEFAULT_STORE,
        help="the SQLite file of the games, or a postgresql:// URL "
        "(default: $TRICKY_TREATS_STORE, else %(default)s in the current folder)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="addresses of the reverse proxies whose X-Forwarded-For names the client "
        "(comma-separated; default: none, each client is its peer address)",
    )
    serve.add_argument(
        "--pyodide",
        type=Path,
        default=None,
        help="the folder of the Pyodide runtime for the offline page (npm's pyodide package; "
        "default: node_modules/pyodide of a clone's examples/web, if there)",
    )
    tables = serve.add_argument_group(
        "clocks and takeover (docs/hosting.md): a table's defaults, its creator may change them"
    )
    tables.add_argument(
        "--clock",
        default="none",
        metavar="SPEC",
        help="the time control: none, move:SECONDS (each turn) or bank:SECONDS+INCREMENT "
        "(for the whole game, and more after each turn) (default: %(default)s)",
    )
    tables.add_argument(
        "--grace",
        type=float,
        default=60.0,
        help="seconds a seat may be away, or out of time, before the takeover bot plays it "
        "(default: %(default)s)",
    )
    tables.add_argument(
        "--takeover-bot",
        default="greedy",
        metavar="BOT",
        help="the bot that plays a seat away or out of time: greedy, search, random, "
        "search:ITERATIONS or an allowed program's NAME (default: %(default)s)",
    )
    programs = serve.add_argument_group(
        "bot programs (docs/bot-protocol.md, docs/hosting.md#bot-programs)"
    )
    programs.add_argument(
        "--allow-exec-bot",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="let tables seat the program COMMAND, speaking the bot protocol, by the name "
        "NAME (players choose the name, never a command); repeat for several "
        "(default: none)",
    )
    programs.add_argument(
        "--exec-bot-seconds",
        type=float,
        default=2.0,
        help="the time a program has for each move; past it the greedy bot plays the move "
        "(default: %(default)s)",
    )
    defaults = Limits()
    limits = serve.add_argument_group("limits (docs/hosting.md)")
    for kind, helps in ((int, _LIMIT_HELP), (float, _SECONDS_HELP)):
        for field, text in helps.items():
            limits.add_argument(
                f"--{field.replace('_', '-')}",
                type=kind,
                default=getattr(defaults, field),
                help=f"{text} (default: %(default)s)",
            )
    limits.add_argument(
        "--finished-expiry",
        type=float,
        default=None,
        help="seconds after which a finished game is deleted (default: kept)",
    )
    return top


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command given by ``argv`` (``sys.argv[1:]`` by default)."""
    args = parser().parse_args(argv)
    import uvicorn

    from tricky_treats.bot_protocol import BotLimits
    from tricky_treats_web.app import Limits, Lobby, TableDefaults, create_app
    from tricky_treats_web.clocks import TimeControl
    from tricky_treats_web.programs import Programs, allowed_program
    from tricky_treats_web.sockets import websocket_protocol
    from tricky_treats_web.store import StoreUnavailableError, open_store

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    fields = (*_LIMIT_HELP, *_SECONDS_HELP, "finished_expiry")
    try:
        chosen = Limits(**{field: getattr(args, field) for field in fields})
        allowed = [allowed_program(spec) for spec in args.allow_exec_bot]
        programs = Programs(
            {program.name: program for program in allowed},
            limits=BotLimits(move_seconds=args.exec_bot_seconds),
            max_running=chosen.exec_bots,
        )
        clock = None if args.clock == "none" else TimeControl.parse(args.clock)
        defaults = TableDefaults(clock, args.grace, args.takeover_bot)
        lobby = Lobby(
            store=open_store(args.store), limits=chosen, defaults=defaults, programs=programs
        )
    except tt.ConfigurationError as exc:
        sys.exit(f"tricky-treats-web serve: {exc}")
    except StoreUnavailableError as exc:
        # One line, not a traceback: what failed, why (the driver's first line), what to do.
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else "no answer"
        sys.exit(
            f"tricky-treats-web serve: cannot reach the store {_without_password(args.store)} "
            f"({reason}); start PostgreSQL, or check --store"
        )
    print(f"Tricky Treats: open http://{args.host}:{args.port}/ (Ctrl+C to stop)", flush=True)
    uvicorn.run(
        create_app(lobby, pyodide=args.pyodide),
        host=args.host,
        port=args.port,
        ws=websocket_protocol(),  # websockets' sans-I/O protocol, a larger window
        ws_max_size=MAX_FRAME_BYTES,
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips,
        log_level="warning",
    )


def _without_password(store: str) -> str:
    """``store`` as it may be shown: a URL's password left out."""
    parts = urllib.parse.urlsplit(store)
    if parts.password is None:
        return store
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}@" if parts.username else ""
    return urllib.parse.urlunsplit(parts._replace(netloc=user + host))


def console_main() -> None:
    """The entry point of the ``tricky-treats-web`` console script."""
    try:
        main()
    except KeyboardInterrupt:  # pragma: no cover - Ctrl+C at the prompt
        sys.exit(130)

"""Helpers for tests that run servers of their own: on 127.0.0.1 only, never elsewhere.

``free_port()`` for a server started in a subprocess, ``post_json()`` for the web example's
JSON API, and ``serving(app)`` for an ASGI app run by uvicorn in a thread of the test.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

__all__ = [
    "HOST",
    "SERVE_COMMAND",
    "free_port",
    "next_message",
    "post_json",
    "receive",
    "serving",
    "skip_presence",
]

HOST = "127.0.0.1"
"""Where every test server listens."""

SERVE_COMMAND = (sys.executable, "-m", "tricky_treats_web", "serve")
"""``tricky-treats-web serve`` as a subprocess, run by the Python of the tests."""


def skip_presence(message: Any) -> bool:
    """Whether ``message`` (text or parsed) is a ``presence`` message: who is at the table.

    The server sends one whenever a seat's player comes, goes, is taken over or is back; a
    test that reads the answers to its moves passes over them.
    """
    if isinstance(message, str | bytes):
        message = json.loads(message)
    return isinstance(message, dict) and message.get("type") == "presence"


def receive(session: Any) -> dict[str, Any]:
    """The next message of a test client's WebSocket that is not a ``presence`` message."""
    while True:
        message: dict[str, Any] = session.receive_json()
        if not skip_presence(message):
            return message


async def next_message(socket: Any, timeout: float = 20) -> dict[str, Any]:
    """The next message of a ``websockets`` client that is not a ``presence`` message."""
    import asyncio

    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        if not skip_presence(message):
            return message


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to ``url`` and answer the JSON object it returns."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "text/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
        return answer


@contextlib.contextmanager
def serving(app: Any, **options: Any) -> Iterator[str]:
    """Run ``app`` with uvicorn (the ``web`` extra) in a thread; yield its base URL.

    The socket is bound before the server starts, so the port is never taken in between;
    ``options`` go to ``uvicorn.Config``.
    """
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", lifespan="off", **options)
    server = uvicorn.Server(config)
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]})
        thread.start()
        try:
            deadline = time.monotonic() + 20
            while not server.started:
                assert thread.is_alive(), "the server stopped as it started"
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
            yield f"http://{HOST}:{sock.getsockname()[1]}"
        finally:
            server.should_exit = True
            thread.join(20)

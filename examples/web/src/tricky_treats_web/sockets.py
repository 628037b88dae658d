"""How the server's WebSockets compress: a window that holds the last update.

Every update a seat gets holds its whole player record (about 11 to 16 KB of JSON), and
consecutive updates differ in little. uvicorn compresses each message (permessage-deflate)
within a 4 KB window, in which the previous update no longer is: measured on the updates of
random 2- and 4-player games, that costs 200 to 265 us of CPU per message for 1.8 to 1.9 KB.
A 32 KB window holds the previous update, and the same compression level then costs 105 to
130 us per message for 0.3 KB (``benchmarks/bench_web_load.py`` shows the server's CPU per
move). The price is memory: about 144 KB of compressor state per open socket instead of
32 KB (590 MB for ``Limits.max_sockets``, 4,096, all open).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SERVER_WINDOW_BITS", "websocket_protocol"]

SERVER_WINDOW_BITS = 15
"""The window of the server's compressor, as a power of 2: 32 KB."""


def websocket_protocol() -> type[Any]:
    """The WebSocket protocol for uvicorn: its sans-I/O one, with a larger window.

    The server compresses with a window of ``SERVER_WINDOW_BITS``; the clients' messages
    (moves of a few dozen bytes) keep uvicorn's small window.
    """
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    from websockets.server import ServerProtocol

    class Protocol(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                deflate = ServerPerMessageDeflateFactory(
                    server_max_window_bits=SERVER_WINDOW_BITS,
                    client_max_window_bits=12,
                    compress_settings={"memLevel": 5},
                )
                self.conn = ServerProtocol(
                    extensions=[deflate],
                    max_size=self.config.ws_max_size,
                    logger=self.conn.logger,
                )

    return Protocol

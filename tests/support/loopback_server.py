"""A stand-in application served on loopback by a ``BaseHTTPRequestHandler`` class, in a thread."""

from __future__ import annotations

import ssl
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator


@contextmanager
def on_loopback(handler: type[BaseHTTPRequestHandler], port: int = 0,
                tls: ssl.SSLContext | None = None) -> Iterator[str]:
    """Serve ``handler`` on ``port`` (0: a free one); yields the base URL. ``tls``: a server context
    (its certificate loaded), so the application answers only HTTPS."""
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()

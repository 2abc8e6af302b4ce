"""The request log of ``capenv serve --log``: one line per request, on stderr.

Each line is ``METHOD TARGET STATUS TOOL MS``: an HTTP request to the application's paths or
the data plane (``GET /posts/1 200 get_posts_by_post_id 1.4 ms``; the tool is ``-`` when no
tool answers the path), and each MCP tool call on either transport
(``MCP tools/call ok post_posts 3.0 ms``, or ``error`` for a tool error). The MCP transport's
own exchanges (initialize, tools/list, the event stream) are not requests to the environment
and are left out. stdout is never used: over stdio it carries only MCP messages.

A request target may hold any byte a client sent; control characters are written escaped
(``\\x0a``), so one request is always one line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Awaitable, Callable
from typing import IO

from starlette.types import Message, Receive, Scope, Send

from capenv.serving.transport.http_exchange import raw_target

NO_TOOL = "-"


def _printable(text: str) -> str:
    return "".join(c if 0x20 < ord(c) != 0x7F else f"\\x{ord(c):02x}" for c in text)


class RequestLog:
    """Writes one line per request to ``stream`` (stderr by default)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self._stream = stream

    def line(self, method: str, target: str, status: int | str, tool: str | None, seconds: float) -> None:
        stream = self._stream or sys.stderr
        text = f"{_printable(method)} {_printable(target)} {status} {_printable(tool or NO_TOOL)} {seconds * 1000:.1f} ms"
        try:
            stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr never fails a request
            pass

    def tool_call(self, tool: str, is_error: bool, seconds: float) -> None:
        self.line("MCP", "tools/call", "error" if is_error else "ok", tool, seconds)

    async def http(self, scope: Scope, receive: Receive, send: Send, tool: str | None,
                   handle: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        """Run ``handle`` on the request and log it once it is answered (or abandoned: status 0)."""
        path, query = raw_target(scope)
        status = 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        started = time.perf_counter()
        try:
            await handle(scope, receive, sending)
        finally:
            self.line(scope["method"], path + (f"?{query}" if query else ""), status, tool,
                      time.perf_counter() - started)

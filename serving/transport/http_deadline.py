"""A deadline for receiving each HTTP request, which uvicorn does not have.

uvicorn closes a kept-alive connection that stays idle after an answer (``timeout_keep_alive``),
but nothing closes a connection that never sends a byte, or sends its headers (or its body) a
byte at a time: its keep-alive timer starts only after an answer and stops at the first byte
received, and ``h11_max_incomplete_event_size`` bounds the size of the headers, not their time.
So every such connection would be held for ever (slowloris).

``DeadlineH11Protocol`` is uvicorn's own h11 protocol with one timer more: armed when a connection
opens and when the first byte of a next request arrives, disarmed once the request (headers and
body) is whole; when it fires the connection is closed (a request half read reaches the app as a
disconnect). Answers, however long (an MCP event stream), are never timed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_DEADLINE_SECONDS = 10.0
"""How long a client has to send a whole request, headers and body, from its first byte (or from
the connection's opening, for its first request)."""
KEEP_ALIVE_SECONDS = 5
"""How long a connection may stay idle between requests (uvicorn's ``timeout_keep_alive``)."""


def deadline_protocol(seconds: float) -> type[H11Protocol]:
    """The protocol class for uvicorn's ``Config(http=…)`` with a ``seconds`` request deadline."""

    class Protocol(DeadlineH11Protocol):
        request_deadline = seconds

    return Protocol


class DeadlineH11Protocol(H11Protocol):
    request_deadline: float = REQUEST_DEADLINE_SECONDS
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._receiving():
            if self._deadline is None:
                self._arm()
        else:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # the keep-alive timer watches the idle time until the next request's first byte

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _receiving(self) -> bool:
        """True while a request is incomplete: its headers not yet whole, or its body still coming."""
        cycle = self.cycle
        return cycle is None or cycle.response_complete or cycle.more_body

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_deadline, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self._receiving() or self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()

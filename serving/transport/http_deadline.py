"""A deadline for receiving each HTTP request, which uvicorn does not have.

uvicorn closes a kept-alive connection that stays idle after an answer (``timeout_keep_alive``),
but nothing closes a connection that never sends a byte, or sends its headers (or its body) a
byte at a time: its keep-alive timer starts only after an answer and stops at the first byte
received, and ``h11_max_incomplete_event_size`` bounds the size of the headers, not their time.
So every such connection would be held for ever (slowloris).

``DeadlineH11Protocol`` is uvicorn's own h11 protocol with one timer more: armed when a connection
opens and when the first byte of a next request arrives, disarmed once the request (headers and
body) is whole; when it fires the connection is closed (a request half read reaches the app as a
disconnect). The deadline times the client, never the server: while the server does not read
(uvicorn stops reading a body past its 64 KiB buffer until the app asks for more, and an app may
first wait its turn for the runtime) the clock stands still, and runs on with what was left once
reading resumes. Answers, however long (an MCP event stream), are never timed.

The deadline and the keep-alive are the budgets ``request_deadline_seconds`` and
``keep_alive_seconds`` (``rules/budgets.yaml``, ``docs/serving-limits.md``); ``run_http`` passes them.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.h11_impl import H11Protocol

def deadline_protocol(seconds: float) -> type[H11Protocol]:
    """The protocol class for uvicorn's ``Config(http=…)`` with a ``seconds`` request deadline."""

    class Protocol(DeadlineH11Protocol):
        request_deadline = seconds

    return Protocol


class DeadlineH11Protocol(H11Protocol):
    request_deadline: float
    """Set by ``deadline_protocol``."""
    _deadline: asyncio.TimerHandle | None = None
    _held: float | None = None
    """What was left of the deadline when the server stopped reading (None: not held)."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.flow = _TimedFlowControl(transport, self)  # before any request: its cycle shares it
        self._arm(self.request_deadline)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._receiving():
            if self._deadline is None and self._held is None:
                self._arm(self.request_deadline)
                if self.flow.read_paused:  # this very chunk filled the buffer the app has not read yet
                    self.reading_paused()
        else:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # the keep-alive timer watches the idle time until the next request's first byte

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def reading_paused(self) -> None:
        """The server stopped reading: the clock stands still, keeping what is left."""
        if self._deadline is not None:
            self._held = max(0.0, self._deadline.when() - self.loop.time())
            self._deadline.cancel()
            self._deadline = None

    def reading_resumed(self) -> None:
        """The server reads again: the clock runs on with what was left."""
        if self._held is not None:
            self._arm(self._held)

    def _receiving(self) -> bool:
        """True while a request is incomplete: its headers not yet whole, or its body still coming."""
        cycle = self.cycle
        return cycle is None or cycle.response_complete or cycle.more_body

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        self._held = None
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


class _TimedFlowControl(FlowControl):
    """uvicorn's flow control, telling the protocol when the server stops and resumes reading."""

    def __init__(self, transport: Any, protocol: DeadlineH11Protocol) -> None:
        super().__init__(transport)
        self._protocol = protocol

    def pause_reading(self) -> None:
        if not self.read_paused:
            self._protocol.reading_paused()
        super().pause_reading()

    def resume_reading(self) -> None:
        paused = self.read_paused
        super().resume_reading()
        if paused:
            self._protocol.reading_resumed()

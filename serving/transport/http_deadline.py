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

Two more things uvicorn does that an agent should not meet, the same protocol does otherwise:

* Connections: uvicorn bounds none per listener (its ``limit_concurrency`` counts every listener's
  together, the grader's with the agent's, admits one fewer than it says, and answers a plain-text
  503). Each listener (a bound socket: the agent's, the grader's own) keeps at most the budget
  ``listener_connections`` open at once; a connection opened past it is answered, once its request
  head arrives, with a 503 whose JSON body names the budget, and closed, without reaching the app.
  A connection upgraded to a WebSocket (OpenEnv's session on a fleet) keeps its place until it closes.
* A request h11 cannot take (a head past ``h11_max_incomplete_event_size`` still unended, or one it
  cannot parse) is answered before the app is reached; uvicorn's answer is a plain-text 400
  "Invalid HTTP request received."; here a 431 (the head too large) or a 400 with a JSON body
  saying which.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from typing import Any

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol

from capenv.serving.transport.h11_headers import send_checked_once

HEAD_END = re.compile(rb"\n\r?\n")
"""The blank line that ends a request head, as h11 finds it."""


def deadline_protocol(seconds: float, connections: int) -> type[H11Protocol]:
    """The protocol class for uvicorn's ``Config(http=…)`` with a ``seconds`` request deadline and
    at most ``connections`` open connections per listener (one class per server run: it counts them)."""

    class Protocol(DeadlineH11Protocol):
        request_deadline = seconds
        listener_connections = connections
        admitted: dict[Any, int] = {}

    return Protocol


def connections_full(limit: int, keep_alive: float) -> str:
    return (f"this listener already has {limit} connections open, the most it keeps at once (budget "
            f"listener_connections, rules/budgets.yaml): send your requests over a connection you hold "
            f"(keep-alive), or close one you no longer use, then connect again (a connection idle "
            f"{keep_alive:g} s is closed by the server)")


def _json_answer(status: int, error: str, message: str, **more: Any) -> tuple[list[tuple[bytes, bytes]], bytes]:
    body = json.dumps({"error": error, "message": message, **more}).encode()
    return [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")], body


class DeadlineH11Protocol(H11Protocol):
    request_deadline: float
    """Set by ``deadline_protocol``."""
    listener_connections: int
    """Set by ``deadline_protocol``: open connections one listener keeps at most."""
    admitted: dict[Any, int]
    """Set by ``deadline_protocol``: per listener (its socket's address), the connections open on it
    that were admitted."""
    _deadline: asyncio.TimerHandle | None = None
    _held: float | None = None
    """What was left of the deadline when the server stopped reading (None: not held)."""
    _listener: Any = None
    """The listener this connection holds a place of (None: none, or given back)."""
    _upgraded = False
    """Handed to a WebSocket's protocol: nothing more is read here, nor timed."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.flow = _TimedFlowControl(transport, self)  # before any request: its cycle shares it
        self._arm(self.request_deadline)
        listener = transport.get_extra_info("sockname")
        open_here = self.admitted.get(listener, 0)
        if open_here >= self.listener_connections:
            self.app = self._refusing_app()  # answered, once its head arrives, by the refusal alone
        else:
            self.admitted[listener] = open_here + 1
            self._listener = listener

    def _give_back(self) -> None:
        if self._listener is not None:
            self.admitted[self._listener] -= 1
            self._listener = None

    def _refusing_app(self) -> Any:
        headers, body = _json_answer(503, "resource_constraint",
                                     connections_full(self.listener_connections, self.timeout_keep_alive),
                                     limit_connections=self.listener_connections)

        async def refuse(scope: Scope, receive: Receive, send: Send) -> None:
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": body, "more_body": False})

        return refuse

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        if self._listener is None:  # a connection past the budget: refused as any other
            headers, body = _json_answer(503, "resource_constraint",
                                         connections_full(self.listener_connections, self.timeout_keep_alive),
                                         limit_connections=self.listener_connections)
            self._send_whole(503, headers, body)
            return
        super().handle_websocket_upgrade(event)
        self._upgraded = True
        self._disarm()  # the request is whole: the WebSocket's protocol times what follows
        upgraded = self.transport.get_protocol()  # the WebSocket's protocol: it keeps this place
        closed, self_give_back = upgraded.connection_lost, self._give_back

        def connection_lost(exc: Exception | None) -> None:
            self_give_back()
            closed(exc)

        upgraded.connection_lost = connection_lost

    def send_400_response(self, msg: str) -> None:
        """h11 could not take the request (uvicorn calls this, the app never sees it): a 431 when
        its head is past h11's limit and still unended, else a 400; a JSON body says which."""
        limit = self.config.h11_max_incomplete_event_size or DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
        received = self.conn.trailing_data[0]
        in_head = self.cycle is None or self.cycle.response_complete
        if in_head and len(received) > limit and not HEAD_END.search(received):
            status, message = 431, (f"the request's head (its request line and headers) is over {limit} bytes and "
                                    f"not ended, the most this server holds of one (budget request_head_bytes, "
                                    f"rules/budgets.yaml): send fewer or shorter headers, or a shorter path and query")
        else:
            status, message = 400, ("the request is not HTTP/1.1 this server can parse (its request line, a header, "
                                    "or its body's framing is malformed); the connection is closed")
        headers, body = _json_answer(status, "invalid_request", message)
        self._send_whole(status, headers, body)

    def _send_whole(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        """Answer ``status`` with ``body`` and close, as uvicorn's own ``send_400_response`` does."""
        for event in (h11.Response(status_code=status, headers=headers, reason=STATUS_PHRASES[status]),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle and self.cycle is not None:  # a request's cycle made: its answer's
            # headers checked by h11 once per distinct header (``h11_headers``)
            self.cycle.send = functools.partial(send_checked_once, self.cycle)  # type: ignore[method-assign]

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
        self._give_back()
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
        if self._upgraded:
            return False
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

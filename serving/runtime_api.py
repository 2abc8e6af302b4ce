"""The interface between the serving runtime and its transports (DESIGN.md §7).

A *runtime* decides what every call answers (from state or from replay); a *transport*
(MCP over stdio, MCP over streamable HTTP, the application's own HTTP paths, the data
plane) only moves requests in and answers out. Transports depend on this module alone,
so they can be built and tested against any object that satisfies ``Runtime``.

Threading contract (what the transports promise a runtime): every call into a runtime
runs on one dedicated worker thread, one call at a time, never concurrently. A runtime
therefore needs no locking of its own, but it must not bind resources to the thread
that constructed it (open SQLite with ``check_same_thread=False``, or open lazily). A runtime
whose calls never block (``nonblocking_calls``) may also have its short calls run on the
transport's event loop, still one at a time: never while a call runs on the worker thread.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from capenv.serving.frozen_values import direct_init

if TYPE_CHECKING:
    from capenv.interpreter.bundle.models import Budgets

DEFAULT_MCP_PATH = "/mcp"
"""Where MCP over streamable HTTP is served unless the application itself uses that path."""

DATA_PLANE_PREFIX = "/_capenv/data/"
"""The reserved prefix of the data plane routes; never forwarded to ``Runtime.http``."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One MCP tool as listed to clients; ``input_schema`` is sent verbatim as ``inputSchema``,
    ``output_schema`` as ``outputSchema`` and ``annotations`` (camelCase hints) as given."""

    name: str
    description: str
    input_schema: dict[str, Any]
    title: str | None = None
    annotations: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None


@direct_init
@dataclass(frozen=True, slots=True)
class ToolAnswer:
    """What one tool call answers.

    ``structured`` is sent as the result's ``structuredContent``; for a served call it is
    ``{status, content_type, body, state | replay}``. The text content is ``text`` when
    given, else ``structured`` written as JSON (exact numbers kept, see
    ``capenv.interpreter.bundle.jsonvalue``). A refusal is ``is_error=True`` and its
    message names what would be accepted (use ``ToolAnswer.refusal``).
    """

    structured: dict[str, Any]
    is_error: bool = False
    text: str | None = None

    @classmethod
    def refusal(cls, message: str, **details: Any) -> ToolAnswer:
        """A tool error: ``{"error": "refused", "message": message, **details}``."""
        return cls(structured={"error": "refused", "message": message, **details}, is_error=True)


@direct_init
@dataclass(frozen=True, slots=True)
class HttpRequest:
    """One request to the application's own paths, as it was sent.

    ``path`` is the raw request path without the query (percent-escapes kept as sent);
    ``query`` is the raw query split on ``&`` and the first ``=`` (nothing decoded, empty
    pieces skipped; a name without ``=`` has value ``""``); ``query_string`` is the raw
    query text, for the rare case where the split loses something. Header names are
    lower case (as ASGI servers deliver them), in the order sent. Non-ASCII bytes in the
    path or query (clients should not send them) are percent-encoded.
    """

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: tuple[tuple[str, str], ...]
    body: bytes
    query_string: str = ""
    origin: str | None = None
    """``scheme://host[:port]`` as the client reached the application (its Host header), followed by
    the path it is mounted under (a fleet's ``/i/{id}``); None when not known. An answer linking to
    the application (a page link) names it, as the application names the origin it was reached at."""

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or None."""
        wanted = name.lower()
        for key, value in self.headers:  # a loop, not next() over a generator: asked several times a call
            if key == wanted:
                return value
        return None

    def header_values(self, name: str) -> tuple[str, ...]:
        """Every value of header ``name`` (any case) the request sent, in order."""
        wanted = name.lower()
        return tuple(value for key, value in self.headers if key == wanted)


@direct_init
@dataclass(frozen=True, slots=True)
class HttpAnswer:
    """The answer to an ``HttpRequest``.

    The transport owns message framing: it drops ``content-length``,
    ``transfer-encoding``, ``connection`` and ``keep-alive`` from ``headers`` and
    sends the length of ``body``, so recorded headers can be passed through as they are.
    """

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


class DataPlaneRefusal(Exception):
    """``Runtime.data_add`` refuses a document.

    ``kind`` is ``"resource_constraint"`` (too large, nested too deep: HTTP 413) or
    ``"invalid"`` (not a state document, inexact numbers, ``__proto__``: HTTP 400);
    ``message`` is one line saying what is wrong.
    """

    RESOURCE_CONSTRAINT = "resource_constraint"
    INVALID = "invalid"

    def __init__(self, message: str, kind: str = INVALID) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


class Runtime(Protocol):
    """What the transports need from the serving runtime.

    Subclass it explicitly to inherit the default ``reserved_mcp_path``.
    """

    def tools(self) -> list[ToolSpec]:
        """The tools to list, in order; the same for the runtime's life (transports list them once)."""
        ...

    def call_tool(self, name: str, arguments: dict[str, Any], *, idempotency_key: str | None = None) -> ToolAnswer:
        """Answer one tool call. Bad names or arguments are ``is_error`` answers, never exceptions."""
        ...

    def call_tool_on_loop(self, name: str, arguments: dict[str, Any], *,
                          idempotency_key: str | None = None) -> ToolAnswer | None:
        """``call_tool``'s answer when it can be given without waiting on anything but this
        process's CPU (as ``http_on_loop``), else None: the transport then sends the call to
        ``call_tool`` on the worker thread. The default: None."""
        return None

    def http(self, request: HttpRequest) -> HttpAnswer:
        """Answer one request to the application's own paths."""
        ...

    def http_on_loop(self, request: HttpRequest) -> HttpAnswer | None:
        """``http``'s answer when it can be given without waiting on anything but this process's
        CPU (a transport's event loop calls it while the worker thread is idle), else None: the
        transport then sends the request to ``http`` on the worker thread. The default: None."""
        return None

    def data_get(self) -> bytes:
        """The whole state as one JSON document that ``data_add`` loads back unchanged."""
        ...

    def data_reset(self) -> None:
        """Back to the extracted initial state (clock, counter and sequences restarted)."""
        ...

    def data_add(self, document: bytes) -> None:
        """Install a state document, or raise ``DataPlaneRefusal``."""
        ...

    def prepare_add(self, document: bytes) -> Callable[[], None]:
        """data/add in two steps: check and build the new state now (or raise
        ``DataPlaneRefusal``), on any thread and without blocking other calls; the function
        returned installs it whole, on the thread that runs the runtime's calls. Other calls see
        the state before or after, never between. By default all the work is in the second step.
        The function may carry ``aside``, a step between the two that commits the new state on any
        thread without blocking other calls (which see the state before it until it has landed);
        when it is there, run it before the install."""
        return functools.partial(self.data_add, document)

    def prepare_reset(self) -> Callable[[], None]:
        """data/reset in the steps of ``prepare_add`` (by default all in the last)."""
        return self.data_reset

    def prepare_http(self, request: HttpRequest) -> Callable[[], HttpAnswer] | None:
        """A request to a grader path (``grader_paths``) in two steps, as ``prepare_add``: what
        reads nothing the runtime holds (a data/add of another protocol: its parse, checks and new
        state) done now, on any thread; the function returned answers on the runtime's thread.
        None: the request is ``http``'s whole, on the runtime's thread (the default)."""
        return None

    def reserved_mcp_path(self) -> str:
        """Where MCP over streamable HTTP is served; another path when the application uses ``/mcp``."""
        return DEFAULT_MCP_PATH

    def tool_for(self, method: str, path: str) -> str | None:
        """The tool an HTTP request to the application's paths names, for the request log (None:
        no tool, or the runtime does not say)."""
        return None

    def openapi(self) -> bytes | None:
        """The OpenAPI description of the HTTP surface (JSON), or None when there is none."""
        return None

    def nonblocking_calls(self) -> bool:
        """True when no call waits on anything but this process's CPU (the state in its own
        memory: no store I/O, no other process to wait for). The transports then answer a tool
        call or a request to the application's paths on their event loop while the worker thread
        is idle, sparing the hop to it and back. False (the default) keeps every call there."""
        return False

    def budgets(self) -> Budgets | None:
        """The budgets of the bundle served (``rules/budgets.yaml``), by which the transports bound
        what a client may make them hold (sessions, request bodies). None: a runtime of no bundle,
        bounded by the budgets' defaults."""
        return None

    def grader_paths(self) -> tuple[str, ...]:
        """Paths of ``http`` that belong to the grader (a data plane of another protocol): served
        only where ``/_capenv/data/…`` is, never to the agent."""
        return ()

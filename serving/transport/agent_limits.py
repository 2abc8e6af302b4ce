"""What one agent may make an environment hold over HTTP (``rules/budgets.yaml``, carried by the
bundle; each fleet instance is one environment; ``docs/serving-limits.md``):

* MCP sessions (``mcp_sessions``, ``mcp_session_idle_seconds``): a session of the MCP SDK's
  streamable HTTP transport holds ~38 KB until its client ends it (a DELETE) or it idles out; the
  SDK's own limit is 10,000;
* request bodies (``agent_request_bytes``, ``mcp_envelope_bytes``): the application's paths and
  MCP; the grader's data plane keeps its own intake;
* connections (``request_deadline_seconds``, ``keep_alive_seconds``, ``listener_connections``,
  ``request_head_bytes``): how long one may take to send a request, stay idle between two, how many
  one listener keeps open, and how large a request's head may grow (``http_deadline``);
* the grader's intake (``max_state_bytes`` + ``data_envelope_bytes``: a data plane request) and a
  fleet's instance create (``fleet_create_bytes``);
* what of a body refused as too large is still read (``drain_bytes``), and how long a stopping
  server waits for its connections (``shutdown_grace_seconds``).

The SDK refuses a session past the budget with a bare 503 and an oversized MCP body with a plain
text 413; ``explained_refusal`` words them as JSON-RPC errors that say why and what to do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from starlette.types import Message, Scope, Send

from capenv.interpreter.bundle.models import Budgets
from capenv.serving.runtime_api import Runtime

SESSION_HEADER = b"mcp-session-id"
SERVER_ERROR = -32000
"""JSON-RPC's implementation-defined server error: the request was well formed, the server refuses it."""


@dataclass(frozen=True)
class AgentLimits:
    sessions: int
    """MCP sessions open at once."""
    session_idle_seconds: float
    """A session with no request in flight this long is closed (its id then answers 404; 0: never)."""
    request_bytes: int
    """A request body on the application's paths."""
    envelope_bytes: int
    """What an MCP POST may carry beyond ``request_bytes``."""
    request_deadline_seconds: float
    """How long a client has to send a whole request (``http_deadline``)."""
    keep_alive_seconds: float
    """How long a connection may stay idle between requests."""
    listener_connections: int
    """Connections one listener keeps open at once (``http_deadline``)."""
    request_head_bytes: int
    """A request head held while not ended (h11's ``max_incomplete_event_size``; ``http_deadline``)."""
    data_request_bytes: int
    """A data plane request body (a state document and its envelope); a staged file as well."""
    fleet_create_bytes: int
    """The body of a fleet's instance create."""
    drain_bytes: int
    """Of a body refused as too large, how much more is read and dropped (``read_body``)."""
    shutdown_grace_seconds: float
    """How long a stopping server waits for its open connections."""

    @classmethod
    def of(cls, runtime: Runtime | None) -> AgentLimits:
        """The budgets of the bundle ``runtime`` serves; the budgets' defaults for a runtime of none."""
        budgets = None if runtime is None else runtime.budgets()
        if budgets is None:
            budgets = Budgets.model_construct()  # a bare model: the fields' defaults
        return cls(budgets.mcp_sessions, budgets.mcp_session_idle_seconds, budgets.agent_request_bytes,
                   budgets.mcp_envelope_bytes, budgets.request_deadline_seconds, budgets.keep_alive_seconds,
                   budgets.listener_connections, budgets.request_head_bytes,
                   budgets.max_state_bytes + budgets.data_envelope_bytes,
                   budgets.fleet_create_bytes, budgets.drain_bytes, budgets.shutdown_grace_seconds)

    def idle_timeout(self) -> float | None:
        """The SDK's ``session_idle_timeout`` (None: never)."""
        return self.session_idle_seconds or None

    def mcp_request_bytes(self) -> int:
        return self.request_bytes + self.envelope_bytes

    def sessions_full(self, mcp_path: str) -> str:
        idle = (f" or let it idle out ({self.session_idle_seconds:g} s without a request closes it)"
                if self.session_idle_seconds else "")
        return (f"this environment already has {self.sessions} MCP sessions open, the most it keeps (budget "
                f"mcp_sessions, rules/budgets.yaml): close a session you no longer use (DELETE {mcp_path} with its "
                f"Mcp-Session-Id header; an MCP client sends it when it exits){idle}, then open a new one")

    def body_too_large(self, limit: int, where: str, budget: str = "agent_request_bytes") -> str:
        return (f"the request body is larger than {limit} bytes, the most this environment takes {where} "
                f"(budget {budget}, rules/budgets.yaml): send a smaller one")


def opens_a_session(scope: Scope) -> bool:
    """A POST without a session id: it opens a session (an initialize) or is refused."""
    return scope["method"] == "POST" and not any(name == SESSION_HEADER for name, _ in scope["headers"])


def explained_refusal(send: Send, status: int, message: str) -> Send:
    """``send`` with the SDK's own answer of ``status`` replaced by a JSON-RPC error saying ``message``."""
    refused = False

    async def sending(event: Message) -> None:
        nonlocal refused
        if refused:
            return  # the SDK's own body of its refusal
        if event["type"] == "http.response.start" and event["status"] == status:
            refused = True
            body = json.dumps({"jsonrpc": "2.0", "id": None,
                               "error": {"code": SERVER_ERROR, "message": message}}).encode()
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body, "more_body": False})
            return
        await send(event)

    return sending

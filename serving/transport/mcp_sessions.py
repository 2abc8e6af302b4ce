"""How many MCP sessions one environment keeps open, and for how long (``rules/budgets.yaml``:
``mcp_sessions``, ``mcp_session_idle_seconds``; each fleet instance is one environment).

A session of the MCP SDK's streamable HTTP transport holds ~38 KB until its client ends it (a
DELETE) or it idles out; the SDK's own limit is 10,000, so an agent opening sessions without
closing them could make the grader's process hold hundreds of megabytes. The SDK refuses a session
past the budget with a bare 503; ``explained_refusal`` words that refusal so the client knows why
and what to do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from starlette.types import Message, Scope, Send

from capenv.interpreter.bundle.models import Budgets
from capenv.serving.runtime_api import Runtime

SESSION_HEADER = b"mcp-session-id"
SERVER_ERROR = -32000
"""JSON-RPC's implementation-defined server error: the request was well formed, the server full."""


@dataclass(frozen=True)
class SessionBudget:
    most: int
    """Sessions open at once."""
    idle_seconds: float
    """A session with no request in flight for this long is closed (its id then answers 404)."""

    @classmethod
    def of(cls, runtime: Runtime) -> SessionBudget:
        """The budget of the bundle ``runtime`` serves; the budgets' defaults for a runtime of none."""
        budgets = runtime.budgets()
        if budgets is None:
            fields = Budgets.model_fields
            return cls(fields["mcp_sessions"].default, fields["mcp_session_idle_seconds"].default)
        return cls(budgets.mcp_sessions, budgets.mcp_session_idle_seconds)

    def idle_timeout(self) -> float | None:
        """The SDK's ``session_idle_timeout`` (None: never)."""
        return self.idle_seconds or None

    def refusal_message(self, mcp_path: str) -> str:
        return (f"this environment already has {self.most} MCP sessions open, the most it keeps (budget mcp_sessions, "
                f"rules/budgets.yaml): close a session you no longer use (DELETE {mcp_path} with its Mcp-Session-Id "
                f"header; an MCP client sends it when it exits){self._idle_text()}, then open a new one")

    def _idle_text(self) -> str:
        return f" or let it idle out ({self.idle_seconds:g} s without a request closes it)" if self.idle_seconds else ""


def opens_a_session(scope: Scope) -> bool:
    """A POST without a session id: it opens a session (an initialize) or is refused."""
    return scope["method"] == "POST" and not any(name == SESSION_HEADER for name, _ in scope["headers"])


def explained_refusal(send: Send, message: str) -> Send:
    """``send`` with the SDK's bare 503 for a session past the budget answered as a JSON-RPC error
    that says why and what to do."""
    refused = False

    async def sending(event: Message) -> None:
        nonlocal refused
        if refused:
            return  # the SDK's own body of its refusal
        if event["type"] == "http.response.start" and event["status"] == 503:
            refused = True
            body = json.dumps({"jsonrpc": "2.0", "id": None,
                               "error": {"code": SERVER_ERROR, "message": message}}).encode()
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body, "more_body": False})
            return
        await send(event)

    return sending

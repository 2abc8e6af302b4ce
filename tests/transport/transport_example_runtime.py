"""A tiny in-memory runtime for transport tests: no store, no manifest, just echoes.

Tools: ``echo`` (answers its message and the idempotency key it was given, as a
served read would), ``explode`` (raises, standing in for a runtime bug). The HTTP
surface echoes the request it received; ``/boom`` raises. The data plane keeps one
JSON object; ``data_add`` refuses non-objects (invalid) and documents past
``max_document_bytes`` (resource_constraint).
"""

from __future__ import annotations

import json
from typing import Any

from capenv.serving.runtime_api import (
    DataPlaneRefusal,
    HttpAnswer,
    HttpRequest,
    Runtime,
    ToolAnswer,
    ToolSpec,
)

SECRET = "the-secret-detail-of-a-runtime-bug"

ECHO_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {"type": "string", "description": "what to echo"},
        "query": {"type": "object", "properties": {"limit": {"type": "string", "default": "10"}}},
    },
    "required": ["message"],
    "additionalProperties": False,
}
EXPLODE_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
INITIAL_STATE: dict[str, Any] = {"posts": [{"id": 1, "title": "hello"}]}


class ExampleRuntime(Runtime):
    def __init__(self, *, mcp_path: str = "/mcp", max_document_bytes: int = 64 * 1024) -> None:
        self._mcp_path = mcp_path
        self._max_document_bytes = max_document_bytes
        self.state: dict[str, Any] = json.loads(json.dumps(INITIAL_STATE))
        self.calls: list[tuple[str, dict[str, Any], str | None]] = []
        self.http_requests: list[HttpRequest] = []

    def tools(self) -> list[ToolSpec]:
        return [
            ToolSpec("echo", "Echo a message back.", ECHO_SCHEMA),
            ToolSpec("explode", "Fail inside the runtime.", EXPLODE_SCHEMA),
        ]

    def call_tool(self, name: str, arguments: dict[str, Any], *, idempotency_key: str | None = None) -> ToolAnswer:
        self.calls.append((name, arguments, idempotency_key))
        if name == "explode":
            raise RuntimeError(SECRET)
        if name != "echo":
            return ToolAnswer.refusal(f"no tool {name!r}; tools: echo, explode")
        message = arguments.get("message")
        if not isinstance(message, str):
            return ToolAnswer.refusal("echo accepts: message (a string, required), query.limit (a string)")
        body = {"echo": message, "idempotency_key": idempotency_key, "ratio": 0.5}
        return ToolAnswer({"status": 200, "content_type": "application/json", "body": body, "state": {"posts": 1}})

    def http(self, request: HttpRequest) -> HttpAnswer:
        self.http_requests.append(request)
        if request.path == "/boom":
            raise RuntimeError(SECRET)
        echoed = {
            "method": request.method,
            "path": request.path,
            "query": [list(pair) for pair in request.query],
            "query_string": request.query_string,
            "headers": [list(pair) for pair in request.headers],
            "body": request.body.decode("utf-8", "replace"),
        }
        # Recorded headers may carry stale framing; the transport must replace it.
        headers = (("content-type", "application/json"), ("content-length", "999"), ("x-app", "example"))
        return HttpAnswer(201 if request.method == "POST" else 200, headers, json.dumps(echoed).encode())

    def data_get(self) -> bytes:
        return json.dumps(self.state).encode()

    def data_reset(self) -> None:
        self.state = json.loads(json.dumps(INITIAL_STATE))

    def data_add(self, document: bytes) -> None:
        if len(document) > self._max_document_bytes:
            raise DataPlaneRefusal(
                f"the document is {len(document)} bytes; at most {self._max_document_bytes} are accepted",
                DataPlaneRefusal.RESOURCE_CONSTRAINT,
            )
        try:
            value = json.loads(document)
        except ValueError as exc:
            raise DataPlaneRefusal(f"not JSON: {exc}", DataPlaneRefusal.INVALID) from None
        if not isinstance(value, dict):
            raise DataPlaneRefusal("a state document is a JSON object", DataPlaneRefusal.INVALID)
        if value.get("explode"):
            raise RuntimeError(SECRET)
        self.state = value

    def reserved_mcp_path(self) -> str:
        return self._mcp_path

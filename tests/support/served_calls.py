"""One call to a runtime served by ``http_in_thread``: a JSON request over its HTTP surface, or a
tool call over its MCP endpoint, for tests that compare what each surface answers."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from mcp import Client

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

from .http_thread import http_in_thread

TIMEOUT_SECONDS = 30


@contextmanager
def runtime_over_http(bundle) -> Iterator[tuple[EnvironmentRuntime, Any]]:
    """A fresh runtime of ``bundle`` and its ``http_in_thread`` serving; the runtime is closed on exit."""
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            yield runtime, serving
    finally:
        runtime.close()


@contextmanager
def served_over_http(bundle) -> Iterator[Any]:
    """The ``http_in_thread`` serving of a fresh runtime of ``bundle``, closed on exit."""
    with runtime_over_http(bundle) as (_, serving):
        yield serving


def state_of(serving) -> bytes:
    """data/get of the runtime behind ``serving``, through its data plane."""
    return data_client.data_get(serving.base_url, token=serving.data_token)


def send_json(serving, path: str, body: Any, method: str = "POST") -> tuple[int, Any]:
    """``method path`` with ``body`` as JSON: the status and the decoded answer (None when empty)."""
    return send(serving, method, path, body)


def sent_beside_the_state(bundle, method: str, path: str, body: Any) -> tuple[int, Any, bytes, bytes]:
    """``method path`` with ``body`` as JSON to a fresh runtime of ``bundle`` over HTTP: the status,
    the decoded answer, and data/get before and after it (a refusal leaves them equal)."""
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send(serving, method, path, body)
        return status, answer, before, state_of(serving)


def send(serving, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
         ) -> tuple[int, Any]:
    """``method path`` with ``body`` as JSON (none when None) and more ``headers``: the status and
    the decoded answer (None when empty)."""
    connection = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=TIMEOUT_SECONDS)
    try:
        sent = {"content-type": "application/json", **(headers or {})}
        connection.request(method, path, None if body is None else json.dumps(body), sent)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def send_headers(serving, method: str, path: str, body: Any, headers: list[tuple[str, str]]) -> tuple[int, Any]:
    """``method path`` with each of ``headers`` sent as given, a name repeated as often as listed."""
    connection = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=TIMEOUT_SECONDS)
    try:
        data = json.dumps(body).encode() if body is not None else b""
        connection.putrequest(method, path)
        for name, value in [("Content-Type", "application/json"), ("Content-Length", str(len(data))), *headers]:
            connection.putheader(name, value)
        connection.endheaders(data)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


async def call_tool(serving, runtime, name: str, arguments: dict[str, Any]) -> Any:
    """The MCP tool call's result, through a fresh client session on the runtime's MCP path."""
    with anyio.fail_after(TIMEOUT_SECONDS):
        async with Client(serving.url(runtime.reserved_mcp_path())) as client:
            return await client.call_tool(name, arguments)

"""The MCP server around a runtime (official SDK, low-level ``Server``), and its stdio transport.

The low-level server is used because the tools are data, not Python functions: the
listing is built from ``runtime.tools()`` with each schema sent verbatim, and a call is handed
to ``runtime.call_tool`` as it came. A runtime's tools are fixed while it serves, so the listing
is built once (``ToolListing``, loaded in the server's lifespan) and also gives the SDK each
tool's input schema by name: without it, the SDK's 2026-07-28 HTTP entry runs the whole
``tools/list`` handler on every ``tools/call`` with arguments, to check ``Mcp-Param-*`` headers.

An idempotency key travels in the request's ``_meta`` under ``idempotencyKey``
(``IDEMPOTENCY_META_KEY``; camelCase like the protocol's own ``progressToken``), e.g.
``await client.call_tool(name, args, meta={"idempotencyKey": "k-1"})``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Mapping
from importlib import metadata
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext

from capenv.serving.runtime_api import Runtime, ToolAnswer
from capenv.serving.transport.request_log import RequestLog
from capenv.serving.transport.runtime_worker import RuntimeWorker
from capenv.serving.transport.stdio_lines import stdio_streams
from capenv.serving.transport.tool_result import tool_listing, tool_result_wire

logger = logging.getLogger(__name__)

SERVER_NAME = "capenv"
IDEMPOTENCY_META_KEY = "idempotencyKey"
INTERNAL_ERROR_MESSAGE = "internal error"


def _server_version() -> str:
    try:
        return metadata.version("capenv")
    except metadata.PackageNotFoundError:  # running from a tree that is not installed
        return "0"


def internal_error_answer() -> ToolAnswer:
    """What a client sees when the runtime fails unexpectedly: no detail, no traceback."""
    return ToolAnswer(structured={"error": "internal", "message": INTERNAL_ERROR_MESSAGE}, is_error=True)


def idempotency_key_from_meta(meta: Mapping[str, Any] | None) -> str | None:
    """The call's idempotency key; raises ``ValueError`` when it is present but not a non-empty string."""
    if not meta or meta.get(IDEMPOTENCY_META_KEY) is None:
        return None
    key = meta[IDEMPOTENCY_META_KEY]
    if not isinstance(key, str) or not key:
        raise ValueError(f"_meta.{IDEMPOTENCY_META_KEY} must be a non-empty string")
    return key


async def answer_tool_call(
    runtime: Runtime, worker: RuntimeWorker, params: types.CallToolRequestParams, log: RequestLog | None = None
) -> dict[str, Any]:
    """One ``tools/call``: the runtime's answer, or a tool error, as a ``CallToolResult``'s wire
    dict; never an exception (logged to ``log`` when given)."""
    started = time.perf_counter()
    result = await _answer(runtime, worker, params)
    if log is not None:
        log.tool_call(params.name, result["isError"], time.perf_counter() - started)
    return result


async def _answer(runtime: Runtime, worker: RuntimeWorker, params: types.CallToolRequestParams) -> dict[str, Any]:
    try:
        key = idempotency_key_from_meta(params.meta)
    except ValueError as exc:
        return tool_result_wire(ToolAnswer.refusal(str(exc)))
    try:
        answer = await worker.quick(runtime.call_tool, params.name, dict(params.arguments or {}), idempotency_key=key,
                                    on_loop=runtime.call_tool_on_loop)
        return tool_result_wire(answer)
    except Exception:
        # The runtime promises is_error answers for bad input, so this is a bug: log it
        # in full here, tell the client only that it happened.
        logger.exception("tool %r failed inside the runtime", params.name)
        return tool_result_wire(internal_error_answer())


class ToolListing:
    """The runtime's tool listing in its wire shape, built on the worker thread once and kept."""

    def __init__(self, runtime: Runtime, worker: RuntimeWorker) -> None:
        self._runtime = runtime
        self._worker = worker
        self._result: types.ListToolsResult | None = None
        self._schemas: dict[str, Any] = {}

    async def result(self) -> types.ListToolsResult:
        """The listing (built at the first call; a failure is raised and retried next time)."""
        if self._result is None:
            specs = await self._worker.call(self._runtime.tools)
            tools = [tool_listing(spec) for spec in specs]
            self._schemas = {tool.name: tool.input_schema for tool in tools}
            self._result = types.ListToolsResult(tools=tools)
        return self._result

    def input_schema(self, name: str) -> Mapping[str, Any] | None:
        """A listed tool's input schema; None before the listing is built or for an unknown name
        (the SDK then checks no ``Mcp-Param-*`` header, and the call refuses an unknown tool)."""
        return self._schemas.get(name)

    @contextlib.asynccontextmanager
    async def lifespan(self, server: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        """The server's lifespan: the listing built before the first request."""
        try:
            await self.result()
        except Exception:
            logger.exception("listing the runtime's tools failed")  # tools/list answers an internal error
        yield {}


def build_mcp_server(runtime: Runtime, *, worker: RuntimeWorker | None = None,
                     log: RequestLog | None = None) -> Server[Any]:
    """An MCP server listing ``runtime.tools()`` and answering through ``runtime.call_tool``.

    Pass the ``worker`` shared with the other transports of the same runtime, so every
    runtime call runs on one thread; by default the server gets its own. With ``log``, each
    tool call is one line of the request log.
    """
    runtime_worker = worker or RuntimeWorker.for_runtime(runtime)
    listing = ToolListing(runtime, runtime_worker)

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        try:
            return await listing.result()
        except Exception:
            logger.exception("listing the runtime's tools failed")
            raise  # the SDK answers a JSON-RPC internal error without the detail

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> Any:
        return await answer_tool_call(runtime, runtime_worker, params, log)

    return Server(SERVER_NAME, version=_server_version(), lifespan=listing.lifespan,
                  get_tool_input_schema=listing.input_schema, on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(runtime: Runtime, log: RequestLog | None = None) -> None:
    """Serve MCP over this process's stdin/stdout until the client closes stdin."""
    worker = RuntimeWorker.for_runtime(runtime)
    server = build_mcp_server(runtime, worker=worker, log=log)
    try:
        async with stdio_streams() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        worker.close()


def run_stdio(runtime: Runtime, log: RequestLog | None = None) -> None:
    """Blocking entry point of ``capenv serve --stdio``; stdout carries only MCP messages (the
    request log goes to stderr)."""
    anyio.run(serve_stdio, runtime, log)

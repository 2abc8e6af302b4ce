"""The two servers capenv's surfaces are measured against, each on capenv's own uvicorn settings.

    python -m benchmarks.floor_servers floor PORT   # a bare ASGI app: every request gets FLOOR_BODY
    python -m benchmarks.floor_servers echo PORT    # the MCP SDK's low-level Server, one echo tool,
                                                    # over the SDK's streamable HTTP session manager

Both run through ``capenv.serving.transport.http_app.run_http`` with ``make_app`` (the hook a
fleet uses for its own app), so the socket, the uvicorn ``Config`` (HTTP protocol class with its
request deadline, keep-alive, headers, lifespan) are the ones ``capenv serve --http`` runs, and
follow them when they change: what differs from capenv is only the app. Every path other than
``/mcp`` answers ``READY_PATH``'s 200, which is what the benchmark waits for.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

FLOOR_BODY = b'{"id":1,"postId":1,"body":"benchmark"}'
"""A comment as json-server answers it: the HTTP section's sequence reads the created id from it."""
MCP_PATH = "/mcp"
ECHO_TOOL = "echo"


async def _lifespan(receive: Any, send: Any, running: contextlib.AbstractAsyncContextManager | None) -> None:
    await receive()  # lifespan.startup
    async with running if running is not None else contextlib.nullcontext():
        await send({"type": "lifespan.startup.complete"})
        await receive()  # lifespan.shutdown
    await send({"type": "lifespan.shutdown.complete"})


async def _fixed(receive: Any, send: Any) -> None:
    while (await receive()).get("more_body"):  # read the request's body, as any app would
        pass
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(FLOOR_BODY)).encode())]})
    await send({"type": "http.response.body", "body": FLOOR_BODY})


class FloorApp:
    """The transport floor: no routing, no runtime, one fixed JSON body."""

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send, None)
        elif scope["type"] == "http":
            await _fixed(receive, send)


def echo_server() -> Any:
    """The SDK's low-level ``Server`` with one tool answering its arguments back, as structured
    content and as JSON text (the two forms capenv's answers carry)."""
    import json

    import mcp.types as types
    from mcp.server import Server, ServerRequestContext

    tool = types.Tool(name=ECHO_TOOL, description="Answers its arguments back.",
                      input_schema={"type": "object", "additionalProperties": True})

    async def list_tools(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
                         ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        return types.CallToolResult(content=[types.TextContent(text=json.dumps(arguments))],
                                    structured_content=arguments)

    return Server("echo", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


class EchoApp:
    """The SDK's streamable HTTP session manager (its defaults) around ``echo_server`` at ``/mcp``."""

    def __init__(self) -> None:
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        self.sessions = StreamableHTTPSessionManager(app=echo_server())

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send, self.sessions.run())
        elif scope["type"] == "http":
            if scope["path"] == MCP_PATH:
                await self.sessions.handle_request(scope, receive, send)
            else:
                await _fixed(receive, send)


def serve(kind: str, port: int) -> None:
    from capenv.serving.transport.http_app import run_http

    app = FloorApp() if kind == "floor" else EchoApp()
    run_http(None, "127.0.0.1", port, print_urls=False, quiet=True,  # type: ignore[arg-type]
             make_app=lambda policies, **_: app)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("floor", "echo"):
        raise SystemExit("usage: python -m benchmarks.floor_servers floor|echo PORT")
    serve(sys.argv[1], int(sys.argv[2]))

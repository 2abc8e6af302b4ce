"""Where an MCP tool call's CPU goes: client and server in one process (section (g)'s bound).

``mcp.Client`` calls capenv's HTTP app (the one ``capenv serve --http`` runs) or the SDK echo app
over httpx2's ASGI transport: no socket, no uvicorn, so what is profiled is the two ends' own
work and the event loop between them. cProfile on the CPU clock over ``CALLS`` calls; each part is
the inclusive time of the function every call enters it by:

- *client: output-schema check*: ``mcp.client.session.validate_tool_result``, the client checking
  each answer against the called tool's published output schema (the echo tool publishes none);
- *server: the app*: the ASGI app's ``__call__`` (the SDK's session manager and server inside it);
- within it, *capenv's HTTP glue* (the app less the SDK's ``handle_request``: listener policy,
  headers), *capenv's tool call* (``mcp_server.call_tool``: the worker hop or not, the wire dict)
  and, within that, *the runtime* (``EnvironmentRuntime.call_tool``: the served read itself);
- *client and loop: the rest*: the client SDK, httpx2 and the event loop.

The profiler and the in-process transport (its own tasks and streams) inflate the client and
loop's part, so the parts are read against each other; the µs are under the profiler. Once per
session, before its first answer is checked, ``mcp.Client`` checks the called tool's output schema
against the JSON Schema metaschema (``check_schema``): ``schema_check_seconds`` times that alone.

    python -m benchmarks.mcp_split BUNDLE_DIR
"""

from __future__ import annotations

import contextlib
import cProfile
import pstats
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.floor_servers import ECHO_TOOL, MCP_PATH, EchoApp
from benchmarks.profiling import inclusive_seconds, profiled_seconds

ORIGIN = "http://127.0.0.1:18600"
WARMUP_CALLS = 5
SCHEMA_CHECKS = 5

CLIENT_CHECK = "client: output-schema check"
SERVER = "server: the app (SDK and capenv)"
CAPENV_GLUE = "↳ capenv's HTTP glue"
CAPENV_CALL = "↳ capenv's tool call"
RUNTIME = "↳↳ the runtime's read"
SDK_SERVER = "↳ the SDK's server, the rest"
CLIENT_REST = "client and loop: the rest"
PARTS = (
    (CLIENT_CHECK, ("mcp/client/session.py", "validate_tool_result")),
    (SERVER, None),
    (CAPENV_GLUE, None),
    (CAPENV_CALL, ("serving/transport/mcp_server.py", "call_tool")),
    (RUNTIME, ("serving/runtime.py", "call_tool")),
    (SDK_SERVER, None),
    (CLIENT_REST, None),
)
_APP_ENTRIES = (("serving/transport/http_app.py", "__call__"), ("benchmarks/floor_servers.py", "__call__"))
_SDK_ENTRY = ("mcp/server/streamable_http_manager.py", "handle_request")


@dataclass(frozen=True)
class Split:
    total_seconds: float
    calls: int
    parts: dict[str, float]
    """CPU seconds (under the profiler) per part, as named in ``PARTS``."""

    def share(self, part: str) -> float:
        return self.parts[part] / self.total_seconds if self.total_seconds else 0.0

    def per_call_us(self, part: str) -> float:
        return self.parts[part] / self.calls * 1e6


def capenv_app(bundle_dir: Path) -> tuple[Any, Any, str]:
    """capenv's HTTP app over the bundle's runtime (default store), as ``capenv serve --http``
    builds it: the app, its sessions' run and its MCP path."""
    from capenv.interpreter.bundle.io import read_bundle
    from capenv.serving.runtime import EnvironmentRuntime, settle_for_serving
    from capenv.serving.transport.http_app import Access, CapenvHttpApp, listener_policies

    runtime = EnvironmentRuntime(read_bundle(bundle_dir))
    settle_for_serving()
    app = CapenvHttpApp(runtime, listener_policies(Access().settled(), ("127.0.0.1", 18600), None))
    return app, app.run_sessions(), app.mcp_path


def echo_app() -> tuple[Any, Any, str]:
    app = EchoApp()
    return app, app.sessions.run(), MCP_PATH


async def _profiled(app: Any, running: Any, path: str, tool: str, arguments: dict[str, Any],
                    calls: int) -> pstats.Stats:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with running, contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app),
                                                                  base_url=ORIGIN))
        client = await stack.enter_async_context(Client(streamable_http_client(ORIGIN + path, http_client=http)))
        for _ in range(WARMUP_CALLS):
            answer = await client.call_tool(tool, arguments)
        if answer.is_error:
            raise RuntimeError(f"the profiled call was not served: {answer.structured_content}")
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        for _ in range(calls):
            await client.call_tool(tool, arguments)
        profiler.disable()
    return pstats.Stats(profiler)


def split(app: Any, running: Any, path: str, tool: str, arguments: dict[str, Any], calls: int) -> Split:
    import anyio

    stats = anyio.run(_profiled, app, running, path, tool, arguments, calls)
    return parts_of(stats, calls)


def parts_of(stats: pstats.Stats, calls: int) -> Split:
    parts = {name: inclusive_seconds(stats, entry) if entry is not None else 0.0 for name, entry in PARTS}
    app = inclusive_seconds(stats, *_APP_ENTRIES)
    sdk = inclusive_seconds(stats, _SDK_ENTRY)
    parts[SERVER] = app
    parts[CAPENV_GLUE] = max(app - sdk, 0.0) if parts[CAPENV_CALL] else 0.0  # the echo app's glue is a path test
    parts[SDK_SERVER] = max(sdk - parts[CAPENV_CALL], 0.0) if sdk else app
    total = profiled_seconds(stats)
    parts[CLIENT_REST] = max(total - app - parts[CLIENT_CHECK], 0.0)
    return Split(total, calls, parts)


def schema_check_seconds(schema: dict[str, Any] | None) -> float:
    """CPU seconds of checking ``schema`` against its metaschema (median of a few), 0 without one."""
    if schema is None:
        return 0.0
    from jsonschema.validators import validator_for

    validator = validator_for(schema)
    found = []
    for _ in range(SCHEMA_CHECKS):
        started = time.process_time()
        validator.check_schema(schema)
        found.append(time.process_time() - started)
    return statistics.median(found)


def output_schema(bundle_dir: Path, tool: str) -> dict[str, Any] | None:
    """The output schema capenv lists for ``tool``, as the client receives it."""
    from capenv.interpreter.bundle.io import read_bundle
    from capenv.serving.runtime import EnvironmentRuntime
    from capenv.serving.transport.tool_result import tool_listing

    spec = next(s for s in EnvironmentRuntime(read_bundle(bundle_dir)).tools() if s.name == tool)
    return tool_listing(spec).output_schema


def measure(bundle_dir: Path, tool: str, arguments: dict[str, Any], calls: int) -> dict[str, Split]:
    return {"capenv": split(*capenv_app(bundle_dir), tool, arguments, calls),
            "echo": split(*echo_app(), ECHO_TOOL, arguments, calls)}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        raise SystemExit("usage: python -m benchmarks.mcp_split BUNDLE_DIR")
    found = measure(Path(argv[0]), "get_posts_by_post_id", {"post_id": "1"}, 300)
    for name, _ in PARTS:
        print(f"{name:34s} " + "  ".join(f"{server} {s.per_call_us(name):7,.0f} µs {s.share(name):5.1%}"
                                         for server, s in found.items()))
    check = schema_check_seconds(output_schema(Path(argv[0]), "get_posts_by_post_id"))
    print(f"checking the output schema once per session: {check * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

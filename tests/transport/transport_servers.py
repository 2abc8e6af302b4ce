"""The example servers the transport tests start as subprocesses (the HTTP transport in a
thread: ``support.http_thread``)."""

from __future__ import annotations

import sys
from pathlib import Path

from mcp import StdioServerParameters

HERE = Path(__file__).resolve().parent
STDIO_SERVER_SCRIPT = HERE / "example_stdio_server.py"
HTTP_SERVER_SCRIPT = HERE / "example_http_server.py"


def stdio_parameters() -> StdioServerParameters:
    """How an MCP client spawns ``run_stdio(ExampleRuntime())``."""
    return StdioServerParameters(command=sys.executable, args=[str(STDIO_SERVER_SCRIPT)])

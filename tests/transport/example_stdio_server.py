"""Run ``run_stdio(ExampleRuntime())``: the stdio MCP server the transport tests spawn by path."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from transport_example_runtime import ExampleRuntime  # noqa: E402

from capenv.serving.transport.mcp_server import run_stdio  # noqa: E402

if __name__ == "__main__":
    run_stdio(ExampleRuntime())

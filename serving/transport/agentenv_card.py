"""The AgentEnv framework's environment card for a served bundle (see docs/agentenv.md).

The AgentEnv framework (package ``agentenv-framework-protocol``, import ``agentenv_protocol``)
finds an environment by its card at ``/.well-known/agent-env.json``: its name, the JSON-RPC
data plane at ``/agentenv`` (``data/reset``, ``data/add``, ``data/get``), the MCP endpoint as an
``additionalInterfaces`` entry, and the tools as listed over MCP. The constants below are the
protocol's own (``agentenv_protocol.types``), repeated so serving does not depend on it.
"""

from __future__ import annotations

from typing import Any

from capenv.serving.runtime_api import ToolSpec

PROTOCOL_VERSION = "1.0"
WELL_KNOWN_PATH = "/.well-known/agent-env.json"
RPC_PATH = "/agentenv"
MCP_TRANSPORT = "mcp"
INTAKE_EXTENSION_URI = "urn:agentenv:intake/v1"

METHOD_RESET = "data/reset"
METHOD_ADD = "data/add"
METHOD_GET = "data/get"
METHODS = (METHOD_RESET, METHOD_ADD, METHOD_GET)

STATE_FORMAT = "capenv-state"
"""The format name the intake declaration gives capenv's state document (docs/architecture.md)."""

ENVIRONMENT_NAME_VARIABLE = "ENVIRONMENT_NAME"
"""The framework injects the environment's registered name here; the card must carry it."""


def intake_declaration() -> dict[str, Any]:
    """What data/add accepts (one state document, replacing the state) and data/get returns."""
    document = {"format": STATE_FORMAT, "load": "replace"}
    return {
        "uri": INTAKE_EXTENSION_URI,
        "description": "data/add installs one capenv state document (as data/get returns it), replacing the "
                       "state; data/get returns the whole state as one document.",
        "params": {
            "add": [{"part": "data", **document},
                    {"part": "file", "mimeTypes": ["application/json"], **document}],
            "get": [{"part": "data", "format": STATE_FORMAT}],
        },
    }


def environment_card(name: str, mcp_path: str, tools: list[ToolSpec]) -> dict[str, Any]:
    """The card, with every tool as ``tools/list`` gives it (schemas verbatim)."""
    return {
        "name": name,
        "protocolVersion": PROTOCOL_VERSION,
        "url": RPC_PATH,
        "preferredTransport": "JSONRPC",
        "additionalInterfaces": [{"url": mcp_path, "transport": MCP_TRANSPORT}],
        "capabilities": {
            "extensions": [intake_declaration()],
            "tools": [{"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in tools],
            "operations": list(METHODS),
        },
    }

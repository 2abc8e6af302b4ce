"""Runtime tool values in their MCP wire shapes.

A ``ToolAnswer`` becomes a ``CallToolResult`` carrying the structured dict twice: as
``structuredContent`` and as JSON text content (clients that only read text see the
same thing). The text is written by the exact JSON codec, so a number keeps the
spelling it was recorded with; ``structuredContent`` goes through the SDK's own JSON
serialiser, so it is read back from that text as plain JSON values first (by orjson; the
standard parser only for an integer past 64 bits, which orjson refuses).

The server hands the SDK the result as its wire dict (``tool_result_wire``): the SDK validates
and dumps every result against the protocol version's schema anyway, so a pydantic
``CallToolResult`` built and dumped first would walk a large answer twice more for nothing.
"""

from __future__ import annotations

import json
from typing import Any

import mcp.types as types
import orjson

from capenv.interpreter.bundle import jsonvalue
from capenv.serving.runtime_api import ToolAnswer, ToolSpec


def plain_json(value: Any) -> tuple[Any, str]:
    """``value`` as plain JSON values (``JsonNumber`` → int/float) and as exact JSON text."""
    encoded = jsonvalue.dumps(value)
    text = encoded.decode("utf-8")
    try:
        return orjson.loads(encoded), text
    except orjson.JSONDecodeError:  # an integer past 64 bits: Python's int holds it
        return json.loads(text), text


def tool_listing(spec: ToolSpec) -> types.Tool:
    """A ``ToolSpec`` as a listed ``Tool``; the schemas and hints are sent as given."""
    input_schema, _ = plain_json(spec.input_schema)
    output = plain_json(spec.output_schema)[0] if spec.output_schema is not None else None
    hints = types.ToolAnnotations.model_validate(spec.annotations) if spec.annotations is not None else None
    return types.Tool(name=spec.name, title=spec.title, description=spec.description, input_schema=input_schema,
                      output_schema=output, annotations=hints)


def tool_result_wire(answer: ToolAnswer) -> dict[str, Any]:
    """A ``ToolAnswer`` as a ``CallToolResult``'s wire dict (raises ``TypeError`` for values that
    are not JSON)."""
    if not isinstance(answer, ToolAnswer):
        raise TypeError(f"the runtime answered a tool call with {type(answer).__name__}, not a ToolAnswer")
    structured, text = plain_json(answer.structured)
    if not isinstance(structured, dict):
        raise TypeError(f"ToolAnswer.structured must be a JSON object, not {type(structured).__name__}")
    return {"content": [{"type": "text", "text": answer.text if answer.text is not None else text}],
            "structuredContent": structured, "isError": bool(answer.is_error), "resultType": "complete"}


def tool_result(answer: ToolAnswer) -> types.CallToolResult:
    """A ``ToolAnswer`` as a ``CallToolResult`` (raises ``TypeError`` for values that are not JSON)."""
    return types.CallToolResult.model_validate(tool_result_wire(answer))

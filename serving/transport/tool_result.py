"""Runtime tool values in their MCP wire shapes.

A ``ToolAnswer`` becomes a ``CallToolResult`` carrying the structured dict twice: as
``structuredContent`` and as JSON text content (clients that only read text see the
same thing). The text is written by the exact JSON codec, so a number keeps the
spelling it was recorded with; ``structuredContent`` goes through the SDK's own JSON
serialiser, so it is read back from that text as plain JSON values first.
"""

from __future__ import annotations

import json
from typing import Any

import mcp.types as types

from capenv.interpreter.bundle import jsonvalue
from capenv.serving.runtime_api import ToolAnswer, ToolSpec


def plain_json(value: Any) -> tuple[Any, str]:
    """``value`` as plain JSON values (``JsonNumber`` → int/float) and as exact JSON text."""
    text = jsonvalue.dumps(value).decode("utf-8")
    return json.loads(text), text


def tool_listing(spec: ToolSpec) -> types.Tool:
    """A ``ToolSpec`` as a listed ``Tool``; the schemas and hints are sent as given."""
    input_schema, _ = plain_json(spec.input_schema)
    output = plain_json(spec.output_schema)[0] if spec.output_schema is not None else None
    hints = types.ToolAnnotations.model_validate(spec.annotations) if spec.annotations is not None else None
    return types.Tool(name=spec.name, title=spec.title, description=spec.description, input_schema=input_schema,
                      output_schema=output, annotations=hints)


def tool_result(answer: ToolAnswer) -> types.CallToolResult:
    """A ``ToolAnswer`` as a ``CallToolResult`` (raises ``TypeError`` for values that are not JSON)."""
    if not isinstance(answer, ToolAnswer):
        raise TypeError(f"the runtime answered a tool call with {type(answer).__name__}, not a ToolAnswer")
    structured, text = plain_json(answer.structured)
    if not isinstance(structured, dict):
        raise TypeError(f"ToolAnswer.structured must be a JSON object, not {type(structured).__name__}")
    return types.CallToolResult(
        content=[types.TextContent(text=answer.text if answer.text is not None else text)],
        structured_content=structured,
        is_error=answer.is_error,
    )

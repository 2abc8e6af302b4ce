"""Whether an update tool's bodies are JSON Patches, by the ``body-patches`` table: the operations
its plan serves (``WritePlan.body_patch_ops``), or none when its bodies are objects."""

from __future__ import annotations

from typing import Any

from jsonpointer import JsonPointer, JsonPointerException

from capenv.interpreter.evidence.bodies import media_type
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.body_patches import BodyPatchContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "body-patches"


def patch_ops_of(tool: str, calls: list[Record], ruleset: RuleSet, events: list[TraceEvent]) -> tuple[str, ...]:
    """The operations the tool's successful calls used, when the table reads their bodies as
    JSON Patches; () otherwise (judged only when the exemplar's body is an array)."""
    succeeded = [call for call in calls if call.succeeded]
    if TABLE not in ruleset.tables or not succeeded or not isinstance(_body(succeeded[0]), list):
        return ()
    context = BodyPatchContext(media_types=tuple(media_type(c.request.mime_type) for c in succeeded),
                               calls=tuple(_operations(_body(c)) for c in succeeded))
    decision = evaluate(ruleset, TABLE, context, subject=f"{tool} body")
    events.extend(decision.events)
    if decision.yields.get("form") != "json-patch":
        return ()
    return tuple(str(op) for op in decision.evidence.get("ops", ()))


def _body(call: Record) -> Any:
    return call.request.json_value if call.request.is_json else None


def _operations(body: Any) -> tuple[tuple[str, int], ...] | str:
    if not isinstance(body, list):
        return "the body is no array of operations"
    operations = []
    for index, operation in enumerate(body):
        if not isinstance(operation, dict) or not isinstance(operation.get("op"), str):
            return f"element {index} is not an operation object"
        try:
            depth = len(JsonPointer(operation.get("path")).parts) if isinstance(operation.get("path"), str) else 0
        except JsonPointerException:
            depth = 0
        operations.append((operation["op"], depth))
    return tuple(operations)

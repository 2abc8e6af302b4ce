"""Classify each state-changing tool's effect by the ``write-effects`` table.

The table decides from the tool's method and where its template lies relative to the state's
types (computed here): an item path, an item path plus one literal segment, a collection path
(a trailing slash ignored), a collection path plus one literal segment, a held document's path.
"""

from __future__ import annotations

from dataclasses import dataclass

from capenv.interpreter.bundle.models import EntityType, ViewResult
from capenv.interpreter.manifest.models import Tool, split_path
from capenv.interpreter.predicates.write_targets import WriteTargetContext
from capenv.interpreter.rules_engine import Decision, RuleSet, evaluate

TABLE = "write-effects"


@dataclass(frozen=True)
class Target:
    relation: str
    type: EntityType | None = None
    segment: str | None = None


def _parts(template: str) -> list[str]:
    parts = split_path(template)
    return parts[:-1] if len(parts) > 1 and parts[-1] == "" else parts


def _same(template_parts: list[str], type_parts: list[str]) -> bool:
    if len(template_parts) != len(type_parts):
        return False
    return all(a == b or (a.startswith("{") and b.startswith("{")) for a, b in zip(template_parts, type_parts))


def target_of(tool: Tool, view: ViewResult, document_paths: set[str], tool_paths: list[str]) -> Target:
    parts = _parts(tool.template)
    if tool_paths and all(p in document_paths or p.rstrip("/") in document_paths for p in tool_paths):
        return Target("document")
    for entity_type in view.types:
        item = _parts(entity_type.item_template) if entity_type.item_template else None
        if item and _same(parts, item):
            return Target("item", entity_type)
    for entity_type in view.types:
        if _same(parts, _parts(entity_type.collection_template)):
            return Target("collection", entity_type)
    for entity_type in view.types:
        item = _parts(entity_type.item_template) if entity_type.item_template else None
        if item and len(parts) == len(item) + 1 and _same(parts[:-1], item) and not parts[-1].startswith("{"):
            return Target("item-segment", entity_type, parts[-1])
    for entity_type in view.types:
        collection = _parts(entity_type.collection_template)
        if len(parts) == len(collection) + 1 and _same(parts[:-1], collection) and not parts[-1].startswith("{"):
            return Target("collection-segment", entity_type, parts[-1])
    return Target("other")


def classify(tool: Tool, target: Target, view: ViewResult, ruleset: RuleSet) -> Decision:
    names_type = bool(target.segment) and any(
        t.collection_template.rstrip("/").endswith("/" + str(target.segment)) for t in view.types)
    context = WriteTargetContext(method=tool.method, relation=target.relation, segment=target.segment,
                                 segment_names_type=names_type, type=target.type.name if target.type else None)
    return evaluate(ruleset, TABLE, context, subject=tool.name)

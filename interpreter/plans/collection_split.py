"""Per-value write plans for a template whose collection segment names a kind of entity with each
value (``WritePlan.dispatch_params``, table ``write-collection-segments``).

One tool serves ``/classes/{class}`` for every class, but each class holds its own kind of object:
a plan learned from one class's calls refuses (or, worse, mis-serves) another's. Where the table
says a parameter of a type's collection template names types, each write tool spanning it is split
before the plans are built: one part per recorded value (its calls only), each built and proven by
the gate on its own, as if it were a tool. ``gate/per_value.merge_split`` then folds the parts back into one plan
per tool, its ``variants`` the parts, so the tool list and its names stay as they were; serving runs
the variant a call's values name (``serving/writes/dispatch``) and refuses a value with none served.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote

from capenv.interpreter.bundle.models import EntityType, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest, Tool
from capenv.interpreter.predicates.collection_segments import WriteCollectionSegmentContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "write-collection-segments"


@dataclass
class Split:
    """One tool split on its parameters ``params``: a part (a tool of the values' calls) per values."""

    tool: Tool
    params: tuple[str, ...]
    parts: dict[str, tuple[dict[str, str], Tool]] = field(default_factory=dict)
    """Part tool name -> (decoded values, part tool)."""
    events: tuple[TraceEvent, ...] = ()


def _is_param(piece: str) -> bool:
    return piece.startswith("{") and piece.endswith("}")


def _spans(tool: Tool, entity_type: EntityType) -> list[int] | None:
    """The indexes of the type's collection template parameters, when the tool's template lies
    at or below that collection (its literal segments equal, its parameters parameters)."""
    template, own = split_path(entity_type.collection_template), split_path(tool.template)
    if len(own) < len(template):
        return None
    for mine, theirs in zip(own, template):
        if _is_param(theirs) != _is_param(mine) or (not _is_param(theirs) and mine != theirs):
            return None
    return [i for i, piece in enumerate(template) if _is_param(piece)]


def split_tools(manifest: Manifest, view: ViewResult, records: dict[int, Record], ruleset: RuleSet,
                read_only: set[str]) -> tuple[Manifest, list[Split], tuple[TraceEvent, ...]]:
    """The manifest with each write tool spanning a type-naming segment replaced by its parts, and
    the table's events for the segments it judged not to name types (the view's traces keep them)."""
    kept: list[TraceEvent] = []
    if TABLE not in ruleset.tables or not view.state_available:
        return manifest, [], ()
    writers = [t for t in manifest.tools if t.changes_state and t.name not in read_only]
    judged: dict[tuple[str, int], TraceEvent] = {}
    owner: dict[str, tuple[EntityType, list[int]]] = {}
    for entity_type in sorted(view.types, key=lambda t: -len(split_path(t.collection_template))):
        spans = {t.name: _spans(t, entity_type) for t in writers if t.name not in owner}
        tools = [t for t in writers if spans.get(t.name)]
        for tool in tools:
            owner[tool.name] = (entity_type, spans[tool.name] or [])
        for index in sorted({i for t in tools for i in spans[t.name] or []}):
            members: dict[str, set[str]] = {}
            for held in view.state.collections:
                parts = split_path(held.path)
                if held.type == entity_type.name and index < len(parts):
                    shown = members.setdefault(unquote(parts[index]), set())
                    for entity in held.entities:
                        shown.update(entity.value)
            for tool in tools:  # a value only written names no members: what a call sends is no kind's own
                for ordinal in tool.record_ordinals:
                    members.setdefault(unquote(split_path(records[ordinal].path)[index]), set())
            segment = split_path(tools[0].template)[index][1:-1]
            context = WriteCollectionSegmentContext(segment=segment,
                                                    members={v: sorted(m) for v, m in sorted(members.items())})
            decision = evaluate(ruleset, TABLE, context, subject=f"{entity_type.name} {segment}")
            if decision.yields.get("per_value"):
                judged[(entity_type.name, index)] = decision.events
            else:
                kept.extend(decision.events)
    if not judged:
        return manifest, [], tuple(kept)
    splits, replaced = [], {}
    for tool in writers:
        entity_type, spans = owner.get(tool.name, (None, []))
        indexes = [i for i in spans if entity_type is not None and (entity_type.name, i) in judged]
        if not indexes:
            continue
        pieces = split_path(tool.template)
        params = tuple(pieces[i][1:-1] for i in indexes)
        split = Split(tool, params, events=tuple(e for i in indexes for e in judged[(entity_type.name, i)]))
        groups: dict[tuple[str, ...], list[int]] = {}
        for ordinal in tool.record_ordinals:
            path = split_path(records[ordinal].path)
            groups.setdefault(tuple(unquote(path[i]) for i in indexes), []).append(ordinal)
        for n, (values, ordinals) in enumerate(sorted(groups.items())):
            name = f"{tool.name}.{n}"
            split.parts[name] = (dict(zip(params, values)),
                                 tool.model_copy(update={"name": name, "record_ordinals": tuple(ordinals)}))
        splits.append(split)
        replaced[tool.name] = [part for _, part in split.parts.values()]
    tools = [part for t in manifest.tools for part in replaced.get(t.name, [t])]
    return manifest.model_copy(update={"tools": tuple(tools)}), splits, tuple(kept)

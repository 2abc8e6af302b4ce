"""Classify each state-changing tool's effect by the ``write-effects`` table.

The table decides from the tool's method and where its template lies relative to the state's
types (computed here): an item path, an item path plus one literal segment, a collection path
(a trailing slash ignored), a collection path plus one literal segment, a collection path whose
last segment is the type's singular or plural (the ``bulk-path-words`` table; /messages for
/message), a held document's path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from capenv.interpreter.bundle.models import EntityType, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.predicates.bulk_path_words import BulkPathWordContext
from capenv.interpreter.predicates.write_targets import WriteTargetContext
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent, evaluate

from .context import note

TABLE = "write-effects"
PATH_WORDS = "bulk-path-words"


@dataclass(frozen=True)
class Target:
    relation: str
    type: EntityType | None = None
    segment: str | None = None
    markers: tuple[str, ...] = ()
    """An item-suffix path's literal segments between the item path and its last segment (``-``)."""
    events: tuple[TraceEvent, ...] = field(default=(), compare=False)
    """How the relation was decided where a table decided it (an inflected collection word)."""
    key: str | None = None
    """An item target named by this key member rather than its identity (``item_keys``)."""

    @property
    def after_item(self) -> int:
        """How many literal segments follow the item path (0 unless item-segment or item-suffix)."""
        return len(self.markers) + 1 if self.relation in ("item-segment", "item-suffix") else 0


def _parts(template: str) -> list[str]:
    parts = split_path(template)
    return parts[:-1] if len(parts) > 1 and parts[-1] == "" else parts


def _same(template_parts: list[str], type_parts: list[str]) -> bool:
    if len(template_parts) != len(type_parts):
        return False
    return all(a == b or (a.startswith("{") and b.startswith("{")) for a, b in zip(template_parts, type_parts))


def target_of(tool: Tool, view: ViewResult, document_paths: set[str], tool_paths: list[str],
              ruleset: RuleSet) -> Target:
    parts = _parts(tool.template)
    # a document write is one at a path the state holds a document at: a document view's line
    # first read after the initial window holds none, and serving refuses writes there
    held = {d.path for d in view.state.documents}
    if tool_paths and all(_at(p, held) for p in tool_paths):
        return Target("document")
    unheld = _unheld_document_paths(tool_paths, document_paths, held)
    if unheld:
        return _unmatched(tool, parts, view, ruleset, (_unheld_note(tool.name, unheld),))
    return _unmatched(tool, parts, view, ruleset, ())


def _at(path: str, paths: set[str]) -> bool:
    return path in paths or path.rstrip("/") in paths


def _unheld_document_paths(tool_paths: list[str], document_paths: set[str], held: set[str]) -> list[str]:
    """The tool's paths a document view reads but the state holds no document at, when every
    path of the tool is a document view's line (else the tool is no document writer at all)."""
    if not tool_paths or not all(_at(p, document_paths) for p in tool_paths):
        return []
    return sorted({p for p in tool_paths if not _at(p, held)})


def _unheld_note(subject: str, paths: list[str]) -> TraceEvent:
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    return note(subject, "no document write", f"a document view reads {shown}, but the state holds no document "
                "there (no read in the initial window showed one), so serving could not write it",
                location="interpreter/plans/classify.py:target_of")


def _unmatched(tool: Tool, parts: list[str], view: ViewResult, ruleset: RuleSet,
               notes: tuple[TraceEvent, ...]) -> Target:
    target = _relation(tool, parts, view, ruleset)
    return Target(target.relation, target.type, target.segment, target.markers, notes + target.events) \
        if notes else target


def _relation(tool: Tool, parts: list[str], view: ViewResult, ruleset: RuleSet) -> Target:
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
        item = _parts(entity_type.item_template) if entity_type.item_template else None
        if item and len(parts) > len(item) + 1 and _same(parts[:len(item)], item) \
                and not any(p.startswith("{") for p in parts[len(item):]):
            return Target("item-suffix", entity_type, parts[-1], tuple(parts[len(item):-1]))
    for entity_type in view.types:
        collection = _parts(entity_type.collection_template)
        if len(parts) == len(collection) + 1 and _same(parts[:-1], collection) and not parts[-1].startswith("{"):
            return Target("collection-segment", entity_type, parts[-1])
    return _inflected_collection(tool, parts, view, ruleset) or Target("other")


def _inflected_collection(tool: Tool, parts: list[str], view: ViewResult, ruleset: RuleSet) -> Target | None:
    """The first type whose collection path is this path but for a last literal segment in the
    other number (/messages for /message), by the ``bulk-path-words`` table; every try traced."""
    if not parts or parts[-1].startswith("{"):
        return None
    events: list[TraceEvent] = []
    for entity_type in view.types:
        collection = _parts(entity_type.collection_template)
        if len(parts) != len(collection) or collection[-1].startswith("{") or collection[-1] == parts[-1] \
                or not _same(parts[:-1], collection[:-1]):
            continue
        decision = evaluate(ruleset, PATH_WORDS, BulkPathWordContext(segment=parts[-1], type_word=collection[-1]),
                            subject=f"{tool.name} path vs {entity_type.name}")
        events.extend(decision.events)
        if decision.ok:
            return Target(str(decision.yields["relation"]), entity_type, None, (), tuple(events))
    return None


def segments_after_item(target: Target) -> str | None:
    """The literal segments after the item path an item-segment or item-suffix write names
    (``archive``, ``-/delete``), joined by ``/``; None for any other relation."""
    if target.relation in ("item-segment", "item-suffix") and target.segment is not None:
        return "/".join(target.markers + (target.segment,))
    return None


def classify(tool: Tool, target: Target, view: ViewResult, ruleset: RuleSet, statuses: tuple[int, ...] = (),
             met_absence: bool = False, item_upserts: dict[str, tuple[str, frozenset[int]]] | None = None,
             held: tuple[bool, tuple[int, ...]] = (False, ()), *, some_met_absence: bool = False,
             some_met_unheld: bool = False, item_made_absent: tuple[str, ...] = (),
             absent_answers: tuple[str, ...] = ()) -> Decision:
    """``statuses``: the tool's recorded answers' statuses (what its successful calls answered);
    ``met_absence``: every successful call named an entity the capture showed absent before it;
    ``item_upserts``: the write tools at a path ending in a parameter, their method and statuses (``item_upserts``);
    ``held``: every successful call named an entity held before it, and the failed calls' statuses
    for entities nothing held (``absent_before.calls_held``); ``some_met_absence``: a successful
    call named an entity the capture showed absent before it; ``some_met_unheld``: one named an entity
    nothing the capture showed held before it; ``item_made_absent``: the other write tools at a path
    ending in a parameter one of whose successful calls named an entity the capture showed absent
    before it; ``absent_answers``: what each successful call naming an entity the capture showed
    absent answered (``absent_before.answer_kind``)."""
    names_type = bool(target.segment) and any(
        t.collection_template.rstrip("/").endswith("/" + str(target.segment)) for t in view.types)
    succeeded = [s for s in statuses if 200 <= s < 300]
    context = WriteTargetContext(method=tool.method, relation=target.relation, segment=target.segment,
                                 markers=target.markers, segment_names_type=names_type,
                                 type=target.type.name if target.type else None,
                                 succeeded_statuses=tuple(succeeded),
                                 met_absence=met_absence, some_met_absence=some_met_absence,
                                 absent_answers=absent_answers,
                                 some_met_unheld=some_met_unheld,
                                 met_held=held[0], unheld_statuses=held[1],
                                 item_upserts={name: answered for name, answered in (item_upserts or {}).items()
                                               if name != tool.name},
                                 item_made_absent=tuple(n for n in item_made_absent if n != tool.name))
    decision = evaluate(ruleset, TABLE, context, subject=tool.name)
    why = _why_no_effect(tool, target, view) if decision.yields.get("effect", "none") == "none" else None
    events = target.events + decision.events + ((why,) if why is not None else ())
    return decision.model_copy(update={"events": events}) if events != decision.events else decision


def _why_no_effect(tool: Tool, target: Target, view: ViewResult) -> TraceEvent | None:
    """Where a tool with no effect writes, said plainly: a literal segment where an item path
    names its entity (write paths the manifest left literal are not modelled), or an entity named
    by another key than the type's item path's (writes are modelled at the item path only)."""
    parts = _parts(tool.template)
    if target.relation == "collection-segment" and target.type is not None and tool.method != "POST":
        item = target.type.item_template or f"{target.type.collection_template.rstrip('/')}/{{id}}"
        why = (f"its last segment {target.segment!r} stands where the item path {item} names an entity, but the "
               "manifest left it literal (one recorded value, or none shaped as an identifier): a write at a path "
               "the manifest left literal is not modelled")
        return _explained(tool.name, why)
    for entity_type in view.types:
        collection = _parts(entity_type.collection_template)
        if entity_type.item_template and len(parts) == len(collection) + 2 and _same(parts[:-2], collection) \
                and not parts[-2].startswith("{") and parts[-1].startswith("{"):
            why = (f"the path {tool.template} names an entity of {entity_type.name} by another key than its item path "
                   f"{entity_type.item_template}, which the capture does not prove (write-item-keys): such a write is "
                   "modelled only where the key is proven")
            return _explained(tool.name, why)
    if target.relation == "other" and not target.events:
        unread = _unread_item_path(tool, parts, view)
        return _explained(tool.name, f"the path {tool.template} is no type's item or collection path, nor one the "
                                     "state holds a document at" + (f"; {unread}" if unread else ""))
    return None


def _unread_item_path(tool: Tool, parts: list[str], view: ViewResult) -> str | None:
    """Where the path is a type's collection path and one parameter but no read shows an item there:
    why ``view-implied-items`` did not take it as the type's item path (its last failed condition)."""
    if not parts or not parts[-1].startswith("{"):
        return None
    for entity_type in view.types:
        if entity_type.item_template or not _same(parts[:-1], _parts(entity_type.collection_template)):
            continue
        subject = f"{entity_type.name} at {tool.template}"
        reasons = [e.reason for e in view.traces if e.table == "view-implied-items" and e.subject == subject
                   and e.outcome == "miss" and e.reason]
        return (f"it is {entity_type.name}'s collection path and one parameter, which no read shows an item at, and "
                "view-implied-items did not take it as the type's item path"
                + (f" ({reasons[-1]})" if reasons else ""))
    return None


def _explained(subject: str, why: str) -> TraceEvent:
    return note(subject, "no effect", why, location="interpreter/plans/classify.py:classify")


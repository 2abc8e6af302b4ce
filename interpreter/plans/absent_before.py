"""Whether every successful call of a write at an item path named an entity the capture showed
absent just before it (write-effects: a create at the item path, told from an update by the
earlier absence). A PUT that answers 200 with a report rather than 201 (``{"results": [{"code":
200, "status": "Object was created"}]}``) creates what its path names exactly when nothing held it:
the initial state does not, no read or answer before the call shows it, and the capture looked,
an item read of it answering an absence or a list read of its type's whole collection (a line whose
recording proved whole membership) not listing it."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType, ViewResult
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.rules_engine import Decision
from capenv.interpreter.evidence.records import Record

from .classify import Target, classify
from .item_keys import call_key
from .timeline import Timeline


def classified(tool: Tool, target: Target, ctx: Any) -> Decision:
    """The tool classified on its whole tool's calls (``ctx``: the plan context): a per-value part
    (``collection_split``) is classified as its route, since what the method does at the template
    (an upsert answering 201 for a new id) is the route's, not a value's."""
    whole = ctx.whole_tools.get(tool.name, tool)
    calls = [ctx.records[o] for o in whole.record_ordinals]
    item = target.relation == "item"
    every, some = calls_met_absence(target.type, calls, ctx.timeline, ctx.view, ctx.other_callers) \
        if item else (False, False)
    held = calls_held(target.type, calls, ctx.timeline) if item else (False, ())
    unheld = item and target.type is not None and any(
        not _held_before(target.type, call, ctx.timeline) for call in calls if call.succeeded)
    made = _made_beside(tool, ctx) if item else ()
    answers = absent_answers(target.type, calls, ctx.timeline, ctx.view, ctx.other_callers) if some else ()
    return classify(tool, target, ctx.view, ctx.ruleset, tuple(call.status for call in calls), every,
                    ctx.item_upserts, held, some_met_absence=some, some_met_unheld=unheld, item_made_absent=made,
                    absent_answers=answers)


def absent_answers(entity_type: EntityType | None, calls: list[Record], timeline: Timeline, view: ViewResult,
                   other_callers: frozenset[int] = frozenset()) -> tuple[str, ...]:
    """What each successful call naming an entity the capture showed absent before it answered
    (``answer_kind``), in call order."""
    if entity_type is None:
        return ()
    whole = {o for read in view.views if read.type == entity_type.name for line in read.lines
             for o in line.all_record_ordinals}
    return tuple(answer_kind(call) for call in calls
                 if call.succeeded and _absent_before(entity_type, call, timeline, whole, other_callers))


def answer_kind(call: Record) -> str:
    """none, null, empty-object, empty-array, empty-envelope (an object each member of which holds
    null or an empty array or object: ``{"data": []}``, an envelope around nothing) or entity."""
    if not call.response.is_json:
        return "none" if not call.response.text else "entity"
    body = call.response.json_value
    if body is None:
        return "null"
    if body == {}:
        return "empty-object"
    if body == []:
        return "empty-array"
    if isinstance(body, dict) and all(member is None or member == [] or member == {} for member in body.values()):
        return "empty-envelope"
    return "entity"


def _made_beside(tool: Tool, ctx: Any) -> tuple[str, ...]:
    """The other write tools of the tool's method at a path ending in a parameter a successful call
    of which named an entity the capture showed absent just before it: each made what its path
    named, whatever status it answered (a 200 where another application says 201)."""
    from .classify import target_of
    from .item_keys import keyed_target

    memo: dict[str, bool] = ctx.__dict__.setdefault("item_made_absent", {})
    found = []
    for name, (method, _) in sorted(ctx.item_upserts.items()):
        if name == tool.name or method != tool.method:
            continue
        if name not in memo:
            other = next(t for t in ctx.manifest.tools if t.name == name)
            other = ctx.whole_tools.get(other.name, other)
            calls = [ctx.records[o] for o in other.record_ordinals]
            target = keyed_target(other, target_of(other, ctx.view, ctx.document_paths, [c.path for c in calls],
                                                   ctx.ruleset), ctx)
            memo[name] = target.relation == "item" and calls_met_absence(target.type, calls, ctx.timeline,
                                                                          ctx.view, ctx.other_callers)[1]
        if memo[name]:
            found.append(name)
    return tuple(found)


def calls_met_absence(entity_type: EntityType | None, calls: list[Record], timeline: Timeline,
                      view: ViewResult, other_callers: frozenset[int] = frozenset()) -> tuple[bool, bool]:
    """(every successful call, one at least, named an entity the capture showed absent before it;
    some did). ``other_callers``: records sent as another caller than the principal, whose reads
    show that caller's view: an item read answering it an absence, or a list leaving the entity
    out, shows nothing absent (Misago answers a thread hidden from a member 404)."""
    succeeded = [call for call in calls if call.succeeded]
    if entity_type is None or not succeeded:
        return False, False
    whole = {o for read in view.views if read.type == entity_type.name for line in read.lines
             for o in line.all_record_ordinals}  # a filtered or paged list leaving it out shows nothing
    met = [_absent_before(entity_type, call, timeline, whole, other_callers) for call in succeeded]
    return all(met), any(met)


def calls_held(entity_type: EntityType | None, calls: list[Record], timeline: Timeline) -> tuple[bool, tuple[int, ...]]:
    """(every successful call, one at least, named an entity held just before it: in the initial
    state or shown by a read or answer since; the statuses of the failed calls that named an entity
    nothing held). A PUT answering 201 to each held entity, and an absence to one never held, makes
    nothing: its 201 is how it answers an update."""
    succeeded = [call for call in calls if call.succeeded]
    if entity_type is None or not succeeded:
        return False, ()
    held = all(_held_before(entity_type, call, timeline) for call in succeeded)
    unheld = tuple(call.status for call in calls if not call.succeeded and not _held_before(entity_type, call, timeline))
    return held, unheld


def _held_before(entity_type: EntityType, call: Record, timeline: Timeline) -> bool:
    key = call_key(timeline, call)
    sighting = timeline.held_before(entity_type.name, key, call.ordinal)
    if sighting is not None:
        return sighting.value is not None
    return any(key in ids for (type_name, _), ids in timeline.initial_ids.items() if type_name == entity_type.name)


def _absent_before(entity_type: EntityType, call: Record, timeline: Timeline, whole: set[int],
                   other_callers: frozenset[int] = frozenset()) -> bool:
    key = call_key(timeline, call)
    if any(key in ids for (type_name, _), ids in timeline.initial_ids.items() if type_name == entity_type.name):
        return False
    held = timeline.held_before(entity_type.name, key, call.ordinal, other_callers)
    if held is not None:
        return held.value is None  # an item read answered its absence, and nothing showed it since
    return any(read.type == entity_type.name and read.record.ordinal in whole and key not in read.members
               and read.record.ordinal not in other_callers
               and read.record.finished_at <= call.started_at
               and not _written_between(timeline, read.collection, read.record.ordinal, call.ordinal)
               for read in timeline.list_reads)


def _written_between(timeline: Timeline, collection: str, after: int, before: int) -> bool:
    """Another write reached the collection (at or below its path) between the list read and the
    call: it may have made the entity the list did not show (a create whose answer no plan links)."""
    prefix = collection.rstrip("/") + "/"
    return any(after < ordinal < before and (timeline.records[ordinal].path == collection
                                             or timeline.records[ordinal].path.startswith(prefix))
               for ordinal in timeline.write_ordinals)

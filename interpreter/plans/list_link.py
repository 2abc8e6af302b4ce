"""Link a create through a list read (the ``write-create-links`` table), when no item read linked
it: the first list read of the collection the call's own path names, after the call, listing the
id its answer carries the entity under (doccano's span types, created in a row and listed once,
each read by id only after another tool's PATCH). The path names the type and the list shows the
id new there, so the id is the entity's own whatever its length."""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.models import EntityType, StateSnapshot
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.create_links import CreateLinkContext
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate
from capenv.interpreter.rules_engine.loader import RuleSet

from .collection_reads import collection_read_holding
from .link import AnswerPlaces, Link, entity_in_answer, names_collection_of
from .timeline import ListRead, Timeline, own_collection, same_collection

CREATE_LINKS = "write-create-links"


def link_by_list(call: Record, timeline: Timeline, initial: StateSnapshot, candidates: list[tuple[Any, str]],
                 other_write_between: Callable[[int, int], bool], target: EntityType | None, places: AnswerPlaces,
                 ruleset: RuleSet) -> tuple[Link | None, list[TraceEvent]]:
    """The link the table grants for the first candidate it links (or None), and its trace."""
    events: list[TraceEvent] = []
    if target is None or not names_collection_of(call.path, target):
        return None, events
    read = _first_list_after(timeline, target, call)
    if read is None:
        return None, events
    mine = own_collection(call.path, target)  # ids repeat across the type's collections
    held = {str(e.id) for c in initial.collections if c.type == target.name
            and (mine is None or same_collection(c.path, mine)) for e in c.entities}
    for value, where in candidates:
        key = str(value)
        observed, locator = entity_in_answer(call.response.json_value, target.id_field, key, places)
        context = CreateLinkContext(
            read=read.record.ordinal, listed=key in read.members,
            held_before=(key in held or timeline.seen_before(target.name, key, call.ordinal, mine)
                         or collection_read_holding(timeline, call.path, target.id_field, key, call) is not None),
            other_write_between=other_write_between(call.ordinal, read.record.ordinal),
            answer_carries_entity=observed is not None)
        decision = evaluate(ruleset, CREATE_LINKS, context, subject=f"record {call.ordinal} {where}={key!r}")
        events.extend(decision.events)
        if decision.ok and decision.yields.get("link"):
            return Link(target, call.path, value, observed, locator), events
    return None, events


def _first_list_after(timeline: Timeline, target: EntityType, call: Record) -> ListRead | None:
    """The first list read of the type in the call's own collection that began after it ended."""
    return next((read for read in timeline.list_reads
                 if read.type == target.name and read.record.started_at >= call.finished_at
                 and read.record.ordinal > call.ordinal and same_collection(read.collection, call.path)), None)

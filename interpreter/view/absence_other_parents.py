"""Whether an item view's recorded absence is given for an id its type holds under another parent
only (``view-absence-other-parents``, docs/absence.md).

Serving refuses such a read by default (``serving/reads/parents.refuse_held_elsewhere``): an
application may look a child up by its id alone and answer it whatever parent the path names. A read
recorded before the capture's first write that named an id the initial state held under another
parent only, answered missing, shows the application scoping the child to its parent; the view keeps
that record (``ReadView.other_parent_absence``) and serving answers the absence.
"""

from __future__ import annotations

from collections.abc import Iterable

from capenv.interpreter.bundle.models import CollectionState, EntityType, OtherParentAbsence, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.absence_other_parents import AbsenceOtherParentContext
from capenv.interpreter.predicates.absence_other_parents import OtherParentAbsence as Sighted
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-absence-other-parents"


def with_other_parent_absence(view: ReadView, records: dict[int, Record], types: dict[str, EntityType],
                              collections: Iterable[CollectionState], initial: set[int], ruleset: RuleSet,
                              traces: list[TraceEvent]) -> ReadView:
    """The item view with the record proving its absence holds under another parent, when one does.
    Only a view answering a missing entity by the identity, of a type collected per parent (its
    collection template names a path value) whose item path lies in its collections, is weighed;
    ``initial``: the reads recorded before the capture's first write."""
    entity_type = types.get(view.type or "")
    if view.kind != "item" or entity_type is None or (view.absence is None and view.missing is None) \
            or view.key_field not in (None, entity_type.id_field) or TABLE not in ruleset.tables \
            or "{" not in entity_type.collection_template or entity_type.shallow_items is not None:
        return view
    held: dict[tuple[str, ...], set[str]] = {}
    for collection in collections:
        if collection.type == entity_type.name:
            held.setdefault(tuple(split_path(collection.path)), set()).update(str(e.id) for e in collection.entities)
    sighted = []
    for ordinal in view.absence_records:
        record = records.get(ordinal)
        if record is None or ordinal not in initial:
            continue
        parts = split_path(record.path)
        own, raw_id = tuple(parts[:-1]), parts[-1] if parts else ""
        wanted = {raw_id, decode_once(raw_id)}
        if held.get(own, set()) & wanted:
            continue
        elsewhere = next((path for path, ids in held.items() if path != own and ids & wanted), None)
        if elsewhere is not None:
            sighted.append(Sighted(ordinal=ordinal, status=record.status, id=decode_once(raw_id),
                                   held_under="/" + "/".join(elsewhere)))
    if not sighted:
        return view
    decision = evaluate(ruleset, TABLE, AbsenceOtherParentContext(absences=sighted), subject=f"{view.tool} other parents")
    traces.extend(decision.events)
    if not decision.yields.get("scoped"):
        return view
    return view.model_copy(update={"other_parent_absence": OtherParentAbsence(
        rule_id=str(decision.rule_id), record=int(decision.evidence["record"]))})

"""Which ids an item view's recorded absence is not given for (``view-absence-id-shapes``,
docs/absence.md).

The learned absence (a 404 for a missing TSIG key) is proven for ids laid out as the ids the
capture shows for the view: the type's held ids, the ids its reads answered with success and
those they answered as missing. An id holding a feature none of them held (two separators side
by side, a separator first or last) may be refused by the application as malformed (PowerDNS
answers ``seed-key..`` 422), so each view keeps those features (``ReadView.unproven_id_shapes``)
and serving refuses such an id instead of answering the absence.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import unquote

from capenv.interpreter.bundle.models import CollectionState, EntityType, ReadView, UnprovenIdShape
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.absence_id_shapes import AbsenceIdShapeContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-absence-id-shapes"


def with_unproven_id_shapes(view: ReadView, records: dict[int, Record], types: dict[str, EntityType],
                            collections: Iterable[CollectionState], ruleset: RuleSet,
                            traces: list[TraceEvent]) -> ReadView:
    """The item view with the id features its recorded absence is not given for. Only a view that
    answers a missing entity (a learned absence or a recorded 400/404/410) and names it by the
    identity alone is weighed: a key member's values (a name) are the call's own text."""
    entity_type = types.get(view.type or "")
    if view.kind != "item" or entity_type is None or (view.absence is None and view.missing is None) \
            or entity_type.either_key is not None or view.key_field not in (None, entity_type.id_field) \
            or TABLE not in ruleset.tables:
        return view
    ids = {str(e.id) for c in collections if c.type == entity_type.name for e in c.entities}
    ids |= {_path_id(records[o]) for o in view.record_ordinals if o in records
            and (records[o].succeeded or o in view.absence_records)}
    if view.absence is not None:
        ids |= {_path_id(records[o]) for o in view.absence.records if o in records}
        if view.absence.id_value is not None:
            ids.add(view.absence.id_value)
    decision = evaluate(ruleset, TABLE, AbsenceIdShapeContext(ids=sorted(ids)), subject=f"{view.tool} absent ids")
    traces.extend(decision.events)
    found = tuple(UnprovenIdShape(rule_id=str(e.rule_id), pattern=e.evidence["pattern"],
                                  described=e.evidence["described"])
                  for e in decision.events if e.outcome == "match")
    return view.model_copy(update={"unproven_id_shapes": found}) if found else view


def _path_id(record: Record) -> str:
    parts = split_path(record.path)
    return unquote(parts[-1]) if parts else ""

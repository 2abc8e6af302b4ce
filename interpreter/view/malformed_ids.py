"""Item reads the application refused for the id's shape (``view-malformed-ids``, docs/absence.md).

Many applications check an id's shape before looking it up: FastAPI and pydantic answer 422,
others 400, Alertmanager 422 ``silenceID in path must be of type uuid``. Such an answer to an id
shaped unlike every id the type holds says how the application parses a path, nothing of what
the state holds, so it is neither a contradiction of the item view nor a sighting for the write
gate. Each item view keeps those reads (``ReadView.malformed_id_records``); serving replays one
only for that very call and refuses other ids of a shape it does not hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import unquote

from capenv.interpreter.bundle.models import CollectionState, EntityType, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import id_shape
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.malformed_ids import MalformedIdReadContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-malformed-ids"
UNWEIGHED = (401, 404, 410)
"""Sent without credentials (says nothing of the id), or an absence the gate accepts whatever the id."""


def with_malformed_ids(view: ReadView, records: dict[int, Record], types: dict[str, EntityType],
                       collections: Iterable[CollectionState], ruleset: RuleSet,
                       traces: list[TraceEvent]) -> ReadView:
    """The item view with its reads refused for the id's shape. Only a view naming its entity by
    the identity alone is weighed: a key member's values (a name) have no shape to compare."""
    entity_type = types.get(view.type or "")
    if view.kind != "item" or entity_type is None or entity_type.either_key is not None \
            or view.key_field not in (None, entity_type.id_field):
        return view
    held = {id_shape(str(e.id)) for c in collections if c.type == entity_type.name for e in c.entities}
    held |= {id_shape(_path_id(records[o])) for o in view.record_ordinals
             if records[o].succeeded and o not in view.absence_records}
    absent = {id_shape(_path_id(records[o])) for o in view.absence_records if o in records}
    if view.absence is not None and view.absence.id_value is not None:
        absent.add(id_shape(view.absence.id_value))
    found = []
    for ordinal in view.record_ordinals:
        record = records[ordinal]
        if not 400 <= record.status < 500 or record.status in UNWEIGHED or ordinal in view.absence_records:
            continue
        context = MalformedIdReadContext(status=record.status, id_shape=id_shape(_path_id(record)),
                                         held_shapes=sorted(held), absence_shapes=sorted(absent))
        decision = evaluate(ruleset, TABLE, context, subject=f"{view.tool} record {ordinal}")
        traces.extend(decision.events)
        if decision.yields.get("malformed"):
            found.append(ordinal)
    return view.model_copy(update={"malformed_id_records": tuple(found)}) if found else view


def _path_id(record: Record) -> str:
    parts = split_path(record.path)
    return unquote(parts[-1]) if parts else ""

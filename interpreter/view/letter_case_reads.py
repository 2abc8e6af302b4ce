"""Item reads of an id in another letter case that the application answered with the entity
(``view-letter-case-reads``).

An application may store an id folded to one letter case and read every spelling as it (Home
Assistant lower-cases an entity id on every call: ``/api/states/SENSOR.KITCHEN`` answers
``sensor.kitchen``); another answers such a spelling with the absence. Serving refuses another
letter case of a held id unless the capture proves which (``serving/state/spellings.py``); the view
keeps the reads that prove the application folds it (``ReadView.letter_case_reads``), and serving
then answers the held entity.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import EntityType, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import MISSING, decode_once, locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.letter_case_reads import CaseRead, LetterCaseReadContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-letter-case-reads"


def with_letter_case_reads(view: ReadView, records: dict[int, Record], types: dict[str, EntityType],
                           ruleset: RuleSet, traces: list[TraceEvent]) -> ReadView:
    """The item view with the reads proving the application reads its ids in any letter case. Only
    a view naming its entity by the identity, whose answers it locates, is weighed."""
    entity_type = types.get(view.type or "")
    if view.kind != "item" or entity_type is None or view.locator is None or TABLE not in ruleset.tables \
            or view.key_field not in (None, entity_type.id_field):
        return view
    absent = set(view.absence_records)
    answered: list[CaseRead] = []
    identities: dict[str, str] = {}  # folded -> as the application answered it
    for ordinal in view.record_ordinals:
        record = records.get(ordinal)
        if record is None or not record.succeeded or ordinal in absent or not record.response.is_json:
            continue
        entity = locate(record.response.json_value, view.locator)
        identity = entity.get(entity_type.id_field) if isinstance(entity, dict) and entity is not MISSING else None
        if not isinstance(identity, str):
            continue
        identities.setdefault(identity.casefold(), identity)
        value = _path_value(record)
        if value != identity and value.casefold() == identity.casefold():
            answered.append(CaseRead(ordinal=ordinal, path_value=value, identity=identity))
    refused = [CaseRead(ordinal=o, path_value=value, identity=identities[value.casefold()])
               for o in view.record_ordinals if o in absent and o in records
               for value in [_path_value(records[o])]
               if value.casefold() in identities and identities[value.casefold()] != value]
    if not answered:
        return view
    context = LetterCaseReadContext(type_name=entity_type.name, answered=answered, refused=refused)
    decision = evaluate(ruleset, TABLE, context, subject=f"{view.tool} ids in another letter case")
    traces.extend(decision.events)
    if not decision.yields.get("folded"):
        return view
    return view.model_copy(update={"letter_case_reads": tuple(r.ordinal for r in answered)})


def _path_value(record: Record) -> str:
    parts = split_path(record.path)
    return decode_once(parts[-1]) if parts else ""

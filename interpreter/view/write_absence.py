"""Learn how the application answers an item write of an id it does not hold (issue 16, "The
application's own absence answer"; write-effects "Refusals": "When the tool, or else an item view
of the type, recorded a 400, 404 or 410 response, an update or delete of a missing entity answers
with the latest such recording instead").

Some applications answer such a write with success: Strapi 5 deletes a missing document with a
204. Every successful recorded call of an item write tool is weighed by ``write-absence-answers``
with what the capture shows of the id its path names (as ``view-absence-answers`` reads an item
read's id); the tool's latest call a rule takes is its answer for a missing entity, served before
any recorded 400/404/410. The choice is traced with its record.
"""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.models import EntityType, Recording
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.write_absences import AbsenceWriteContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .id_history import IdHistories
from .absence_bodies import body_kind, counts_nothing
from .recordings import recording_of

TABLE = "write-absence-answers"
ITEM_WRITES = ("DELETE", "PUT", "PATCH")
REFUSALS = (400,)
"""Failed calls weighed too: a 400 may refuse what the call sent to a held entity."""


def learn_write_absences(manifest: Manifest, types: dict[str, EntityType], records: list[Record],
                         histories: IdHistories, ruleset: RuleSet,
                         traces: list[TraceEvent]
                         ) -> tuple[dict[str, Recording], dict[str, tuple[int, ...]], dict[str, int]]:
    """Per item write tool, its learned answer for a missing entity, the 400s it recorded for
    entities the capture holds (``held_refusal``), which serving never answers a missing one with,
    and the record of a success it answered for an id the capture never shows (``veto_view_absence``),
    after which the item view's absence answers none of its writes."""
    by_item = {t.item_template: t for t in types.values() if t.item_template}
    tools = [(tool, by_item[tool.template]) for tool in manifest.tools
             if tool.method in ITEM_WRITES and tool.template in by_item]
    if not tools:
        return {}, {}, {}
    by_ordinal = {r.ordinal: r for r in records}
    shown = histories.shown({t.id_field for _, t in tools})
    learned: dict[str, Recording] = {}
    held: dict[str, tuple[int, ...]] = {}
    vetoes: dict[str, int] = {}
    for tool, entity_type in sorted(tools, key=lambda pair: pair[0].name):
        chosen: tuple[Record, str] | None = None
        refusals: list[int] = []
        for ordinal in tool.record_ordinals:
            record = by_ordinal[ordinal]
            if not record.succeeded and record.status not in REFUSALS:
                continue
            id_value = unquote(split_path(record.path)[-1])
            history = histories.of(record, id_value, entity_type.id_field, shown.get(entity_type.id_field, set()))
            if history == "shown" and record.succeeded and histories.shown_only_by(record, id_value,
                                                                                   entity_type.id_field):
                history = "never-shown"  # only this very write names it
            context = AbsenceWriteContext(method=record.method, status=record.status, body=_write_body(record),
                                          id_history=history)
            decision = evaluate(ruleset, TABLE, context, subject=f"{tool.name} record {ordinal}")
            traces.extend(decision.events)
            if decision.yields.get("absence"):
                chosen = (record, decision.rule_id or "")
            elif decision.yields.get("held_refusal"):
                refusals.append(ordinal)
            elif decision.yields.get("veto_view_absence"):
                vetoes[tool.name] = ordinal
        if refusals:
            held[tool.name] = tuple(refusals)
        if chosen is not None:
            record, rule_id = chosen
            learned[tool.name] = recording_of(record)
            traces.append(TraceEvent(
                table=TABLE, rule_id=rule_id, outcome="match", subject=f"{tool.name} absence answer",
                location=ruleset.rule(rule_id).location,
                evidence={"record": record.ordinal, "status": record.status, "body": _write_body(record)},
                reason=(f"a {tool.method} of a missing {entity_type.name} answers as record {record.ordinal} did "
                        f"({record.status}, body {_write_body(record)}): the id it named was already deleted")))
    return learned, held, vetoes


def _write_body(record: Record) -> str:
    """``body_kind``, except that an object counting nothing (an ORM's delete result for no row) is
    zero-count: it names no entity, so it may answer for any id."""
    kind = body_kind(record)
    return "zero-count" if kind == "object" and counts_nothing(record.response.json_value) else kind

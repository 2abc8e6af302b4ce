"""Whether a write's answer object that names the entity shows it or reports on the call about it
(``write-answer-reports``). Located by its identity as item views locate an entity, Icinga's delete
answer ``{"results": [{"code": 200, "errors": [], "name": "lab", "status": "Object was deleted.",
"type": "HostGroup"}]}`` reads as the entity; rendered as one, serving would answer the entity's
fields where the application answered its report. Judged from the type's reads alone: the object
lacks fields every item read carries and holds members no read of the type shows. Serving then
answers the report as recorded with the fields the reads show rendered from the entity the call
wrote (``serving/writes/answers.py``), which the gate compares with every recorded answer."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import AnswerReport, EntityType, Locator, ViewResult
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.predicates.answer_reports import AnswerReportContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .link import entity_in_answer

TABLE = "write-answer-reports"


def answer_report(tool: str, answer: Any, locator: Locator, entity_type: EntityType, view: ViewResult,
                  ruleset: RuleSet, events: list[TraceEvent]) -> AnswerReport | None:
    """The report ``answer`` holds at ``locator``, or None when the object there may be the entity."""
    located = locate(answer, locator)
    if TABLE not in ruleset.tables or not isinstance(located, dict):
        return None
    context = AnswerReportContext(answer=located, shown_fields=_shown_fields(entity_type, view),
                                  required_fields=_required_fields(entity_type, view))
    decision = evaluate(ruleset, TABLE, context, subject=f"{tool} answer")
    events.extend(decision.events)
    if not decision.yields.get("report"):
        return None
    return AnswerReport(locator=locator, fields=tuple(decision.evidence.get("fields") or ()),
                        rule_id=decision.rule_id)


def _shown_fields(entity_type: EntityType, view: ViewResult) -> tuple[str, ...]:
    """Every field a read of the type showed: its views' and its held entities'."""
    names: dict[str, None] = {}
    for read in view.views:
        if read.type == entity_type.name:
            names.update(dict.fromkeys(read.shown_fields))
    for collection in view.state.collections:
        if collection.type == entity_type.name:
            for entity in collection.entities:
                names.update(dict.fromkeys(entity.value))
    return tuple(names)


def _required_fields(entity_type: EntityType, view: ViewResult) -> tuple[str, ...]:
    """The fields every recording of every item view of the type carried."""
    required: set[str] | None = None
    for read in view.views:
        if read.type == entity_type.name and read.kind == "item" and read.required_fields:
            required = set(read.required_fields) if required is None else required & set(read.required_fields)
    return tuple(sorted(required or ()))


def entity_or_report(tool: str, answer: Any, entity_type: EntityType, key: str, ctx: Any,
                     events: list[TraceEvent] | None = None
                     ) -> tuple[dict[str, Any] | None, Locator | None, AnswerReport | None]:
    """The entity a write's answer shows, located by its identity (``entity_in_answer``), or the
    report on the call the object there is instead: (entity, locator, None) or (None, None, report),
    (None, None, None) when the answer names neither."""
    entity, locator = entity_in_answer(answer, entity_type.id_field, key, ctx.answer_places)
    if entity is None or locator is None:
        return None, None, None
    report = answer_report(tool, answer, locator, entity_type, ctx.view, ctx.ruleset,
                           events if events is not None else [])
    return (None, None, report) if report is not None else (entity, locator, None)

"""What a document write does beyond the members it sent (seeds: "Documents"): whether a PUT
replaces the object it writes or merges into it (``document-writes``), and the members of that
object its exemplar's answer shows changed without being sent, each judged by ``update-changes``
as an update's field is. Serving writes a document's clocks only; another rule is no change
serving can make there, so the plan is unexplained-change."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import FieldRule
from capenv.interpreter.bundle.op_params import OP_PARAMS, json_params
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.document_writes import DocumentWriteContext
from capenv.interpreter.predicates.update_change_context import UpdateChangeContext
from capenv.interpreter.predicates.update_values import same_value
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .context import note
from .update_calls import CHANGES_TABLE

DOCUMENT_WRITES = "document-writes"
DOCUMENT_OPS = ("clock",)
"""The field ops a document write serves (``serving/writes/documents.py``)."""


def replaces(ruleset: RuleSet, exemplar: Record, body: dict[str, Any], before: Any, after: Any, subject: str,
             events: list[TraceEvent]) -> tuple[bool, str | None]:
    """Whether the write replaces its object (else it merges into it), by ``document-writes``, and
    the build reason its rule leaves the plan with (``pending``: unconfirmed), if any."""
    context = DocumentWriteContext(method=exemplar.method, body=body,
                                   before=before if isinstance(before, dict) else None,
                                   after=after if isinstance(after, dict) else None)
    decision = evaluate(ruleset, DOCUMENT_WRITES, context, subject=subject)
    events.extend(decision.events)
    pending = decision.yields.get("pending")
    if pending is not None:
        events.append(note(subject.split(" ", 1)[0], str(pending),
                           f"{decision.rule_id}: record {exemplar.ordinal} cannot tell a merge from a replace",
                           "interpreter/plans/document_changes.py"))
    return bool(decision.yields.get("replace")), (str(pending) if pending is not None else None)


def changed_members(ruleset: RuleSet, exemplar: Record, body: dict[str, Any], before: Any, after: Any,
                    tool: str, events: list[TraceEvent]) -> tuple[list[FieldRule], str | None]:
    """The field rules of the members the exemplar's answer shows changed unsent, and the build
    reason when one has no rule serving can apply to a document."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return [], None
    fields: list[FieldRule] = []
    for name, value in after.items():
        if name in body or (name in before and same_value(before[name], value)):
            continue
        context = UpdateChangeContext.model_construct(
            field=name, id_field="", is_action=False, before=before, after=after, body=body,
            started_at=exemplar.started_at, other_entities=[], later_read=None)
        decision = evaluate(ruleset, CHANGES_TABLE, context, subject=f"{tool} document.{name}")
        events.extend(decision.events)
        if not decision.yields.get("explained") or decision.serve not in DOCUMENT_OPS:
            why = (f"record {exemplar.ordinal} changed {name!r} without sending it, and "
                   + (f"{decision.rule_id} gives op {decision.serve!r}, which a document write does not serve"
                      if decision.yields.get("explained") else f"no rule of {CHANGES_TABLE} explains it"))
            events.append(note(tool, "unexplained-change", why, "interpreter/plans/document_changes.py"))
            return fields, "unexplained-change"
        evidence = dict(decision.evidence)
        params = json_params(OP_PARAMS[decision.serve].model_validate(evidence.pop("params", {})))
        fields.append(FieldRule(field=name, rule_id=decision.rule_id, op=decision.serve, params=params,
                                evidence={**evidence, "ordinal": exemplar.ordinal}))
    return fields, None

"""A split answer proved against the timeline (``write-answer-envelopes``): serving renders a
create's or update's answer from the state, its identity beside a projection of the entity, so
each recorded call the gate applies through serving's ``execute`` must have answered as serving
answers it on the copy. Any difference contradicts the plan: serving would answer that call
otherwise than the application did."""

from __future__ import annotations

from capenv.interpreter.bundle.models import Locator, WritePlan
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.serving.reads.render import same_kind_family
from capenv.serving.writes.calls import WriteResult

from .findings import GateNote, PlanFindings

LOCATION = "interpreter/gate/answer_checks.py:check_split_answer"


def check_split_answer(plan: WritePlan, record: Record, result: WriteResult, findings: PlanFindings) -> None:
    """Contradict a plan with a split answer whose rendering of ``record``'s call differs from the
    answer the call recorded."""
    if plan.response is None or plan.response.split is None:
        return
    _contradict_unless_recorded(record, result, findings, "answer", LOCATION,
                                {"split": plan.response.split.entity_member})


def _contradict_unless_recorded(record: Record, result: WriteResult, findings: PlanFindings, verb: str,
                                location: str, evidence: dict) -> None:
    """Contradict the plan when serving's answer to ``record``'s call differs from the recorded one."""
    recorded = record.response.json_value if record.response.is_json else None
    if same_json(recorded, result.body):
        return
    if findings.contradicted_by is None:
        findings.contradicted_by = record.ordinal
    findings.notes.append(GateNote(record.ordinal, (
        f"serving would {verb} {_short(result.body)} where the application answered {_short(recorded)}"),
        kind="contradiction", location=location, evidence=evidence))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def check_entity_answer_members(plan: WritePlan, record: Record, result: WriteResult, findings: PlanFindings) -> None:
    """Contradict a plan whose answer carries the written entity where serving's rendering of
    ``record``'s call shows members the recorded answer left out, or shows one as another kind of
    value (an object where the application answered a scalar: a reference its write serializer
    answers as an id while reads embed the entity): the application answers a projection the
    plan does not know, so serving would answer what the application does not; or where the
    recorded answer shows a member the plan leaves out (``omitted``)."""
    response = plan.response
    if response is None or response.split is not None or not response.carries_entity or not record.response.is_json:
        return
    locator = response.locator or Locator(kind="root")
    recorded, rendered = locate(record.response.json_value, locator), locate(result.body, locator)
    if not isinstance(recorded, dict) or not isinstance(rendered, dict):
        return
    extra = sorted(set(rendered) - set(recorded))
    # a member the plan leaves out (write-answer-omissions) that this answer showed after all
    shown = sorted(set(recorded) & set(response.omitted))
    reshaped = sorted(name for name in set(rendered) & set(recorded)
                      if not same_kind_family(rendered[name], recorded[name]))
    if not extra and not shown and not reshaped:
        return
    if findings.contradicted_by is None:
        findings.contradicted_by = record.ordinal
    said = [f"serving would answer members {', '.join(extra)} the application's answer left out"] if extra else []
    said += [f"serving would leave out members {', '.join(shown)} the application's answer showed"] if shown else []
    said += [f"serving would answer {', '.join(reshaped)} as another kind of value than the application's answer"
             ] if reshaped else []
    findings.notes.append(GateNote(record.ordinal, "; ".join(said), kind="contradiction",
                                   location="interpreter/gate/answer_checks.py:check_entity_answer_members",
                                   evidence={"members": extra or shown, "reshaped": reshaped}))


def check_report_answer(plan: WritePlan, record: Record, result: WriteResult, findings: PlanFindings) -> None:
    """Contradict a plan whose answer reports on the call (``write-answer-reports``) where serving's
    report for ``record``'s call, the entity's fields rendered from the copy, differs from the
    answer the call recorded: serving would report otherwise than the application did."""
    response = plan.response
    if response is None or response.report is None:
        return
    _contradict_unless_recorded(record, result, findings, "report",
                                "interpreter/gate/answer_checks.py:check_report_answer",
                                {"report": list(response.report.fields)})


def check_delete_answer_values(plan: WritePlan, record: Record, result: WriteResult, findings: PlanFindings) -> None:
    """Contradict a delete answering the entity where ``record``'s recorded answer shows a member
    otherwise than serving renders it from the copy (a soft delete's ``deleted_at`` stamped by the
    call): the call changed the entity rather than removed it, and serving would answer the
    entity as it was held."""
    response = plan.response
    if plan.effect != "delete" or response is None or not response.carries_entity or not record.response.is_json:
        return
    locator = response.locator or Locator(kind="root")
    recorded, rendered = locate(record.response.json_value, locator), locate(result.body, locator)
    if not isinstance(recorded, dict) or not isinstance(rendered, dict):
        return
    differing = sorted(name for name in set(recorded) & set(rendered) if not same_json(recorded[name], rendered[name]))
    if not differing:
        return
    if findings.contradicted_by is None:
        findings.contradicted_by = record.ordinal
    findings.notes.append(GateNote(record.ordinal, (
        f"the application's delete answered {', '.join(differing)} otherwise than the entity was held: "
        f"serving would answer {_short({n: rendered[n] for n in differing})} where it answered "
        f"{_short({n: recorded[n] for n in differing})}"),
        kind="contradiction", location="interpreter/gate/answer_checks.py:check_delete_answer_values",
        evidence={"members": differing}))

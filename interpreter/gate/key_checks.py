"""A create with a key (a get-or-create) proved against the timeline (issue 16 item 4): each of its
recorded calls takes the branch serving would take on the copy. A call the copy's key names a held
entity for gets it: the recorded call must have answered as the key's recording did (its status)
with the entity as the copy holds it, which confirms the get branch; a call naming no held key
creates, and must have answered as the create's exemplar did. Any other pairing contradicts the
plan: serving would create where the application got, or the reverse. The create branch is
confirmed by reads, as every create is."""

from __future__ import annotations

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.evidence.records import Record
from capenv.serving.writes.calls import WriteResult

from .findings import GateNote, PlanFindings

LOCATION = "interpreter/gate/key_checks.py:check_key_branch"


def answered_held(plan: WritePlan, record: Record) -> bool:
    """The recorded call answered as the key's recording (not as the create's exemplar)."""
    return plan.key is not None and plan.response is not None and record.status == plan.key.response.status \
        and record.status != plan.response.status


def check_key_branch(plan: WritePlan, record: Record, result: WriteResult | None, findings: PlanFindings,
                     refusal: Exception | None = None) -> None:
    """Confirm or contradict the branch serving took for a recorded call of a keyed create
    (``result`` None: serving refused the call, with ``refusal``)."""
    if plan.key is None:
        return
    if plan.key.branch == "conflict":
        if result is None and "key" in getattr(refusal, "where", {}):
            _contradict(findings, record, (
                f"serving refuses a create naming a held {', '.join(plan.key.members)} as a conflict, but the "
                f"application answered {record.status} here"), {"branch": "conflict"})
        return
    got = result is not None and result.provenance.get("view") == "get"
    expected = answered_held(plan, record)
    members = ", ".join(plan.key.members)
    if got and expected:
        answer = record.response.json_value if record.response.is_json else None
        if same_json(answer, result.body):
            findings.key_confirmations.append(record.ordinal)
            findings.notes.append(GateNote(record.ordinal, (
                f"its {members} names a held {plan.type} and it answered that entity as the copy holds it: the "
                "get branch is confirmed"), location=LOCATION, evidence={"branch": "get", "confirmed": True}))
            return
        _contradict(findings, record, "it answered the entity its key names otherwise than the copy holds it",
                    {"branch": "get"})
    elif got:
        _contradict(findings, record, (
            f"serving would get the held {plan.type} its {members} names, but the application answered "
            f"{record.status} as when it creates"), {"branch": "get"})
    elif expected:
        _contradict(findings, record, (
            f"the application answered {record.status} with an entity it held, but no held {plan.type} has the "
            f"{members} the call sent: serving would create"), {"branch": "create"})


def _contradict(findings: PlanFindings, record: Record, text: str, evidence: dict) -> None:
    if findings.contradicted_by is None:
        findings.contradicted_by = record.ordinal
    findings.notes.append(GateNote(record.ordinal, text, kind="contradiction", location=LOCATION,
                                   evidence=evidence))

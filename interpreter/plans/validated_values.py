"""Which body members of a create or update the application validates the values of, read from a
recorded refusal (``WritePlan.validated_values``).

PowerDNS answers 422 to a metadata ``kind`` it does not know; a model storing any value would
answer 201 there, a wrong answer. A refused call (a 4xx other than 401, 403, 404 and 409, which
say who calls, what exists or what clashes) whose body shows one member's value refused
(``write-validated-values``) makes serving accept only the values of that member the tool's
successful calls sent, and refuse any other with the state unchanged: an honest refusal where the
capture cannot say which other values the application takes.

Plans with no such refusal get no trace, so their bytes stay as they were.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import ValidatedValue, WritePlan
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.predicates.write_values import ValueRefusal, WriteValidatedValueContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext
from .references import JUDGED_EFFECTS, _calls, _sent_body

TABLE = "write-validated-values"


def with_validated_values(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built create or update plan with the members a recorded refusal shows validated, and their traces."""
    if TABLE not in ctx.ruleset.tables:
        return plans
    kin = _successes_by_written(plans, ctx)
    return _shared_by_type([_with_validated(plan, ctx, kin) if _judged(plan) or _teaches(plan) else plan
                            for plan in plans], ctx)


def _successes_by_written(plans: list[WritePlan], ctx: PlanContext) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """The bodies each judged write's successful calls sent, by what its members are written to
    (a layout the create's refusal shows is kept by the values the type's updates sent too)."""
    kin: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for plan in plans:
        if _judged(plan) or _teaches(plan):
            kin.setdefault(_written(plan), []).extend(
                (plan.tool, body) for record in _calls(plan, ctx)
                if record.succeeded and (body := _sent_body(record, plan)) is not None)
    return kin


def _shared_by_type(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """A member a recorded refusal shows validated on one write of a type is validated on every
    other create or update of the type accepting it (the application validates the field, whichever
    call sets it: PocketBase refuses a select value outside its list on a PATCH as on the POST that
    showed it), accepting the values either tool's successful calls sent."""
    learned: dict[tuple[str, str], ValidatedValue] = {}
    for plan in plans:
        for rule in plan.validated_values:
            learned.setdefault((_written(plan), rule.member), rule)
    if not learned:
        return plans
    result = []
    for plan in plans:
        own = {v.member for v in plan.validated_values}
        # a reference is checked against the state, and a learned id member besides (another caller's)
        accepted = {m.member for m in plan.members if m.admission == "accepted"} - own
        shared = [rule for (written, member), rule in learned.items()
                  if written == _written(plan) and member in accepted]
        if not _judged(plan) or not shared:
            result.append(plan)
            continue
        successes = [body for record in _calls(plan, ctx) if record.succeeded
                     and (body := _sent_body(record, plan)) is not None]
        added = []
        for rule in shared:
            values = list(rule.accepted)
            values += [v for v in _accepted(successes, rule.member, rule.by_element)
                       if not any(same_json(v, a) for a in values)]
            added.append(rule.model_copy(update={"accepted": tuple(values)}))
        result.append(plan.model_copy(update={"validated_values": plan.validated_values + tuple(added)}))
    return result


def _judged(plan: WritePlan) -> bool:
    """A built create, update or action of a type, or a write of a document (the document's own
    members, as Apprise's notification URLs)."""
    return plan.build_reason is None and (plan.effect in JUDGED_EFFECTS and plan.type is not None
                                          or plan.effect == "document")


def _teaches(plan: WritePlan) -> bool:
    """A write of a document left unbuilt (unconfirmed): its recorded refusals still show what the
    application validates in the document's members, which its other writes share."""
    return plan.effect == "document" and plan.build_reason is not None and bool(plan.members)


def _written(plan: WritePlan) -> str:
    """What a learned member is shared across: the type's writes, or the writes of one document."""
    return f"type {plan.type}" if plan.type is not None else f"document {plan.template}"


def _client_error(status: int) -> bool:
    """A refusal the table judges (4xx): which statuses refuse a value is its rules' ``statuses``."""
    return 400 <= status < 500


def _with_validated(plan: WritePlan, ctx: PlanContext,
                    kin: dict[str, list[tuple[str, dict[str, Any]]]]) -> WritePlan:
    calls = [(record, body) for record in _calls(plan, ctx) if (body := _sent_body(record, plan)) is not None]
    successes = [body for record, body in calls if record.succeeded]
    refusals = [(record, body) for record, body in calls if _client_error(record.status)]
    if not successes or not refusals:
        return plan
    members = [m.member for m in plan.members if m.admission != "not-accepted"
               and m.member not in {r.member for r in plan.references}]
    references = [m.member for m in plan.members if m.admission != "not-accepted"
                  and m.member in {r.member for r in plan.references}]
    kin_successes = [body for tool, body in kin.get(_written(plan), ()) if tool != plan.tool]
    validated: dict[str, ValidatedValue] = {}
    events: list[TraceEvent] = []
    for record, body in refusals:
        refusal = ValueRefusal(ordinal=record.ordinal, status=record.status, sent=body,
                               answer=record.response.text or "")
        decision = evaluate(ctx.ruleset, TABLE, WriteValidatedValueContext(refusal=refusal, successes=successes,
                                                                           members=members, references=references,
                                                                           kin_successes=kin_successes),
                            subject=f"{plan.tool} record {record.ordinal}")
        events.extend(decision.events)
        member = decision.evidence.get("member")
        if not decision.yields.get("validated") or member is None:
            continue
        by = decision.yields.get("by")
        if by == "ids":  # every id member the refused call sent anew: which one was refused no answer says
            for named in decision.evidence.get("members") or [member]:
                if named not in validated:
                    validated[named] = _accepted_ids(successes, named, decision, record.ordinal, record.status)
            continue
        if member in validated:
            continue
        validated[member] = ValidatedValue(member=member, accepted=tuple(_accepted(successes, member, by == "element")),
                                           rule_id=str(decision.rule_id), record=record.ordinal, status=record.status,
                                           by_shape=by == "shape", by_element=by == "element",
                                           refused_value=body.get(member) if by == "shape" else None,
                                           layout=decision.evidence.get("pattern") if by == "layout" else None,
                                           max_length=decision.evidence.get("max_length") if by == "length" else None)
    if not events:
        return plan
    return plan.model_copy(update={"validated_values": tuple(validated.values()),
                                   "traces": plan.traces + tuple(events)})


def _accepted(successes: list[dict[str, Any]], member: str, elements: bool = False) -> list[Any]:
    """The distinct values successful calls sent in the member (``elements``: its arrays' elements)."""
    accepted: list[Any] = []
    for body in successes:
        if member not in body:
            continue
        values = body[member] if elements and isinstance(body[member], list) else [] if elements else [body[member]]
        accepted.extend(v for v in values if not any(same_json(v, a) for a in accepted))
    return accepted


def _accepted_ids(successes: list[dict[str, Any]], member: str, decision: Any, ordinal: int,
                  status: int) -> ValidatedValue:
    """A member of ids validated: only the ids successful calls sent (an array's, each element)."""
    elements = any(isinstance(body.get(member), list) for body in successes)
    return ValidatedValue(member=member, accepted=tuple(_accepted(successes, member, elements)),
                          rule_id=str(decision.rule_id), record=ordinal, status=status, by_element=elements)

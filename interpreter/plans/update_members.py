"""Admit an update's body members (seeds: "Body members of a create", which updates reuse, and
"Updates.").

Each member any recorded call sent is judged by the ``update-members`` table on the first call
whose observation shows it (the exemplar's members first; a member only a later call stored
keeps the kind that call stored it as). Every other call that sent it must treat it alike:
serving takes one treatment, so a call that echoes what another transformed, or that sends the
identity where another sent a fixed value, or a fixed member at another value, is
unexplained-change. Held clocks are checked with the field rules (``update_changes``), since
what a later call may store there is a clock, not the sent value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import FieldRule, MemberRule
from capenv.interpreter.bundle.op_params import OP_PARAMS, json_params
from capenv.interpreter.predicates.update_member_kinds import UpdateMemberContext
from capenv.interpreter.predicates.update_required_members import Omission, UpdateRequiredContext
from capenv.interpreter.predicates.update_values import instant_and_format, same_value
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent, evaluate

from .member_kinds import with_sent_kinds
from .update_inputs import UpdateCall, UpdateInputs, UpdateProblem, subject_of

MEMBERS_TABLE = "update-members"
REQUIRED_TABLE = "update-required-members"
CHECKS_TABLE = "update-consistency"
"""The name the cross-call checks trace under (they are code, not a rule table)."""

IDENTITY = "update-member.identity"
IGNORED_IDENTITY = "update-member.ignored-identity"
NOT_SHOWN = "update-member.not-shown"
HELD_CLOCK = "update-member.held-clock"
HELD_MEMBERS = {HELD_CLOCK, "update-member.held-clock-stamped", "update-member.held-version"}
"""Members sent as the entity held them, which serving checks against the entity on every call:
each call is tested by the field rule (``update_call_checks``), not compared with the exemplar."""


def check_event(check: str, subject: str, problem: str | None, where: str,
                evidence: dict[str, Any] | None = None) -> TraceEvent:
    """A cross-call check as a trace event: a match when the call agrees, a miss with why not."""
    return TraceEvent(table=CHECKS_TABLE, rule_id=f"{CHECKS_TABLE}.{check}",
                      outcome="miss" if problem else "match", subject=subject, reason=problem,
                      evidence=evidence or {}, location=f"interpreter/plans/{where}")


def member_context(inputs: UpdateInputs, call: UpdateCall, member: str, *, sent: bool = True
                   ) -> UpdateMemberContext:
    # model_construct: the entities come validated from the inputs, and copying the type's
    # entities for every member of every call would cost more than the judging.
    return UpdateMemberContext.model_construct(
        member=member, sent=sent, id_field=inputs.id_field, path_id=inputs.path_id_of(call),
        before=call.before, after=call.after, body=call.body, started_at=call.started_at,
        other_entities=inputs.others_for(call),
        other_sent_values=inputs.sent_by_others(member, call))


def rules_for(ruleset: RuleSet, subject: str) -> set[str]:
    """The member rules that judge a sent member, or an unsent field (``yields.subject``)."""
    return {r.id for r in ruleset.table(MEMBERS_TABLE).rules if r.yields.get("subject") in (subject, "any")}


@dataclass
class MemberJudgement:
    member: str
    call: UpdateCall
    """The call whose observation the member's rule is learned from."""
    decision: Decision
    rule: MemberRule
    field_rule: FieldRule | None


@dataclass
class MemberAdmission:
    members: list[MemberJudgement] = field(default_factory=list)
    problems: list[UpdateProblem] = field(default_factory=list)
    events: list[TraceEvent] = field(default_factory=list)


def admit_members(ruleset: RuleSet, inputs: UpdateInputs) -> MemberAdmission:
    """Every member the tool's calls sent: its admission, the field rule it writes with, and
    the calls that treat it otherwise."""
    result = MemberAdmission()
    sent_rules = rules_for(ruleset, "sent")
    for member in _sent_members(inputs):
        decisions = [(call, evaluate(ruleset, MEMBERS_TABLE, member_context(inputs, call, member),
                                     subject=subject_of(member, call, inputs), only=sent_rules))
                     for call in inputs.calls if member in call.body]
        for _, decision in decisions:
            result.events.extend(decision.events)
        call, decision = next(((c, d) for c, d in decisions if d.rule_id != NOT_SHOWN), decisions[0])
        judgement = _judgement(member, call, decision, inputs, ruleset, result.events)
        judgement.rule = with_sent_kinds(judgement.rule, inputs.sent_by_others(member, call), ruleset,
                                         subject_of(member, call, inputs), result.events)
        result.members.append(judgement)
        if decision.yields.get("build_reason") == "unexplained-change":
            result.problems.append(UpdateProblem(check="changed-identity", subject=member, ordinal=call.ordinal,
                                                 detail=decision.yields.get("reason", "the stored id changed")))
        for other, other_decision in decisions:
            if other is call:
                continue
            problem = _disagreement(judgement, other, other_decision)
            where = "update_members.py:_disagreement"
            if problem is None:
                result.events.append(check_event("member-treated-alike", subject_of(member, other, inputs), None, where))
            elif problem != "no evidence":
                check, detail = problem
                result.events.append(check_event(check, subject_of(member, other, inputs), detail, where))
                result.problems.append(UpdateProblem(check=check, subject=member, ordinal=other.ordinal, detail=detail))
    return result


def _sent_members(inputs: UpdateInputs) -> list[str]:
    seen: dict[str, None] = {}
    for call in inputs.calls:
        for member in call.body:
            seen.setdefault(member, None)
    return list(seen)


def _judgement(member: str, call: UpdateCall, decision: Decision, inputs: UpdateInputs, ruleset: RuleSet,
               events: list[TraceEvent]) -> MemberJudgement:
    admission = decision.yields.get("admission", "not-accepted")
    if admission not in ("accepted", "recorded-only", "not-accepted"):
        admission = "not-accepted"
    sent = call.body[member]
    stored = (call.after or {}).get(member)
    if decision.serve == "unique":
        kind = None  # accepted with any value
    elif decision.serve in ("echo", "held-clock"):
        kind = json_kind(stored)  # the observation's kind, as a create keeps it
    elif admission != "not-accepted":
        kind = json_kind(sent)
    else:
        kind = None
    required = (not inputs.is_action and admission != "not-accepted"
                and _required(ruleset, member, inputs, events))
    rule = MemberRule(member=member, admission=admission, rule_id=decision.rule_id or "(default)",
                      required=required, kind=kind,
                      recorded_value=sent if admission == "recorded-only" else None,
                      reason=decision.yields.get("reason"),
                      path_id_only=decision.yields.get("path_id_only") is True)
    return MemberJudgement(member, call, decision, rule, _field_rule(member, call, decision))


def _required(ruleset: RuleSet, member: str, inputs: UpdateInputs, events: list[TraceEvent]) -> bool:
    """Whether a call must send ``member`` (the ``update-required-members`` table), judged on the
    later calls that left it out: what the entity held before each and showed after it."""
    context = UpdateRequiredContext(member=member, method=inputs.method,
                                    exemplar_sent=member in inputs.calls[0].body,
                                    omissions=[_omission(member, c, inputs) for c in inputs.calls[1:]
                                               if c.body_usable and member not in c.body])
    decision = evaluate(ruleset, REQUIRED_TABLE, context, subject=f"{member} required")
    events.extend(decision.events)
    return decision.yields.get("required") is True


def _omission(member: str, call: UpdateCall, inputs: UpdateInputs) -> Omission:
    """A later call that left ``member`` out: the value held before it (unless writes answered
    without the entity since it was shown), the value its observation shows, and the earlier
    call of the tool on the same entity that changed the member to the held value."""
    before = call.before if call.before is not None and (not call.before_stale_by or member in call.before_sure) \
        else None
    held_shown = before is not None and member in before
    stored_shown = call.after is not None and member in call.after
    held = before.get(member) if held_shown else None
    set_by = None
    if held_shown:
        key = inputs.path_id_of(call)
        for earlier in inputs.calls:
            if earlier is call:
                break
            if (member in earlier.body and inputs.path_id_of(earlier) == key and earlier.after is not None
                    and earlier.before is not None and member in earlier.after
                    and same_value(earlier.after[member], held)
                    and not (member in earlier.before and same_value(earlier.before[member], held))):
                set_by = earlier.ordinal
    return Omission(ordinal=call.ordinal, held=held, held_shown=held_shown,
                    stored=call.after.get(member) if stored_shown else None, stored_shown=stored_shown,
                    set_by=set_by)


def _field_rule(member: str, call: UpdateCall, decision: Decision) -> FieldRule | None:
    if decision.serve is None:
        return None
    evidence = dict(decision.evidence)
    params = evidence.pop("params", {})
    params = json_params(OP_PARAMS[decision.serve].model_validate(params))
    evidence["ordinal"] = call.ordinal
    return FieldRule(field=member, rule_id=decision.rule_id, op=decision.serve, params=params, evidence=evidence)


def _disagreement(plan: MemberJudgement, call: UpdateCall, decision: Decision
                  ) -> tuple[str, str] | str | None:
    """How ``call`` treats the member otherwise than the plan does (None: alike; "no evidence"
    when its observation cannot tell)."""
    member = plan.member
    if call.after is None or decision.rule_id == NOT_SHOWN or plan.decision.rule_id in HELD_MEMBERS:
        return "no evidence"
    plan_id, call_id = plan.decision.rule_id, decision.rule_id
    if call_id != plan_id:
        if {plan_id, call_id} == {IDENTITY, IGNORED_IDENTITY}:
            return ("identity-and-fixed", f"call {call.ordinal} uses {member} by {call_id}, "
                                          f"the plan by {plan_id}: serving could not take every call")
        return ("treated-otherwise", f"call {call.ordinal} treats {member} by {call_id}, the plan by {plan_id}")
    if plan.rule.admission == "recorded-only" and not same_value(plan.call.body[member], call.body[member]):
        return ("fixed-at-different-values", f"call {call.ordinal} sent {call.body[member]!r}, "
                                             f"the plan fixes {plan.call.body[member]!r}")
    if decision.serve == "constant" and not same_value(call.after.get(member), (plan.call.after or {}).get(member)):
        return ("stores-another-value", f"call {call.ordinal} stored {call.after.get(member)!r} for the value "
                                        f"the plan stores as {(plan.call.after or {}).get(member)!r}")
    return None


def unsent_clock_decisions(ruleset: RuleSet, inputs: UpdateInputs, call: UpdateCall) -> dict[str, Decision]:
    """The fields ``call`` did not send and left as they were, judged by the unsent rules (a
    whole-second clock naming the call's second may have been stamped or not)."""
    if call.before is None or call.after is None:
        return {}
    only = rules_for(ruleset, "unsent")
    decisions = {}
    for name, value in call.after.items():
        if name in call.body or name not in call.before or not same_value(call.before[name], value):
            continue
        if instant_and_format(value) is None:
            continue  # only a clock can have been stamped unseen
        decisions[name] = evaluate(ruleset, MEMBERS_TABLE, member_context(inputs, call, name, sent=False),
                                   subject=subject_of(name, call, inputs), only=only)
    return decisions

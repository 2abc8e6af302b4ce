"""Explain an update (seeds: "Updates." and the item-action sentences): which rule writes each
field the exemplar sent or changed, which members a call may send, and whether every recorded
call agrees with those rules.

``explain_update`` is pure: the plan builder hands it every successful recorded call of the
tool with the entity as held before and as observed after, and gets back the field rules
(with serving ops and their params), the member admission, the build reason and the traces.

- Sent members are judged by ``update-members`` (``update_members.py``).
- A field the exemplar changed without sending it is explained by ``update-changes``; none is
  unexplained-change.
- An unsent clock the exemplar left in its own whole second keeps the plan unconfirmed until
  another call shows it stamped.
- Every field rule is applied to every other recorded call: a rule that would give a call
  another value than it recorded, a call that kept a unique or renewed field, or a later read
  showing a field dropped is unexplained-change.
- An item action is confirmed only when a recorded call found every field it sets already set.
- A call whose entity before is out of date at a field (``UpdateCall.stale``: a write that did
  not show the entity came since it was shown) explains and tests no change there.

The inputs are ``update_inputs``, the judging of one field ``update_calls``; the cross-call checks are
``update_call_checks``.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import FieldRule
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent

from .update_call_checks import NEEDS_BEFORE, action_confirmation, dropped_fields, rule_on_calls
from .update_calls import CHANGES_TABLE, changed_unsent_fields, field_rule_of, judge_change
from .update_inputs import UpdateCall, UpdateExplanation, UpdateInputs, UpdateProblem, exemplar_subject, subject_of
from .update_members import CHECKS_TABLE, admit_members, check_event, unsent_clock_decisions
from .update_refused import refused_calls, refused_event

__all__ = ["UpdateCall", "UpdateExplanation", "UpdateInputs", "UpdateProblem", "explain_update"]


def explain_update(ruleset: RuleSet, inputs: UpdateInputs) -> UpdateExplanation:
    """The field rules, member admission and build reason of an update or item action, with
    every decision's trace (the tables' events and the cross-call checks')."""
    exemplar = inputs.calls[0]
    admission = admit_members(ruleset, inputs)
    events, problems = list(admission.events), list(admission.problems)
    fields: dict[str, FieldRule] = {j.member: j.field_rule for j in admission.members if j.field_rule}

    if exemplar.before is None:
        events.append(check_event("entity-before-known", exemplar_subject(inputs), "the entity as held before the "
                                  "exemplar is unknown: only the members it sent are explained",
                                  "update_changes.py:explain_update"))
    stale: set[str] = set()
    for name in changed_unsent_fields(exemplar):
        decision = judge_change(ruleset, inputs, exemplar, name)
        events.extend(decision.events)
        if _stale_change(exemplar, name, decision, inputs, events):
            stale.add(name)
        elif decision.yields.get("explained"):
            fields[name] = field_rule_of(name, exemplar, decision)
        else:
            problems.append(UpdateProblem(check="unexplained-change", subject=name, ordinal=exemplar.ordinal,
                                          detail=_unexplained_detail(name, decision)))

    pending = {}
    for name, decision in unsent_clock_decisions(ruleset, inputs, exemplar).items():
        events.extend(decision.events)
        if decision.yields.get("pending") == "unconfirmed":
            pending[name] = decision

    events.extend(_grouped_without_rule(admission.members, fields))
    # a call sends at least one member, unless the plan requires some (a PUT's) or is an action
    min_members = 0 if inputs.is_action or any(j.rule.required for j in admission.members) else 1
    # a later call serving refuses brings its entity to its outcome unattributed: no evidence here
    refused = refused_calls(inputs, [j.rule for j in admission.members], min_members)
    events.extend(refused_event(ordinal, why) for ordinal, why in refused.items())
    served = inputs.model_copy(update={"calls": [c for c in inputs.calls if c.ordinal not in refused]}) \
        if refused else inputs
    events.extend(_later_changes(ruleset, served, fields, pending, problems, stale))
    for rule in list(fields.values()):
        events.extend(rule_on_calls(ruleset, served, rule, problems))
    events.extend(dropped_fields(served, problems))

    unconfirmed = [f"{name} is a clock left in the exemplar's own second: nothing shows whether the update "
                   "stamps it" for name in pending]
    if inputs.is_action:
        events.extend(action_confirmation(served, list(fields.values()), unconfirmed))
    build_reason = "unexplained-change" if problems else "unconfirmed" if unconfirmed else None
    return UpdateExplanation(
        fields=list(fields.values()), members=[j.rule for j in admission.members],
        min_members=min_members,
        build_reason=build_reason, problems=problems, unconfirmed=unconfirmed, events=events)


GROUPED_ECHO = "update-member.grouped-echo"
GROUPED_OP = "grouped-members"


def _grouped_without_rule(members: list, fields: dict[str, FieldRule]) -> list[TraceEvent]:
    """A member accepted as stored inside its group is written only by the group's own rule: where
    the exemplar's change gave that group none, serving would accept the member and store nothing,
    so it is not accepted."""
    events = []
    for judgement in members:
        group = judgement.decision.evidence.get("group") if judgement.rule.rule_id == GROUPED_ECHO else None
        if group is None or (group in fields and fields[group].op == GROUPED_OP):
            continue
        reason = f"stored inside {group}, which no rule of this plan writes"
        judgement.rule = judgement.rule.model_copy(update={"admission": "not-accepted", "kind": None,
                                                           "required": False, "reason": reason})
        events.append(check_event("grouped-member-written", judgement.member, reason,
                                  "update_changes.py:_grouped_without_rule", {"group": group}))
    return events


def _stale_change(call: UpdateCall, name: str, decision: Decision, inputs: UpdateInputs,
                  events: list[TraceEvent]) -> bool:
    """A change of a field ``before`` may hold out of date (a write answered without the entity
    came since it was shown) may be that write's: no rule is learned from it unless the rule
    reads only the call and its answer (a clock, a slug, a set), and it is no problem either."""
    if not call.stale(name) or (decision.yields.get("explained") and decision.serve not in NEEDS_BEFORE):
        return False
    detail = (f"{name} may have changed in record(s) {', '.join(map(str, call.before_stale_by))}, writes that did "
              f"not show the entity: call {call.ordinal} explains no change of it")
    events.append(TraceEvent(table=CHECKS_TABLE, rule_id=f"{CHECKS_TABLE}.before-stale", outcome="match",
                             subject=subject_of(name, call, inputs), reason=detail,
                             evidence={"stale_by": list(call.before_stale_by)},
                             location="interpreter/plans/update_changes.py:_stale_change"))
    return True


def _unexplained_detail(name: str, decision: Decision) -> str:
    if decision.rule_id:
        return f"{name}: {decision.rule_id} (the id field takes no rule)"
    return f"{name} changed and no rule of {CHANGES_TABLE} explains it"


def _later_changes(ruleset: RuleSet, inputs: UpdateInputs, fields: dict[str, FieldRule],
                   pending: dict[str, Decision], problems: list[UpdateProblem], stale: set[str]) -> list[TraceEvent]:
    """Fields a later call changed unsent that no plan rule writes: a clock the exemplar left
    in its own second and this call shows stamped takes the clock rule; a field the exemplar's
    observation did not show, or showed changed from an out-of-date ``before`` (``stale``), takes
    this call's rule; a change from this call's own out-of-date ``before`` is no problem; any
    other is unexplained-change."""
    events: list[TraceEvent] = []
    shown_by_exemplar = inputs.calls[0].after or {}
    for call in inputs.calls[1:]:
        for name in changed_unsent_fields(call):
            if name in fields:
                continue
            decision = judge_change(ruleset, inputs, call, name)
            events.extend(decision.events)
            where = "update_changes.py:_later_changes"
            if _stale_change(call, name, decision, inputs, events):
                continue
            if name in pending and decision.serve == "clock":
                fields[name] = field_rule_of(name, call, decision)
                del pending[name]
                events.append(check_event("clock-shown-stamped", subject_of(name, call, inputs), None, where,
                                          {"ordinal": call.ordinal}))
            elif (name not in shown_by_exemplar or name in stale) and decision.yields.get("explained"):
                fields[name] = field_rule_of(name, call, decision)
            else:
                detail = f"call {call.ordinal} changed {name}, which the plan keeps"
                events.append(check_event("later-change-explained", subject_of(name, call, inputs), detail, where))
                problems.append(UpdateProblem(check="unexplained-change", subject=name, ordinal=call.ordinal,
                                              detail=detail))
    return events

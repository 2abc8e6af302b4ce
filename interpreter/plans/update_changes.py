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
"""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from capenv.interpreter.bundle.models import FieldRule, MemberRule
from capenv.interpreter.predicates.update_change_kinds import UpdateChangeContext
from capenv.interpreter.predicates.update_values import same_value
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent, evaluate
from capenv.serving.ops.params import OP_PARAMS

from .update_members import (
    CHECKS_TABLE, HELD_CLOCK, UpdateProblem, admit_members, check_event, member_context, subject_of,
    unsent_clock_decisions,
)

__all__ = ["UpdateCall", "UpdateExplanation", "UpdateInputs", "UpdateProblem", "explain_update"]

CHANGES_TABLE = "update-changes"
MEMBERS_TABLE = "update-members"
_ABSENT = object()

# What two calls must agree on for one field rule to serve both.
_COMPARED_PARAMS = {
    "clock": ("format",), "nested-clock": ("clocks",), "increment": ("by",), "slug": ("member",),
    "unique": ("format", "length"), "stamp": ("from_field",), "renewed": ("pointers",), "set": ("value",),
}
# Rules that read the value the entity held: a call whose entity before is unknown cannot test them.
_NEEDS_BEFORE = {"increment", "unique", "renewed", "nested-clock", "stamp", "held-clock"}


class UpdateCall(BaseModel):
    """One successful recorded call of the tool (the first is the exemplar)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    body: dict[str, Any] = Field(default_factory=dict)
    """The request body, envelope unwrapped (``{}`` for an action sending none)."""
    before: dict[str, Any] | None = None
    """The entity as held just before the call (None: unknown)."""
    after: dict[str, Any] | None = None
    """The entity as observed after the call: its response or a later read (None: unobserved)."""
    observed_by: Literal["response", "read"] = "response"
    started_at: datetime
    ordinal: int
    path_id: str | None = None
    """The id the call's path names (default: the entity's own id, or the plan's path id)."""
    later_read: dict[str, Any] | None = None
    """The first later item read of the entity when ``after`` is the call's own response: the
    read a dropped field shows in (a write's own response may leave fields out)."""
    observed_view_showed_entity: bool = True
    """The view that observed the call had shown the entity before, so a field it lacked before
    and shows now is a change (one the application fills in on update)."""
    before_stale_by: list[int] = Field(default_factory=list)
    """Writes answered without the entity since it was last shown (``held_before``): ``before``
    holds the members they sent, and any other field may have changed unseen."""
    before_sure: list[str] = Field(default_factory=list)
    """The members those writes sent (brought forward, so not stale)."""

    def stale(self, name: str) -> bool:
        """Whether ``before`` may be out of date at ``name``: a change there may be another
        write's, so no rule is learned or checked from it."""
        return bool(self.before_stale_by) and name not in self.before_sure


class UpdateInputs(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    method: Literal["PUT", "PATCH", "POST"]
    is_action: bool = False
    """An item action (``/{type}/{id}/archive``)."""
    id_field: str
    path_id: str
    """The id the exemplar's path names."""
    calls: list[UpdateCall] = Field(min_length=1)
    """Every successful recorded call of the tool, in order; the first is the exemplar."""
    type_entities: list[dict[str, Any]] = Field(default_factory=list)
    """The type's entities as last seen before the exemplar (the updated one is left out)."""

    @model_validator(mode="after")
    def _exemplar_observed(self) -> UpdateInputs:
        if self.calls[0].after is None:
            raise ValueError("the exemplar (the first call) must be observed: after is None")
        return self

    def path_id_of(self, call: UpdateCall) -> str:
        if call.path_id is not None:
            return call.path_id
        if call is self.calls[0]:
            return self.path_id
        for seen in (call.before, call.after):
            if seen is not None and self.id_field in seen:
                return str(seen[self.id_field])
        return self.path_id

    def others_for(self, call: UpdateCall) -> list[dict[str, Any]]:
        """The type's other entities: all but the one ``call`` updates."""
        key = self.path_id_of(call)
        if key not in self._others:
            self._others[key] = [e for e in self.type_entities if str(e.get(self.id_field)) != key]
        return self._others[key]

    @cached_property
    def _others(self) -> dict[str, list[dict[str, Any]]]:
        return {}


class UpdateExplanation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    fields: list[FieldRule] = Field(default_factory=list)
    """One per field the exemplar sent or changed (and per member a later call first stored)."""
    members: list[MemberRule] = Field(default_factory=list)
    min_members: int = 0
    """How many accepted members a call must send at least: PATCH and POST one; PUT requires
    each member the exemplar sent instead (``MemberRule.required``); an action may send none."""
    build_reason: Literal["unexplained-change", "unconfirmed"] | None = None
    problems: list[UpdateProblem] = Field(default_factory=list)
    """Why the plan is unexplained-change."""
    unconfirmed: list[str] = Field(default_factory=list)
    """Why the plan stays unconfirmed (when nothing is unexplained)."""
    events: list[TraceEvent] = Field(default_factory=list)


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

    events.extend(_later_changes(ruleset, inputs, fields, pending, problems, stale))
    for rule in list(fields.values()):
        events.extend(_rule_on_calls(ruleset, inputs, rule, problems))
    events.extend(_dropped_fields(inputs, problems))

    unconfirmed = [f"{name} is a clock left in the exemplar's own second: nothing shows whether the update "
                   "stamps it" for name in pending]
    if inputs.is_action:
        events.extend(_action_confirmation(inputs, list(fields.values()), unconfirmed))
    build_reason = "unexplained-change" if problems else "unconfirmed" if unconfirmed else None
    return UpdateExplanation(
        fields=list(fields.values()), members=[j.rule for j in admission.members],
        min_members=0 if inputs.is_action or inputs.method == "PUT" else 1,
        build_reason=build_reason, problems=problems, unconfirmed=unconfirmed, events=events)


def exemplar_subject(inputs: UpdateInputs) -> str:
    return f"update @{inputs.calls[0].ordinal}"


def changed_unsent_fields(call: UpdateCall) -> list[str]:
    """The fields ``call`` changed without sending them, a field it added included when the
    view that observed it had shown the entity."""
    if call.before is None or call.after is None:
        return []
    changed = []
    for name, value in call.after.items():
        if name in call.body:
            continue
        if name in call.before:
            if not same_value(call.before[name], value):
                changed.append(name)
        elif call.observed_view_showed_entity:
            changed.append(name)
    return changed


def change_context(inputs: UpdateInputs, call: UpdateCall, name: str) -> UpdateChangeContext:
    # model_construct: see update_members.member_context.
    return UpdateChangeContext.model_construct(
        field=name, id_field=inputs.id_field, is_action=inputs.is_action, before=call.before,
        after=call.after, body=call.body, started_at=call.started_at, other_entities=inputs.others_for(call),
        later_read=call.later_read)


def judge_change(ruleset: RuleSet, inputs: UpdateInputs, call: UpdateCall, name: str,
                 only: set[str] | None = None) -> Decision:
    return evaluate(ruleset, CHANGES_TABLE, change_context(inputs, call, name),
                    subject=subject_of(name, call, inputs), only=only)


def field_rule_of(name: str, call: UpdateCall, decision: Decision) -> FieldRule:
    evidence = dict(decision.evidence)
    params = OP_PARAMS[decision.serve].model_validate(evidence.pop("params", {})).model_dump(mode="python")
    evidence["ordinal"] = call.ordinal
    return FieldRule(field=name, rule_id=decision.rule_id, op=decision.serve, params=params, evidence=evidence)


def _stale_change(call: UpdateCall, name: str, decision: Decision, inputs: UpdateInputs,
                  events: list[TraceEvent]) -> bool:
    """A change of a field ``before`` may hold out of date (a write answered without the entity
    came since it was shown) may be that write's: no rule is learned from it unless the rule
    reads only the call and its answer (a clock, a slug, a set), and it is no problem either."""
    if not call.stale(name) or (decision.yields.get("explained") and decision.serve not in _NEEDS_BEFORE):
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


def _rule_on_calls(ruleset: RuleSet, inputs: UpdateInputs, rule: FieldRule,
                   problems: list[UpdateProblem]) -> list[TraceEvent]:
    """Apply ``rule`` to every other recorded call: it must give each call that could take it
    the value that call recorded."""
    events = []
    for call in inputs.calls:
        if call.ordinal == rule.evidence.get("ordinal"):
            continue
        outcome = _rule_on_call(ruleset, inputs, rule, call)
        if outcome is None:
            continue
        check, problem, decision = outcome
        if decision is not None:
            events.extend(decision.events)
        events.append(check_event(check, subject_of(rule.field, call, inputs), problem,
                                  "update_changes.py:_rule_on_call", {"rule": rule.rule_id}))
        if problem:
            problems.append(UpdateProblem(check=check, subject=rule.field, ordinal=call.ordinal, detail=problem))
    return events


def _rule_on_call(ruleset: RuleSet, inputs: UpdateInputs, rule: FieldRule, call: UpdateCall
                  ) -> tuple[str, str | None, Decision | None] | None:
    """(check, problem or None, the decision it rests on), or None when the call shows nothing
    of the rule (unobserved, or a member it sent, which ``update_members`` checks)."""
    name, op = rule.field, rule.op
    if call.after is None or name not in call.after:
        return None
    if op in _NEEDS_BEFORE and call.before is None:
        return None
    if op in _NEEDS_BEFORE and call.stale(name):
        return "before-stale", None, None  # the value before may be out of date: the call tests nothing
    new = call.after[name]
    old = call.before.get(name, _ABSENT) if call.before is not None else _ABSENT
    unchanged = old is not _ABSENT and same_value(old, new)
    if op == "held-clock":
        return _held_clock_on_call(ruleset, inputs, rule, call, old, unchanged)
    source = rule.field if rule.rule_id.startswith("update-member.") else rule.params.get("member")
    if source is not None and source not in call.body:
        # A call that does not send the member cannot take its rule: serving keeps the field.
        changed = call.before is not None and not unchanged and not call.stale(name) and (
            old is not _ABSENT or call.observed_view_showed_entity)
        problem = f"call {call.ordinal} changed {name} without sending {source}" if changed else None
        return "rule-gives-recorded-value", problem, None
    if rule.rule_id.startswith("update-member."):
        return None  # a call sending the member: update_members checks it treats it alike
    if op == "derived":
        return _derived_on_call(rule, call, old, new)
    if op in ("clock", "nested-clock") and unchanged:
        return None  # a clock a call kept shows nothing the rule could contradict
    decision = judge_change(ruleset, inputs, call, name, only={rule.rule_id})
    kept = op in ("unique", "renewed") and unchanged
    check = "kept-unique-or-renewed" if kept else "rule-gives-recorded-value"
    if not decision.matched:
        reason = decision.events[-1].reason if decision.events else "no match"
        return check, f"{rule.rule_id} would not give call {call.ordinal} the {new!r} it recorded: {reason}", decision
    mine = decision.evidence.get("params", {})
    for key in _COMPARED_PARAMS.get(op, ()):
        theirs = rule.params.get(key)
        if not same_value(_plain(mine.get(key)), _plain(theirs)):
            return ("treated-otherwise", f"call {call.ordinal} takes {rule.rule_id} with {key} {mine.get(key)!r}, "
                                         f"the plan with {theirs!r}", decision)
    return check, None, decision


def _plain(value: Any) -> Any:
    """Params as plain JSON (a learned format may be a model or its dump)."""
    return value.model_dump() if hasattr(value, "model_dump") else value


def _held_clock_on_call(ruleset: RuleSet, inputs: UpdateInputs, rule: FieldRule, call: UpdateCall, old: Any,
                        unchanged: bool) -> tuple[str, str | None, Decision | None] | None:
    """A held clock must be sent as the entity holds it, and the call must store a clock of
    its own: the held value again within its second, or one stamped near its start."""
    member = rule.params["member"]
    if member not in call.body:
        return None  # serving refuses such a call, and its observation cannot test the rule
    if old is _ABSENT or not same_value(call.body[member], old):
        return ("held-clock-sent-as-held", f"call {call.ordinal} sent {call.body[member]!r}, the entity held "
                                           f"{None if old is _ABSENT else old!r}: serving would refuse it", None)
    if unchanged:
        decision = evaluate(ruleset, MEMBERS_TABLE, member_context(inputs, call, member),
                            subject=subject_of(member, call, inputs), only={HELD_CLOCK})
        problem = None if decision.matched else f"call {call.ordinal} kept {member} outside its own second"
        return "held-clock-stamped", problem, decision
    decision = judge_change(ruleset, inputs, call, rule.field, only={"change.clock"})
    problem = None if decision.matched else f"call {call.ordinal} stored {call.after[rule.field]!r}, no clock of its own"
    return "held-clock-stamped", problem, decision


def _derived_on_call(rule: FieldRule, call: UpdateCall, old: Any, new: Any
                     ) -> tuple[str, str | None, Decision | None] | None:
    params = rule.params
    if params.get("requires_from") and (old is _ABSENT or not same_value(old, params.get("from_value"))):
        return None  # serving refuses the member on this entity: the call could not take the rule
    expected = params.get("value")
    if expected is None or same_value(new, expected):
        return "rule-gives-recorded-value", None, None
    return "rule-gives-recorded-value", f"call {call.ordinal} recorded {new!r}, the rule gives {expected!r}", None


def _dropped_fields(inputs: UpdateInputs, problems: list[UpdateProblem]) -> list[TraceEvent]:
    """Serving keeps every field an update does not write, so a later read showing a field the
    entity held gone is unexplained-change (a write's own response may leave fields out)."""
    events = []
    for call in inputs.calls:
        read = call.after if call.observed_by == "read" else call.later_read
        if call.before is None or read is None:
            continue
        dropped = [name for name in call.before if name not in read and not call.stale(name)]
        problem = f"a later read shows {', '.join(dropped)} dropped" if dropped else None
        events.append(check_event("no-field-dropped", f"update @{call.ordinal}", problem,
                                  "update_changes.py:_dropped_fields", {"dropped": dropped} if dropped else None))
        for name in dropped:
            problems.append(UpdateProblem(check="dropped-field", subject=name, ordinal=call.ordinal,
                                          detail=f"a later read of call {call.ordinal} shows {name} dropped"))
    return events


def _action_confirmation(inputs: UpdateInputs, fields: list[FieldRule], unconfirmed: list[str]) -> list[TraceEvent]:
    """One change cannot tell a set from a toggle: an action is confirmed only when it sets
    something and a recorded call found every field it sets already at that value."""
    sets = [rule for rule in fields if rule.op == "set"]
    found = [call.ordinal for call in inputs.calls if call.before is not None and sets and all(
        rule.field in call.before and not call.stale(rule.field)
        and same_value(call.before[rule.field], rule.params["value"]) for rule in sets)]
    if not sets:
        problem = "the action sets nothing"
    elif not found:
        problem = ("no recorded call found " + ", ".join(rule.field for rule in sets)
                   + " already at the value the action sets, so a set and a toggle look alike")
    else:
        problem = None
    if problem:
        unconfirmed.append(problem)
    return [check_event("action-set-confirmed", exemplar_subject(inputs), problem,
                        "update_changes.py:_action_confirmation", {"found_set_by": found} if found else None)]

"""Every field rule an update learned, applied to every other recorded call (seeds: "Updates."):
a rule that would give a call another value than it recorded, a call that kept a unique or
renewed field, a later read showing a field dropped, and an item action's set that no call
found already set."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import FieldRule
from capenv.interpreter.predicates.update_values import same_value
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent, evaluate

from .update_calls import judge_change
from .update_inputs import UpdateCall, UpdateInputs, UpdateProblem, exemplar_subject, subject_of
from .update_members import HELD_CLOCK, MEMBERS_TABLE, check_event, member_context

_ABSENT = object()

# What two calls must agree on for one field rule to serve both.
_COMPARED_PARAMS = {
    "clock": ("format",), "nested-clock": ("clocks",), "grouped-members": ("clocks",), "increment": ("by",), "slug": ("member",),
    "unique": ("format", "length"), "stamp": ("from_field",), "renewed": ("pointers",), "set": ("value",),
}
# Rules that read the value the entity held: a call whose entity before is unknown (or out of
# date at the field) cannot test them.
NEEDS_BEFORE = {"increment", "unique", "renewed", "nested-clock", "grouped-members", "stamp", "held-clock",
                "held-version"}


def rule_on_calls(ruleset: RuleSet, inputs: UpdateInputs, rule: FieldRule,
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
                                  "update_call_checks.py:_rule_on_call", {"rule": rule.rule_id}))
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
    if op in NEEDS_BEFORE and call.before is None:
        return None
    if op in NEEDS_BEFORE and call.stale(name):
        return "before-stale", None, None  # the value before may be out of date: the call tests nothing
    new = call.after[name]
    old = call.before.get(name, _ABSENT) if call.before is not None else _ABSENT
    unchanged = old is not _ABSENT and same_value(old, new)
    if op == "held-clock":
        return _held_clock_on_call(ruleset, inputs, rule, call, old, unchanged)
    if op == "held-version":
        return _held_version_on_call(rule, call, old, new)
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


def _held_version_on_call(rule: FieldRule, call: UpdateCall, old: Any, new: Any
                          ) -> tuple[str, str | None, Decision | None] | None:
    """A held version must be sent as the entity holds it, and the call must store it bumped."""
    member, by = rule.params["member"], rule.params.get("by", 1)
    if member not in call.body:
        return None  # serving refuses such a call, and its observation cannot test the rule
    if old is _ABSENT or not same_value(call.body[member], old):
        return ("held-version-sent-as-held", f"call {call.ordinal} sent {call.body[member]!r}, the entity held "
                                             f"{None if old is _ABSENT else old!r}: serving would refuse it", None)
    if isinstance(old, bool) or not isinstance(old, int) or not same_value(new, old + by):
        return "held-version-bumped", f"call {call.ordinal} stored {new!r}, not {old!r} plus {by}", None
    return "held-version-bumped", None, None


def _derived_on_call(rule: FieldRule, call: UpdateCall, old: Any, new: Any
                     ) -> tuple[str, str | None, Decision | None] | None:
    params = rule.params
    if params.get("requires_from") and (old is _ABSENT or not same_value(old, params.get("from_value"))):
        return None  # serving refuses the member on this entity: the call could not take the rule
    expected = params.get("value")
    if expected is None or same_value(new, expected):
        return "rule-gives-recorded-value", None, None
    return "rule-gives-recorded-value", f"call {call.ordinal} recorded {new!r}, the rule gives {expected!r}", None


def dropped_fields(inputs: UpdateInputs, problems: list[UpdateProblem]) -> list[TraceEvent]:
    """Serving keeps every field an update does not write, so a later read showing a field the
    entity held gone is unexplained-change (a write's own response may leave fields out)."""
    events = []
    for call in inputs.calls:
        read = call.after if call.observed_by == "read" else call.later_read
        if call.before is None or read is None:
            continue
        dropped = [name for name in call.before if name not in read and not call.stale(name)
                   and name not in call.unshown]
        problem = f"a later read shows {', '.join(dropped)} dropped" if dropped else None
        events.append(check_event("no-field-dropped", f"update @{call.ordinal}", problem,
                                  "update_call_checks.py:dropped_fields", {"dropped": dropped} if dropped else None))
        for name in dropped:
            problems.append(UpdateProblem(check="dropped-field", subject=name, ordinal=call.ordinal,
                                          detail=f"a later read of call {call.ordinal} shows {name} dropped"))
    return events


def action_confirmation(inputs: UpdateInputs, fields: list[FieldRule], unconfirmed: list[str]) -> list[TraceEvent]:
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
                        "update_call_checks.py:action_confirmation", {"found_set_by": found} if found else None)]

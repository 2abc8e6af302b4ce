"""Admit a create's body members: accepted, accepted only as recorded, or not accepted.

Seeds, write-effects.txt, "Body members of a create". The table ``create-members`` judges each
member the exemplar sent against the field rules ``create_fields`` chose. Every member the
exemplar sent that a call may send is required (accepted, or accepted with its recorded
value); a member not accepted is refused when sent, so it is not required (a call sending it
is a tool error naming the accepted members).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import FieldRule, MemberRule
from capenv.interpreter.predicates.create_contexts import CreateMemberContext, ExplainedField, HeldType
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent, evaluate

from .create_inputs import CreateInputs
from .member_kinds import with_sent_kinds

MEMBERS_TABLE = "create-members"
NOT_ACCEPTED = "not-accepted"


def admit_members(ruleset: RuleSet, inputs: CreateInputs, fields: list[FieldRule]
                  ) -> tuple[list[MemberRule], list[TraceEvent]]:
    """One ``MemberRule`` per member of the exemplar's body, in the body's order, with the traces."""
    explained = [ExplainedField(field=f.field, op=f.op, params=f.params, rule_id=f.rule_id) for f in fields]
    held = held_types(inputs)
    members: list[MemberRule] = []
    events: list[TraceEvent] = []
    for name, value in inputs.body.items():
        context = CreateMemberContext(member=name, value=value, id_field=inputs.id_field, entity=inputs.observed,
                                      fields=explained, type_entities=inputs.type_entities,
                                      other_calls=inputs.other_calls, held_types=held)
        decision = evaluate(ruleset, MEMBERS_TABLE, context, subject=f"{inputs.type_name} body.{name}")
        events.extend(decision.events)
        rule = member_rule(name, value, inputs.observed, decision)
        members.append(with_sent_kinds(rule, [body[name] for body in inputs.other_succeeded if name in body],
                                       ruleset, f"{inputs.type_name} body.{name}", events))
    return [_nested_as_sent(rule, inputs, events) for rule in members], events


def _nested_as_sent(rule: MemberRule, inputs: CreateInputs, events: list[TraceEvent]) -> MemberRule:
    """An accepted object member another recorded call sent holding only some of the exemplar's
    members (a schema's fields, not free keys) is accepted only holding exactly the exemplar's:
    what the application stores for a member left out (a default) the exemplar cannot show, so
    serving refuses rather than store the object as sent. An object another call filled with other
    keys altogether (a map of secrets) stays accepted as sent."""
    value = inputs.body.get(rule.member)
    if rule.admission != "accepted" or not isinstance(value, dict):
        return rule
    other = next((body[rule.member] for body in inputs.other_calls
                  if isinstance(body.get(rule.member), dict) and set(body[rule.member]) < set(value)), None)
    if other is None:
        return rule
    events.append(TraceEvent(table=MEMBERS_TABLE, rule_id=None, outcome="match",
                             subject=f"{inputs.type_name} body.{rule.member}",
                             evidence={"nested_members": list(value), "other_call_sent": sorted(other)},
                             reason=f"another recorded call sent {rule.member!r} holding {sorted(other)}: accepted "
                                    f"only holding exactly {list(value)}",
                             location="interpreter/plans/create_members.py:_nested_as_sent"))
    return rule.model_copy(update={"nested_members": tuple(value)})


def held_types(inputs: CreateInputs) -> list[HeldType]:
    """Every state type the copy held, with its paths, identity field and entities."""
    names = list(dict.fromkeys([*inputs.type_paths, *inputs.held_entities]))
    if inputs.type_name not in names:
        names.append(inputs.type_name)
    types = []
    for name in names:
        entities = inputs.held_entities.get(name)
        if entities is None and name == inputs.type_name:
            entities = inputs.type_entities
        id_field = inputs.type_id_fields.get(name, inputs.id_field if name == inputs.type_name else "id")
        types.append(HeldType(name=name, id_field=id_field, paths=inputs.type_paths.get(name, []),
                              entities=entities or []))
    return types


def member_rule(name: str, value: Any, observed: dict[str, Any], decision: Decision) -> MemberRule:
    """The plan's admission of one member from the table's decision.

    Its kind is the JSON type of the field it lands in whole (an echo's, a copy's target),
    else of the member as sent. A table with no match (it has none by construction: the last
    rule takes every member no field shows) fails closed: not accepted.
    """
    admission = decision.yields.get("admission", NOT_ACCEPTED)
    lands_in = decision.evidence.get("field")
    kind = json_kind(observed[lands_in]) if isinstance(lands_in, str) and lands_in in observed else json_kind(value)
    return MemberRule(
        member=name, admission=admission, rule_id=decision.rule_id or f"{MEMBERS_TABLE}.default",
        required=admission != NOT_ACCEPTED, kind=kind,
        recorded_value=value if admission == "recorded-only" else None,
        reason=decision.yields.get("reason"))

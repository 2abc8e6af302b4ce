"""Explain a create: a rule for each field of the entity it wrote, an admission for each member it sent.

Seeds, write-effects.txt, "Field rules for creates" and "Body members of a create". The
rules are the tables ``create-fields`` and ``create-members`` (rules/*.yaml); this module
builds their contexts from a create's exemplar and turns their decisions into the plan's
``FieldRule``s and ``MemberRule``s. Pure: no I/O, every decision traced.

Fields are judged twice. A template is rebuilt around values generated for *other* fields
(a URL ending in the new id), which are known only once every field has its rule; so a first
pass finds the generated fields (rules that yield ``generated: true``) and a second pass
judges every field knowing them. A generating rule never reads the generated values, so the
second pass keeps its decisions and only the second pass is traced.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.models import FieldRule, MemberRule
from capenv.interpreter.bundle.op_params import OP_PARAMS, json_params
from capenv.interpreter.predicates.create_contexts import CreateFieldContext
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent, evaluate

from .create_inputs import CreateInputs
from .create_members import admit_members

FIELDS_TABLE = "create-fields"
UNEXPLAINED_IDENTITY = "unexplained-change"
"""The build reason when no rule explains the identity field: served, every create would collide."""


class CreateExplanation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    fields: list[FieldRule]
    """One per observed field, in the entity's order (none for an identity no rule explains)."""
    members: list[MemberRule]
    """One per member the exemplar sent, in the body's order."""
    tied_to_collection: bool = False
    """A constant, or the text a template keeps, holds a path value of the call as a token:
    the create is served only for calls naming the exemplar's collection."""
    tied_by: list[str] = Field(default_factory=list)
    """The fields that tie it."""
    events: list[TraceEvent] = Field(default_factory=list)
    build_reason: str | None = None


def explain_create(ruleset: RuleSet, inputs: CreateInputs) -> CreateExplanation:
    """Field rules for every observed field, then the admission of every body member."""
    first = _judge_fields(ruleset, inputs, generated={})
    generated = {name: inputs.observed[name] for name, d in first.items() if d.yields.get("generated")}
    decisions = _judge_fields(ruleset, inputs, generated=generated)
    events: list[TraceEvent] = [e for d in decisions.values() for e in d.events]
    fields: list[FieldRule] = []
    tied_by: list[str] = []
    build_reason = None
    for name, decision in decisions.items():
        if decision.rule_id is None:
            build_reason = build_reason or UNEXPLAINED_IDENTITY
            continue
        fields.append(field_rule(name, decision))
        if decision.evidence.get("kept_path_values"):
            tied_by.append(name)
    members, member_events = admit_members(ruleset, inputs, fields)
    events.extend(member_events)
    return CreateExplanation(fields=fields, members=members, tied_to_collection=bool(tied_by), tied_by=tied_by,
                             events=events, build_reason=build_reason)


def _judge_fields(ruleset: RuleSet, inputs: CreateInputs, *, generated: dict[str, Any]) -> dict[str, Decision]:
    decisions = {}
    for name, value in inputs.observed.items():
        # model_construct: the inputs come validated, and copying the type's entities for every
        # field (validation copies each dict) cost more than judging it
        context = CreateFieldContext.model_construct(
            field=name, value=value, id_field=inputs.id_field, entity=inputs.observed, body=inputs.body,
            path_args=inputs.path_args, started_at=inputs.started_at, type_entities=inputs.type_entities,
            collection_entities=inputs.collection_entities, later_successes=inputs.later_successes,
            answered_calls=inputs.answered_calls,
            made_identities=inputs.made_identities,
            generated={k: v for k, v in generated.items() if k != name}, **_address_fields(inputs))
        decisions[name] = evaluate(ruleset, FIELDS_TABLE, context, subject=f"{inputs.type_name}.{name}")
    return decisions


def _address_fields(inputs: CreateInputs) -> dict[str, Any]:
    """Where the identity is the entity's own address, the text its identities in the create's
    collection begin and end with, around the segment the application generates."""
    address = inputs.address
    if address is None or not inputs.collection:
        return {}
    return {"address_head": f"{address.origin}{inputs.collection.rstrip('/')}/",
            "address_tail": "/" if address.trailing_slash else "", "address_origin": address.origin}


def field_rule(name: str, decision: Decision) -> FieldRule:
    """The plan's rule for one field: the matched rule's serving op, with the parameters its
    predicate learned validated against the op's contract (interpreter/bundle/op_params.py)."""
    op = decision.serve
    if op is None or op not in OP_PARAMS:
        raise ValueError(f"rule {decision.rule_id} names no serving op with a parameter contract ({op!r})")
    evidence = {k: v for k, v in decision.evidence.items() if k != "op_params"}
    params = OP_PARAMS[op].model_validate(decision.evidence.get("op_params", {}))
    return FieldRule(field=name, rule_id=decision.rule_id or "", op=op, params=json_params(params),
                     evidence=evidence)



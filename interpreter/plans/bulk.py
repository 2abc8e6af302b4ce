"""Bulk writes (seeds: "Bulk writes"): how a body names its entities, which members a bulk
update applies, and whether the exemplar's answer lets serving answer any ids.

The decisions are the rule tables' (``bulk-addresses``: the address a body uses;
``bulk-members``: each member's admission and whether it applies to the entities named); this
module turns their yields into the plan's address, ids, member and field rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import Address, EntityType, FieldRule, MemberRule
from capenv.interpreter.predicates.bulk_addresses import BulkBodyContext
from capenv.interpreter.predicates.bulk_members import BulkMemberContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

ADDRESSES = "bulk-addresses"
MEMBERS = "bulk-members"


@dataclass
class BulkAddress:
    """A body's address by the ``bulk-addresses`` table (None: it names no entities), the ids it
    names, and the table's trace."""

    address: Address | None
    ids: list[Any]
    problem: str
    events: list[TraceEvent] = field(default_factory=list)


def address_of(ruleset: RuleSet, body: Any, entity_type: EntityType, subject: str) -> BulkAddress:
    """The address a body uses, the ids it names, and (when None) why it names no entities."""
    decision = evaluate(ruleset, ADDRESSES, BulkBodyContext(body=body, id_field=entity_type.id_field),
                        subject=subject)
    events = list(decision.events)
    if not decision.ok:
        return BulkAddress(None, [], "the body names no entities (no array of ids or elements at the root or "
                                     "in one member)", events)
    member = decision.evidence.get("member")
    address = Address(by=decision.yields["by"], member=member, kind=decision.evidence.get("kind"))
    items = body[member] if member is not None else body
    ids = [i[entity_type.id_field] for i in items] if address.by == "elements" else list(items)
    return BulkAddress(address, ids, "", events)


def same_address(a: Address, b: Address) -> bool:
    return (a.by, a.member, a.kind) == (b.by, b.member, b.kind)


def admit_members(ruleset: RuleSet, body: Any, address: Address, id_field: str, subject: str,
                  bulk_effect: str) -> tuple[list[MemberRule], list[FieldRule], list[TraceEvent]]:
    """The body's members (each required, with its JSON kind) and, for a bulk update, a field
    rule for each member the ``bulk-members`` table says applies to the entities named: the
    members beside an ids member, an element's own members."""
    members: list[MemberRule] = []
    fields: list[FieldRule] = []
    events: list[TraceEvent] = []

    def judge(name: str, place: str) -> Any:
        context = BulkMemberContext(member=name, place=place, by=address.by, entities_member=address.member,
                                    id_field=id_field)
        where = "body" if place == "body" else "element"
        decision = evaluate(ruleset, MEMBERS, context, subject=f"{subject} {where}.{name}")
        events.extend(decision.events)
        if bulk_effect == "update" and decision.yields.get("applies"):
            fields.append(FieldRule(field=name, rule_id=decision.rule_id or f"{MEMBERS}.default",
                                    op=decision.serve or "echo", params={"member": name}))
        return decision

    if isinstance(body, dict):
        for name, value in body.items():
            decision = judge(name, "body")
            admission = decision.yields["admission"]
            members.append(MemberRule(member=name, admission=admission,
                                      rule_id=decision.rule_id or f"{MEMBERS}.default",
                                      required=admission != "not-accepted", kind=json_kind(value)))
    if address.by == "elements":
        elements = body[address.member] if address.member else body
        names: list[str] = []
        for element in elements:
            names += [k for k in element if k not in names]
        for name in names:
            judge(name, "element")
    return members, fields, events


def response_fits(answer: Any, has_body: bool, ids: list[Any], id_field: str) -> str | None:
    """None when serving can answer any ids with this response shape, else why not."""
    if not has_body or answer is None:
        return None
    if isinstance(answer, list):
        if len(answer) == len(ids) and all(isinstance(a, dict) and a.get(id_field) == i for a, i in zip(answer, ids)):
            return None
        return "the answer is an array that is not one element per id"
    text_ids = {str(i) for i in ids}
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif not isinstance(value, bool) and value is not None:
            found.append(str(value))

    walk(answer)
    if text_ids & set(found):
        return "the answer names the recorded ids"
    if str(len(ids)) in found:
        return "the answer holds a number equal to how many ids it named (a count)"
    return None

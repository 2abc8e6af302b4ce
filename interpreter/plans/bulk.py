"""Bulk writes (seeds: "Bulk writes"): how a body names its entities, which members a bulk
update applies, and whether the exemplar's answer lets serving answer any ids.

The decisions are the rule tables' (``bulk-addresses``: the address a body uses;
``bulk-members``: each member's admission and whether it applies to the entities named); this
module turns their yields into the plan's address, ids, member and field rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from capenv.interpreter.bundle.jsonvalue import JsonError, ProtoMemberError, is_exact, json_kind, loads
from capenv.interpreter.bundle.models import Address, EntityType, FieldRule, MemberRule
from capenv.interpreter.evidence.bodies import is_json_media_type
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline
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


def admit_bulk_body(record: Record, max_bytes: int) -> tuple[Any, str]:
    """The body a bulk call names its entities in, and why not when it is unusable.

    The exemplar's admission holds (a JSON media type, complete UTF-8 within the size limit,
    exact numbers, no ``__proto__``), but "Bulk writes" names entities in an array at the root
    ([{"Id": 9}]) as well as in an object's one member, and serving takes the body as recorded,
    "a DELETE included": so an array is admitted here, and a DELETE's body counts."""
    request = record.request
    if not request.retained:
        return None, "the capture did not retain the request body" + (f": {request.note}" if request.note else "")
    if request.text is None or request.text.strip() == "":
        return None, "the call sent no body to name its entities in"
    if request.size > max_bytes:
        return None, f"the request body is {request.size} bytes, past {max_bytes}"
    if not is_json_media_type(request.mime_type):
        return None, f"the request body's media type {request.mime_type!r} is not JSON"
    try:
        body = loads(request.text, allow_proto=False)
    except ProtoMemberError:
        return None, "the request body holds a __proto__ member"
    except JsonError as exc:
        return None, f"the request body is not JSON ({exc})"
    if not isinstance(body, (dict, list)):
        return None, f"the request body is a JSON {json_kind(body)}, not an array or an object"
    if not is_exact(body):
        return None, "the request body holds a number that is not exact"
    return body, ""


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


def applied_members(body: Any, address: Address, id_field: str, fields: tuple[FieldRule, ...] | list[FieldRule]
                    ) -> list[tuple[str, dict[str, Any]]]:
    """(entity key, the members the call applies to it) for each entity the body names, in body
    order: an ids member applies the body's other applied members to every id, an element its own."""
    if address.by == "elements":
        elements = body[address.member] if address.member else body
        return [(str(element[id_field]), {f.field: element[f.params.get("member", f.field)] for f in fields
                                          if f.params.get("member", f.field) in element}) for element in elements]
    ids = body[address.member] if address.member else body
    shared = {f.field: body[f.params.get("member", f.field)] for f in fields
              if isinstance(body, dict) and f.params.get("member", f.field) in body}
    return [(str(i), dict(shared)) for i in ids]


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


@dataclass
class BulkObservation:
    """The read that observed a bulk update (None: none did) and what it showed or why not."""

    ordinal: int | None
    problem: str = ""
    shown: list[str] = field(default_factory=list)
    """The named entities the read showed with every member the call sent them."""


def observe_update(timeline: Timeline, type_name: str, named: list[tuple[str, dict[str, Any]]], ordinal: int,
                   other_write_between: Callable[[int, int], bool]) -> BulkObservation:
    """The first later read showing a named entity (an item or list read, no other tool's write
    between) observes the bulk update; every named entity it shows must show the members the call
    sent it ("A bulk update's observation must show the members the call sent")."""
    firsts = {}
    for key, _ in named:
        sighting = timeline.first_after(type_name, key, ordinal, via=("item", "list"))
        while sighting is not None and sighting.value is None:  # an absence shows nothing of an update
            sighting = _next_sighting(timeline, sighting)
        if sighting is not None:
            firsts[key] = sighting
    if not firsts:
        return BulkObservation(None, "no later item or list read shows an entity the call named")
    read = min(s.ordinal for s in firsts.values())
    if other_write_between(ordinal, read):
        return BulkObservation(None, f"another tool's write came before record {read}, the first read showing a "
                                     "named entity: it may show that write instead")
    shown = []
    for key, members in named:
        sighting = firsts.get(key)
        if sighting is None or sighting.ordinal != read or key in shown:
            continue
        differing = [m for m, sent in members.items() if m not in sighting.value or sighting.value[m] != sent]
        if differing:
            return BulkObservation(None, f"record {read} shows entity {key} without the member(s) the call sent it "
                                         f"({', '.join(differing)})")
        shown.append(key)
    return BulkObservation(read, "", shown)


def _next_sighting(timeline: Timeline, sighting: Any) -> Any:
    later = [s for s in timeline.by_entity.get((sighting.type, sighting.key), [])
             if s.via in ("item", "list") and s.ordinal > sighting.ordinal]
    return later[0] if later else None

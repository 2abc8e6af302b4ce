"""The members a create or update may not repeat another entity's value of unproven
(``WritePlan.distinct_members``).

A create storing a member as sent in the entity's field of that name is proven by the gate for
the values its recorded calls sent. Where every value the type's held entities have in it and every
value those calls sent is distinct text (``write-distinct-values``), a call repeating one another
entity holds is one the capture cannot show the application taking (Strapi refuses a second
category named History): serving refuses it, state unchanged. An update of the type accepting the
member keeps to the same, so it cannot make two entities holding one value either; a member no create
of the type stores as sent (none is built, or it transforms the member) is judged on the update's own
calls (an experiment renamed to another's name: Aim answers 500).

A member a ``grouped-members`` rule stores as sent inside an object field (Roundup's
``attributes.name``) is judged on the values that object holds.

A member the create's key names (a get-or-create or a conflict the capture shows) is left to the
key; a client-chosen identity to its own checks; a member naming another entity (``references``:
many comments name one post) to the reference's, unless the holder copies members of the entity it
names (``reference_copies``: a dashboard's ``app_type``, its app's ``type``): the holder may then show
a join over a link the named entity keeps, one holder each (an app holding its dashboard, taken from
the first by a second naming it), judged by the same table with what it names and copies.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.body_members import body_object, chosen_member
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.bundle.models import DistinctMember, WritePlan
from capenv.interpreter.predicates.distinct_values import WriteDistinctValuesContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext

TABLE = "write-distinct-values"
STORED_AS_SENT = ("echo", "copy")
GROUPED = "grouped-members"


def with_distinct_members(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built create with the members no second entity may repeat a value of, and each update
    of its type accepting them."""
    if TABLE not in ctx.ruleset.tables:
        return plans
    judged = [_judged(plan, ctx) if _is_create(plan) else plan for plan in plans]
    by_type: dict[str, dict[str, DistinctMember]] = {}
    created: dict[str, set[str]] = {}  # per type, the members a create stores as sent (judged there)
    for plan in judged:
        if _is_create(plan):
            by_type.setdefault(str(plan.type), {}).update({d.member: d for d in plan.distinct_members})
            created.setdefault(str(plan.type), set()).update(stored_members(plan), joined_references(plan))
    return [_for_update(plan, by_type.get(str(plan.type), {}), created.get(str(plan.type), set()), ctx)
            if plan.effect == "update" else plan for plan in judged]


def _is_create(plan: WritePlan) -> bool:
    return plan.effect == "create" and plan.build_reason is None and plan.type is not None


def stored_members(plan: WritePlan) -> list[str]:
    """The accepted members the plan stores as sent in the field of the same name."""
    accepted = {m.member for m in plan.members if m.admission == "accepted"}
    keyed = set(plan.key.members) if plan.key is not None else set()
    chosen = chosen_member(plan)
    referring = {r.member for r in plan.references}
    return [r.field for r in plan.fields if r.op in STORED_AS_SENT and r.params.get("member") == r.field
            and "letter_case" not in r.params
            and r.field in accepted and r.field not in keyed and r.field != chosen and r.field not in referring]


def grouped_members(plan: WritePlan) -> list[tuple[str, str]]:
    """(group field, member) of the accepted members a ``grouped-members`` rule stores as sent
    under their own names inside an object field of the entity."""
    accepted = {m.member for m in plan.members if m.admission == "accepted"}
    keyed = set(plan.key.members) if plan.key is not None else set()
    chosen = chosen_member(plan)
    referring = {r.member for r in plan.references}
    return [(r.field, str(member)) for r in plan.fields if r.op == GROUPED for member in r.params.get("members") or ()
            if member in accepted and member not in keyed and member != chosen and member not in referring]


def _held(entity: Any, member: str, group: str | None) -> tuple[bool, Any]:
    """Whether the entity holds the member (inside ``group`` when one is named), and its value."""
    holder = entity.get(group) if group is not None and isinstance(entity, dict) else entity
    if isinstance(holder, dict) and member in holder:
        return True, holder[member]
    return False, None


def joined_references(plan: WritePlan) -> dict[str, tuple[str, list[str]]]:
    """Per accepted reference member whose holder copies members of the entity it names: (the type
    it names, the holder's fields holding the copies)."""
    accepted = {m.member for m in plan.members if m.admission == "accepted"}
    joined: dict[str, tuple[str, list[str]]] = {}
    for reference in plan.references:
        copied = [c.field for c in plan.reference_copies if c.member == reference.member]
        if copied and reference.member in accepted and not reference.many:
            joined[reference.member] = (reference.type, copied)
    return joined


def _judged(plan: WritePlan, ctx: PlanContext, decided: set[str] | frozenset[str] = frozenset()) -> WritePlan:
    """``decided``: members a create of the type judged already (an update keeps to its verdict)."""
    joined = {m: v for m, v in joined_references(plan).items() if m not in decided}
    members: list[tuple[str | None, str]] = [(None, m) for m in stored_members(plan) if m not in decided]
    members += [(g, m) for g, m in grouped_members(plan) if m not in decided] + [(None, m) for m in joined]
    if not members:
        return plan
    entities = [e.value for c in ctx.view.state.collections if c.type == plan.type for e in c.entities]
    tool = ctx.manifest.tool(plan.tool)
    records = [ctx.records[o] for o in tool.record_ordinals]
    calls = [(record, body) for record in records if record.succeeded and record.request.is_json
             and (body := body_object(plan, record.request.json_value)) is not None]
    distinct: list[DistinctMember] = []
    events: list[TraceEvent] = []
    for group, member in members:
        held: list[Any] = [value for v in entities for holds, value in [_held(v, member, group)] if holds]
        sending = [(record, b[member]) for record, b in calls if member in b]
        names, copied = joined.get(member, (None, [])) if group is None else (None, [])
        if names is not None:  # a null names nothing, so it repeats nothing
            held, sending = [v for v in held if v is not None], [(r, v) for r, v in sending if v is not None]
        sent = [v for _, v in sending]
        while_held = [_held_when_sent(ctx, str(plan.type), record.ordinal, member, group, v) for record, v in sending]
        decision = evaluate(ctx.ruleset, TABLE, WriteDistinctValuesContext(held=held, sent=sent, names=names,
                                                                           copied=copied, sent_while_held=while_held),
                            subject=f"{plan.tool} body.{member}")
        if decision.yields.get("distinct"):
            events.extend(decision.events)
            distinct.append(DistinctMember(member=member, rule_id=str(decision.rule_id), group=group, names=names))
    if not distinct:
        return plan
    return plan.model_copy(update={"distinct_members": tuple(distinct), "traces": plan.traces + tuple(events)})


def _held_when_sent(ctx: PlanContext, type_name: str, ordinal: int, member: str, group: str | None,
                    value: Any) -> bool:
    """Whether an entity of the type held the value in the member when the call ran: as last seen,
    unless the type's latest list read before the call no longer listed it (deleted: a 404 of a
    replayed page is no sighting). Taking a listed-away entity for gone only makes the member
    distinct the sooner, which refuses, never answers otherwise."""
    latest = ctx.timeline.reads_before(type_name, ordinal)
    last_list = max((s.ordinal for s in latest.values() if s.via == "list" and s.value is not None), default=None)
    initial = {str(e.id): e.value for c in ctx.view.state.collections if c.type == type_name for e in c.entities}
    entities = [s.value for s in latest.values()
                if s.value is not None and (last_list is None or s.ordinal >= last_list)]
    entities += [v for key, v in initial.items() if key not in latest and last_list is None]
    return any(holds and same_json(held, value) for entity in entities for holds, held in [_held(entity, member, group)])


def _for_update(plan: WritePlan, distinct: dict[str, DistinctMember], created: set[str], ctx: PlanContext) -> WritePlan:
    """The create's distinct members the update accepts; and, of those no create of the type stores as
    sent (no served create, or one transforming them), the update's own, judged on its own calls."""
    if plan.build_reason is not None or plan.type is None:
        return plan
    accepted = {m.member for m in plan.members if m.admission == "accepted"}
    referring = {r.member for r in plan.references}
    kept = tuple(d for member, d in distinct.items() if member in accepted
                 and (member not in referring or d.names is not None))
    own = _judged(plan, ctx, decided=created | set(distinct))
    return own.model_copy(update={"distinct_members": kept + own.distinct_members}) if kept else own

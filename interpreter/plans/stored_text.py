"""The text classes a write may not store unproven (``WritePlan.unproven_text``).

A plan that stores a member as sent (an ``echo`` or a ``copy`` of a top-level member) is proven
by the gate for the text its recorded calls sent. An application may store other text otherwise
(WordPress escapes ``&``, strips tags, trims white space), and the capture cannot show it: the
``write-stored-text`` table names each text class no recorded call sent in the member, and
serving refuses a value holding one, state unchanged, saying what it would accept.

Plans that store no member sent as text get no trace, so their bytes stay as they were.
"""

from __future__ import annotations

from capenv.interpreter.bundle.body_members import body_object, chosen_member, member_texts
from capenv.interpreter.bundle.models import UnprovenText, WritePlan
from capenv.interpreter.bundle.pointers import parse as parse_pointer
from capenv.interpreter.predicates.stored_text import WriteStoredTextContext
from capenv.interpreter.rules_engine import evaluate

from .context import PlanContext

TABLE = "write-stored-text"
STORED_AS_SENT = ("echo", "sorted-echo", "copy")
"""The serving ops that store a body member's value as the call sent it (``bundle/op_params``)."""
STORED_IN_GROUPS = ("grouped-members",)
"""The serving ops that store body members as sent inside an object field (ZenML's ``body`` and
``metadata``): a create's names them (``members``); an update's writes each accepted member the
entity holds no top-level field of."""
JUDGED_EFFECTS = ("create", "update", "action", "document")


def with_unproven_text(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built plan storing members as sent, with the text classes its calls never sent in them."""
    if TABLE not in ctx.ruleset.tables:
        return plans
    tools = {t.name: t for t in ctx.manifest.tools}
    return [_judged(plan, [ctx.records[o] for o in tools[plan.tool].record_ordinals], ctx)
            if plan.build_reason is None and plan.effect in JUDGED_EFFECTS and plan.tool in tools else plan
            for plan in plans]


def stored_members(plan: WritePlan) -> list[str]:
    """The top-level body members the plan stores as sent (at the top or inside a group), in field order."""
    members: list[str] = []
    top = {rule.field for rule in plan.fields}
    for rule in plan.fields:
        if rule.op in STORED_IN_GROUPS:
            grouped = rule.params.get("members")
            if grouped is None:
                grouped = [m.member for m in plan.members if m.admission == "accepted" and m.member not in top]
            members.extend(m for m in grouped if isinstance(m, str) and m not in members)
            continue
        if rule.op not in STORED_AS_SENT:
            continue
        member = rule.params.get("member")
        pointer = rule.params.get("pointer")
        if member is None and isinstance(pointer, str) and pointer.startswith("/"):
            member = parse_pointer(pointer)[0]
        if isinstance(member, str) and member not in members:
            members.append(member)
    return members


def _judged(plan: WritePlan, records: list, ctx: PlanContext) -> WritePlan:
    chosen = chosen_member(plan)  # a chosen identity's shape is judged whole (``plans/chosen_ids``)
    members = [m for m in stored_members(plan) if m != chosen]
    if not members:
        return plan
    bodies = [body_object(plan, r.request.json_value) for r in records if r.succeeded and r.request.is_json]
    unproven, events = [], []
    for member in members:
        # the member's text, or its array's text elements (tags): each is stored as sent
        sent = sorted({text for body in bodies if body is not None for text in member_texts(body.get(member))})
        if not sent:  # no text sent as it: the member's kind, not its text, is what serving checks
            continue
        decision = evaluate(ctx.ruleset, TABLE, WriteStoredTextContext(sent=sent), subject=f"{plan.tool} body.{member}")
        events.extend(decision.events)
        unproven.extend(UnprovenText(member=member, rule_id=str(e.rule_id), pattern=e.evidence["pattern"],
                                     described=e.evidence["described"])
                        for e in decision.events if e.outcome == "match")
    return plan.model_copy(update={"unproven_text": tuple(unproven), "traces": plan.traces + tuple(events)})

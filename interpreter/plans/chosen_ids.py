"""The shape a create's client-chosen identity must have (``WritePlan.chosen_id``).

Where a create takes the new entity's identity from the call (a body member the identity field
echoes or copies, or the path segment naming it), the client may send an id the application
refuses for its characters or length (Synapse answers 400 to a registration token holding a
space); a model storing any id answers success there, a wrong answer. The capture shows only the
ids the type held, so the ``write-chosen-ids`` table gives the shape they share (integers, UUIDs,
else the character classes they draw on and a spread of lengths), and serving refuses a chosen id
of another shape, state unchanged.

Plans whose identity the application makes (an identity, sequence or slug op) get no trace, so
their bytes stay as they were.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import ChosenId, WritePlan
from capenv.interpreter.predicates.chosen_ids import WriteChosenIdContext
from capenv.interpreter.rules_engine import evaluate

from .context import PlanContext

TABLE = "write-chosen-ids"
CHOSEN_BY_CALL = ("echo", "copy", "path")
"""The serving ops that store a value the call sent (``bundle/op_params``)."""


def with_chosen_ids(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built create plan whose identity the call chooses, with the shape it must have."""
    if TABLE not in ctx.ruleset.tables:
        return plans
    id_fields = {t.name: t.id_field for t in ctx.view.types}
    return [_with_chosen(plan, id_fields[plan.type], ctx) if _judged(plan, id_fields) else plan for plan in plans]


def _judged(plan: WritePlan, id_fields: dict[str, str]) -> bool:
    if plan.effect != "create" or plan.build_reason is not None or plan.type not in id_fields:
        return False
    return any(f.field == id_fields[plan.type] and f.op in CHOSEN_BY_CALL for f in plan.fields)


def type_ids(ctx: PlanContext, type_name: str) -> list[str]:
    """Every id the capture shows ``type_name`` holding: the initial state's, and those a read or a
    write's answer showed held (an id only answered as missing is not one the application took)."""
    ids = {key for (held_type, _), keys in ctx.timeline.initial_ids.items() if held_type == type_name for key in keys}
    for source in (ctx.timeline.by_entity, ctx.timeline.answers or {}):
        ids.update(key for (held_type, key), sightings in source.items()
                   if held_type == type_name and any(s.value is not None for s in sightings))
    return sorted(ids)


def _with_chosen(plan: WritePlan, id_field: str, ctx: PlanContext) -> WritePlan:
    decision = evaluate(ctx.ruleset, TABLE, WriteChosenIdContext(ids=type_ids(ctx, plan.type or "")),
                        subject=f"{plan.tool} {id_field}")
    chosen = None
    if decision.yields.get("judged"):
        evidence = decision.evidence
        chosen = ChosenId(field=id_field, rule_id=str(decision.rule_id), pattern=evidence["pattern"],
                          min_length=evidence.get("min_length"), max_length=evidence.get("max_length"),
                          described=evidence["described"], examples=tuple(evidence.get("examples", ())))
    return plan.model_copy(update={"chosen_id": chosen, "traces": plan.traces + tuple(decision.events)})

"""Each plan's verdict from what the gate found, by the ``verdicts`` precedence table."""

from __future__ import annotations

from capenv.interpreter.bundle.models import ViewResult, WritePlan
from capenv.interpreter.predicates.verdicts import PlanVerdictContext
from capenv.interpreter.rules_engine import RuleSet, evaluate
from capenv.serving.render import locate

from .replay import GateRun

TABLE = "verdicts"


def incomplete_entities(plan: WritePlan, view: ViewResult) -> bool:
    """An update or delete answering with the entity, when no initial entity holds every field its
    recorded answer shows (less the fields its rules write, but an increment's)."""
    if plan.effect not in ("update", "action", "delete") or plan.response is None or not plan.response.carries_entity:
        return False
    shown = locate(plan.response.body, plan.response.locator) if plan.response.locator else None
    if not isinstance(shown, dict):
        return False
    written = {f.field for f in plan.fields if f.op != "increment"}
    needed = set(shown) - written
    entities = [e.value for c in view.state.collections if c.type == plan.type for e in c.entities]
    return not any(needed <= set(entity) for entity in entities)


def apply_verdicts(plans: list[WritePlan], run: GateRun, view: ViewResult, ruleset: RuleSet) -> list[WritePlan]:
    result = []
    for plan in plans:
        found = run.findings.get(plan.tool)
        build_reason = plan.build_reason or ("unexplained-change" if found and found.unexplained_by else None)
        context = PlanVerdictContext(
            build_reason=build_reason, contradicted_by=found.contradicted_by if found else None,
            side_effect_by=found.side_effect_by if found else None,
            confirmations=len(found.confirmations) if found else 0,
            incomplete_entities=incomplete_entities(plan, view))
        decision = evaluate(ruleset, TABLE, context, subject=f"{plan.tool} verdict")
        served = bool(decision.yields.get("served"))
        reason_kind = decision.yields.get("reason")
        reason = None if served else (build_reason if reason_kind == "build" else str(reason_kind))
        # a later list placed the create by another of its insert candidates: serving places by it
        insert = run.insert_rules.get(plan.tool, plan.insert)
        result.append(plan.model_copy(update={
            "served": served, "reason": reason, "insert": insert,
            "contradicted_by": found.contradicted_by if found else None,
            "checked_record_ordinals": tuple(sorted(set(found.confirmations))) if found else (),
            "traces": plan.traces + decision.events}))
    return result

"""Which entities a delete or an update is not served for (``WritePlan.protected``).

A delete models the entity alone, and answers success for any held entity. Applications refuse to
delete the entity they fall back on or ship with (the default stack, the default printer profile,
a built-in group), so serving such a delete would answer success and drop an entity the
application keeps: a wrong answer. The ``delete-protected`` table names, from every value of the
type's entities the capture shows, the members marking such an entity (a naming member holding the
word default, a removable flag false, a builtin flag true) unless a recorded delete removed one;
serving refuses to delete an entity so marked (``serving/writes/protected``), state unchanged.
An update likewise models the entity alone: the ``update-protected`` table names the members
marking an entity the application does not let be edited (editable false, builtin true; Unleash
answers 500 to a PUT of a built-in strategy type), unless a recorded update changed one.
Plans of types with no such member get no trace, so their bytes stay as they were.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.jsonvalue import canonical
from capenv.interpreter.bundle.models import ProtectedEntity, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.predicates.delete_protected import DeleteProtectedContext
from capenv.interpreter.rules_engine import evaluate

from .context import PlanContext
from .referrers import _entities_seen
from .references import _calls

TABLES = {"delete": "delete-protected", "update": "update-protected"}
"""The table judging each effect's plans."""


def with_protected(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built item delete or update with the kinds of entity of its type serving refuses to
    delete or update."""
    if not any(_judged(p, ctx) for p in plans):
        return plans
    seen = {type_name: _distinct(values) for type_name, values in _entities_seen(ctx).items()}
    id_fields = {t.name: t.id_field for t in ctx.view.types}
    written = {effect: _written(plans, ctx, seen, id_fields, effect) for effect in TABLES}
    return [_with(plan, ctx, seen.get(plan.type or "", []), written[plan.effect].get(plan.type or "", []), id_fields)
            if _judged(plan, ctx) and plan.type in id_fields else plan for plan in plans]


def _distinct(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each value once, in the order first seen: every list read shows an unchanged entity again,
    and the tables' predicates walk every value of the type (per rule, per judged plan) for what
    one occurrence already shows (the first one holding a member stays the first)."""
    distinct: dict[bytes, dict[str, Any]] = {}
    for value in values:
        distinct.setdefault(canonical(value), value)
    return list(distinct.values())


def _judged(plan: WritePlan, ctx: PlanContext) -> bool:
    return (plan.effect in TABLES and TABLES[plan.effect] in ctx.ruleset.tables and plan.type is not None
            and plan.build_reason is None)


def _written(plans: list[WritePlan], ctx: PlanContext, seen: dict[str, list[dict[str, Any]]],
             id_fields: dict[str, str], effect: str) -> dict[str, list[dict[str, Any]]]:
    """Per type, the values the capture shows of the entities its successful item writes of
    ``effect`` named."""
    out: dict[str, list[dict[str, Any]]] = {}
    for plan in plans:
        if plan.effect != effect or plan.type not in id_fields:
            continue
        field = id_fields[plan.type]
        named = {unquote(split_path(r.path)[-1]) for r in _calls(plan, ctx) if r.succeeded and split_path(r.path)}
        out.setdefault(plan.type, []).extend(e for e in seen.get(plan.type, []) if str(e.get(field)) in named)
    return out


def _with(plan: WritePlan, ctx: PlanContext, entities: list[dict[str, Any]], written: list[dict[str, Any]],
          id_fields: dict[str, str]) -> WritePlan:
    if not entities:
        return plan
    context = DeleteProtectedContext(id_field=id_fields[plan.type or ""], entities=entities, written=written)
    decision = evaluate(ctx.ruleset, TABLES[plan.effect], context, subject=f"{plan.tool} {plan.type}")
    matched = [e for e in decision.events if e.outcome == "match"]
    if not matched:
        return plan
    protected = tuple(ProtectedEntity(rule_id=str(e.rule_id), pointer=pointer, words=tuple(e.evidence.get("words", ())),
                                      separators=e.evidence.get("separators", ""), value=e.evidence.get("value"),
                                      described=e.evidence["described"])
                      for e in matched for pointer in e.evidence["pointers"])
    return plan.model_copy(update={"protected": protected, "traces": plan.traces + tuple(decision.events)})

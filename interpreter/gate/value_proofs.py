"""A per-value plan no checked read confirmed, served on a sibling's proof (table
``write-collection-value-proofs``, predicates ``collection_value_proofs``).

Each value of a generic collection segment is gated on its own calls (``plans/collection_split``). A
value the capture made mid-way and wrote once (Parse's class made by its first create, its one
update read back once) has only the read its call's observation came from, which checks nothing of
the plan learned from it. The table decides whether the same tool proven on another value, writing
the same way, and that read answered from the copy as recorded prove this value too. A value it
does not prove keeps its verdict, the table's miss saying what would prove it.
"""

from __future__ import annotations

import json
from typing import Any

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.collection_value_proofs import CollectionValueProofContext, ValuePlanShape
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "write-collection-value-proofs"


def with_sibling_proofs(variants: list[WritePlan], calls: dict[str, tuple[int, ...]],
                        reproduced: dict[str, tuple[int, ...]], records: dict[int, Record],
                        ruleset: RuleSet | None, spelled: Any) -> list[WritePlan]:
    """``variants`` with each unserved one the table proves served; ``calls`` and ``reproduced``
    are keyed by the variants' values spelled (``spelled(dispatch_args)``): each value's recorded
    calls, and the reads that showed its call's observation answered from the copy as recorded."""
    if ruleset is None or TABLE not in ruleset.tables:
        return variants
    shapes = {spelled(v.dispatch_args): _shape(v, spelled) for v in variants}
    siblings = [shapes[spelled(v.dispatch_args)] for v in variants if v.served and v.checked_record_ordinals]
    result = []
    for variant in variants:
        value = spelled(variant.dispatch_args)
        if variant.served:
            result.append(variant)
            continue
        context = CollectionValueProofContext(
            plan=shapes[value], reason=variant.reason,
            calls=[o for o in calls.get(value, ()) if 200 <= records[o].status < 300],
            reproduced=list(reproduced.get(value, ())), siblings=[s for s in siblings if s.value != value])
        decision = evaluate(ruleset, TABLE, context, subject=f"{variant.tool} {value}")
        update: dict[str, Any] = {"traces": variant.traces + decision.events}
        if decision.yields.get("proven"):
            update.update(served=True, reason=None)
        result.append(variant.model_copy(update=update))
    return result


def _shape(plan: WritePlan, spelled: Any) -> ValuePlanShape:
    members = {m.member for m in plan.members}
    return ValuePlanShape(
        value=spelled(plan.dispatch_args), effect=plan.effect, answer=_answer(plan),
        generated=sorted(f"{f.field} {f.rule_id} {json.dumps(f.params, sort_keys=True)}"
                         for f in plan.fields if f.field not in members),
        member_rules=sorted({m.rule_id for m in plan.members if m.admission != "not-accepted"}
                            | {f.rule_id for f in plan.fields if f.field in members}),
        confirmations=list(plan.checked_record_ordinals))


def _answer(plan: WritePlan) -> str:
    """The exemplar's answer: its status and top-level members, or its kind."""
    response = plan.response
    if response is None:
        return "none"
    body = response.body if response.is_json else None
    if isinstance(body, dict):
        shape = "{" + ", ".join(sorted(body)) + "}"
    elif isinstance(body, list):
        shape = "array"
    else:
        shape = "json" if response.is_json else ("text" if response.text else "no body")
    return f"{response.status} {shape}"

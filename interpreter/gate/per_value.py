"""Per-value plans folded back into their tool's plan after the gate (``plans/collection_split``).

Each part of a tool split on a type-naming collection segment was built and gated as a tool of its
own; here they become the ``variants`` of one plan per tool, its rules the first served variant's,
served when any variant is. Every successful call of a variant not served is marked unexplained
(``gate_notes.UNEXPLAINED``): serving refuses it, so ``capenv verify`` does not count its endpoint.
"""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.collection_split import Split
from capenv.interpreter.rules_engine import RuleSet, TraceEvent

from .gate_notes import UNEXPLAINED
from .value_proofs import with_sibling_proofs


def merge_split(plans: list[WritePlan], splits: list[Split], records: dict[int, Record],
                reproduced: dict[str, tuple[int, ...]] | None = None, ruleset: RuleSet | None = None
                ) -> list[WritePlan]:
    """One plan per split tool again, its parts its ``variants``, in the tool's place; ``reproduced``
    (per part tool: the reads that showed its call's observation answered from the gate's copy) lets
    ``value_proofs`` serve a value on a sibling's proof."""
    by_part = {p.tool: p for p in plans}
    merged: dict[str, WritePlan] = {}
    for split in splits:
        variants = []
        calls: dict[str, tuple[int, ...]] = {}
        shown: dict[str, tuple[int, ...]] = {}
        for name, (values, part) in split.parts.items():
            plan = by_part.pop(name, None)
            if plan is None:
                continue
            calls[_spelled(values)] = part.record_ordinals
            shown[_spelled(values)] = (reproduced or {}).get(name, ())
            variants.append(plan.model_copy(update={"tool": split.tool.name, "dispatch_args": values,
                                                    "traces": tuple(_renamed(e, name, split.tool.name)
                                                                    for e in plan.traces)}))
        if not variants:
            continue
        variants = with_sibling_proofs(variants, calls, shown, records, ruleset, _spelled)
        if _makes_collection(split, records):
            variants = [v.model_copy(update={"makes_collection": True}) if v.effect == "create" else v
                        for v in variants]
        merged[split.tool.name] = _outer(split, variants, records)
    result = []
    for plan in plans:
        if plan.tool in by_part:
            result.append(plan)
        else:
            owner = next((s.tool.name for s in splits if plan.tool in s.parts), None)
            if owner is not None and owner in merged:
                result.append(merged.pop(owner))
    return result


def _makes_collection(split: Split, records: dict[int, Record]) -> bool:
    """Some value's first successful call came before any other write naming that value (in its path
    or as a string of its body): the tool made the value's collection itself (Parse's first create
    into a class makes it), not a write before it (a schema write), so a create may go where the
    state holds no collection yet. A read before it made nothing."""
    writes = sorted((r for r in records.values() if r.changes_state), key=lambda r: (r.started_at, r.ordinal))
    for values, part in split.parts.values():
        succeeded = [records[o] for o in part.record_ordinals if 200 <= records[o].status < 300]
        if not succeeded:
            continue
        first = min(succeeded, key=lambda r: (r.started_at, r.ordinal))
        named = {unquote(v) for v in values.values()}
        earlier = (r for r in writes if (r.started_at, r.ordinal) < (first.started_at, first.ordinal))
        if not any(_names(r, named) for r in earlier):
            return True
    return False


def _names(record: Record, values: set[str]) -> bool:
    if values & {unquote(segment) for segment in split_path(record.path)}:
        return True
    text = record.request.text or ""
    return any(f'"{value}"' in text for value in values)


def _renamed(event: TraceEvent, part: str, tool: str) -> TraceEvent:
    return event.model_copy(update={"subject": event.subject.replace(part, tool)}) \
        if isinstance(event.subject, str) and part in event.subject else event


def _outer(split: Split, variants: list[WritePlan], records: dict[int, Record]) -> WritePlan:
    served = [v for v in variants if v.served]
    primary = served[0] if served else variants[0]
    accepted = ", ".join(_spelled(v.dispatch_args) for v in served) or "none"
    traces: list[TraceEvent] = list(split.events)
    for variant in variants:
        traces.extend(variant.traces)
        if variant.served:
            continue
        part = next(p for values, p in split.parts.values() if values == variant.dispatch_args)
        for ordinal in part.record_ordinals:
            if 200 <= records[ordinal].status < 300:
                refusal = (f"no served plan for {_spelled(variant.dispatch_args)} "
                           f"({variant.reason or 'not served'}); served: {accepted}")
                traces.append(TraceEvent(table="gate", subject=split.tool.name, rule_id=None, outcome="miss",
                                         evidence={"record": ordinal, "kind": "call", UNEXPLAINED: True,
                                                   "refusal": refusal},
                                         reason=f"serving refuses this call: {refusal}",
                                         location="interpreter/gate/per_value.py:merge_split"))
    checked = sorted({o for v in variants for o in v.checked_record_ordinals})
    return primary.model_copy(update={
        "dispatch_params": split.params, "dispatch_args": {}, "variants": tuple(variants),
        "served": bool(served), "checked_record_ordinals": tuple(checked), "traces": tuple(traces)})


def _spelled(values: dict[str, str]) -> str:
    return ", ".join(f"{name} {value!r}" for name, value in values.items())

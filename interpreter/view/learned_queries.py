"""Learn what a list line's query means, only where the recordings prove it.

A line with a query is proven against a reference: the latest recording of a whole line of
the same collection that finished before the query read began, with no write to a related
path between. Each parameter's candidates come from the ``view-learned-queries`` table (all
that match, in table order); the first combination whose evaluation over the reference's
members reproduces every provable recording of the line is kept.
"""

from __future__ import annotations

import itertools
from typing import Callable

from capenv.interpreter.bundle.models import ListLine, QuerySpec, ReadView
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.query_candidates import QueryCandidateContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate
from capenv.serving.reads.queries import evaluate_queries
from capenv.serving.reads.render import project

from .query_references import Reference, References

TABLE = "view-learned-queries"


def learn_queries(view: ReadView, records: list[Record], by_ordinal: dict[int, Record],
                  is_write: Callable[[Record], bool], ruleset: RuleSet, traces: list[TraceEvent]) -> ReadView:
    if view.kind != "list" or not view.state_backed:
        return view
    whole = [line for line in view.lines if line.membership == "all" and not line.query]
    if not whole:
        return view
    whole_ordinals = sorted(o for line in whole for o in line.all_record_ordinals)
    references = References(view, whole, whole_ordinals, records, by_ordinal, is_write)
    lines, learned = [], {}
    for line in view.lines:
        if not line.query or line.membership == "all":
            lines.append(line)
            continue
        result = _learn_line(view, line, references, ruleset, traces)
        if isinstance(result, str):
            lines.append(line.model_copy(update={"reason": result}))
            continue
        specs, proof = result
        conflict = any(s.param in learned and learned[s.param] != s for s in specs)
        if conflict:
            lines.append(line.model_copy(update={"reason": "its parameters were learned otherwise on another line"}))
            continue
        learned.update({s.param: s for s in specs})
        lines.append(line.model_copy(update={"queries": specs, "state_backed": True, "reason": None,
                                             "record_ordinals": line.record_ordinals}))
    return view.model_copy(update={"lines": tuple(lines), "learned_queries": tuple(learned.values())})


def _learn_line(view: ReadView, line: ListLine, references: References, ruleset: RuleSet,
                traces: list[TraceEvent]) -> tuple[tuple[QuerySpec, ...], list[int]] | str:
    proofs = []
    for ordinal in line.record_ordinals:
        record = references.by_ordinal[ordinal]
        reference = references.reference(record, line)
        if reference is not None:
            proofs.append((record, reference))
    if not proofs:
        return "no whole listing of the collection, with no write between, to prove its query against"
    fields = sorted({k for _, ref in proofs for m in ref.members for k in m})
    options = []
    for name, value in line.query:
        decision = evaluate(ruleset, TABLE, QueryCandidateContext(param=name, value=value, fields=fields),
                            subject=f"{view.tool} ?{name}={value}")
        traces.extend(decision.events)
        specs = []
        for rule_id in decision.matched:
            rule = ruleset.rule(rule_id)
            evidence = next(e.evidence for e in decision.events if e.rule_id == rule_id)
            field = evidence.get("field")
            if rule.yields["kind"] == "equals":
                field = name
            elif rule.yields["kind"] == "sort":
                field = None  # the value names the field on each call
            specs.append(QuerySpec(param=name, kind=rule.yields["kind"], field=field,
                                   operator=evidence.get("operator", rule.yields.get("operator")), rule_id=rule_id))
        if not specs:
            return f"query parameter {name!r} has no learned meaning"
        options.append(specs)
    most = ruleset.setting("budgets", "max_query_combinations")
    combinations = list(itertools.islice(itertools.product(*options), most + 1))
    if len(combinations) > most:
        return "too many candidate meanings to prove"
    for combination in combinations:
        if all(_reproduces(view, record, reference, combination) for record, reference in proofs):
            return tuple(combination), [r.ordinal for r, _ in proofs]
    return "no candidate meaning of its query reproduces the recorded answer"


def _reproduces(view: ReadView, record: Record, reference: Reference, specs: tuple[QuerySpec, ...]) -> bool:
    answered = evaluate_queries(reference.members, specs, record.query)
    recorded = locate(record.response.json_value, view.locator)
    if not isinstance(recorded, list):
        return False
    rendered = [project(m, view.shown_fields) for m in answered]
    volatile = set(view.volatile_fields)
    return len(rendered) == len(recorded) and all(
        same_json({k: v for k, v in a.items() if k not in volatile}, {k: v for k, v in b.items() if k not in volatile})
        for a, b in zip(rendered, recorded))

"""Equality filters on a field holding values from a closed list (``view-query-vocabularies``).

A learned equality filter matches any text against the state, but an application may validate a
filter on a state or status field against its list (Ironic answers 400 'Provision state "flying" is
not valid'), where the state would list nothing. When the table says the field holds such values,
the filter's learned query keeps the texts the capture shows it holding or filtered by
(``QuerySpec.vocabulary``) and serving refuses another, saying which are accepted.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from capenv.interpreter.bundle.models import ListLine, QuerySpec, ReadView
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.query_vocabularies import QueryVocabularyContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .page_size_bounds import decoded

TABLE = "view-query-vocabularies"


def with_query_vocabularies(view: ReadView, records: list[Record], ruleset: RuleSet,
                            traces: list[TraceEvent]) -> ReadView:
    """The list view with each equality filter on a closed-list field kept to the texts shown."""
    if TABLE not in ruleset.tables:
        return view
    closed: dict[str, QuerySpec] = {}
    for spec in view.learned_queries:
        if spec.kind != "equals" or not spec.field:
            continue
        field = spec.field.replace("/", ".").split(".")[-1]
        values = _held(field, records)
        values.update(v for line in view.lines for n, v in decoded(line.query) if n == spec.param and v)
        context = QueryVocabularyContext(field=field, values=dict(values))
        decision = evaluate(ruleset, TABLE, context, subject=f"{view.tool} ?{spec.param}")
        traces.extend(decision.events)
        if decision.yields.get("vocabulary"):
            closed[spec.param] = spec.model_copy(update={"vocabulary": tuple(sorted(values))})
    if not closed:
        return view
    lines = tuple(_closed_line(line, closed) for line in view.lines)
    learned = tuple(closed.get(spec.param, spec) for spec in view.learned_queries)
    return view.model_copy(update={"lines": lines, "learned_queries": learned})


def _held(field: str, records: list[Record]) -> Counter[str]:
    """How many times each text the capture's successful JSON reads show ``field`` holding."""
    found: Counter[str] = Counter()
    for record in records:
        if record.method == "GET" and record.succeeded and record.response.is_json:
            _walk(record.response.json_value, field, found)
    return found


def _walk(value: Any, field: str, found: Counter[str]) -> None:
    if isinstance(value, dict):
        for name, inner in value.items():
            if name == field and isinstance(inner, str):
                found[inner] += 1
            else:
                _walk(inner, field, found)
    elif isinstance(value, list):
        for inner in value:
            _walk(inner, field, found)


def _closed_line(line: ListLine, closed: dict[str, QuerySpec]) -> ListLine:
    if not line.queries or not any(q.param in closed for q in line.queries):
        return line
    return line.model_copy(update={"queries": tuple(closed.get(q.param, q) if q.kind == "equals" else q
                                                    for q in line.queries)})

"""Page sizes the application bounds (``view-page-size-bounds``).

A page size learned over the state pages any collection by any size, but many applications refuse
a size beyond a bound (WordPress answers ``per_page`` above 100 or below 1 with 400
``rest_invalid_param``). When the capture shows a read refused for a size beyond every size
successful reads of the parameter sent, the parameter is bounded somewhere between: its learned
query keeps the least and greatest size the view's own successful reads sent (``QuerySpec.sizes``)
and serving refuses a size outside them rather than answering a page the application refuses.
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from capenv.interpreter.bundle.models import ListLine, QuerySpec, ReadView
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.page_size_bounds import PageSizeRefusalContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-page-size-bounds"


def with_page_size_bounds(view: ReadView, records: list[Record], ruleset: RuleSet,
                          traces: list[TraceEvent]) -> ReadView:
    """The list view with each learned page size the capture shows bounded kept to its own sizes."""
    bounded: dict[str, QuerySpec] = {}
    for spec in view.learned_queries:
        if spec.kind != "limit":
            continue
        own = _sizes(spec.param, (line.query for line in view.lines))
        if own and _shows_bound(view, spec.param, records, ruleset, traces):
            bounded[spec.param] = spec.model_copy(update={"sizes": (min(own), max(own))})
    if not bounded:
        return view
    lines = tuple(_bounded_line(line, bounded) for line in view.lines)
    learned = tuple(bounded.get(spec.param, spec) for spec in view.learned_queries)
    return view.model_copy(update={"lines": lines, "learned_queries": learned})


def _shows_bound(view: ReadView, param: str, records: list[Record], ruleset: RuleSet,
                 traces: list[TraceEvent]) -> bool:
    accepted = sorted(_sizes(param, (r.query for r in records if r.method == "GET" and r.succeeded)))
    for record in records:
        if record.method != "GET" or not 400 <= record.status < 500:
            continue
        value = next((v for n, v in decoded(record.query) if n == param), None)
        if value is None:
            continue
        context = PageSizeRefusalContext(status=record.status, value=value, accepted=accepted)
        decision = evaluate(ruleset, TABLE, context, subject=f"{view.tool} ?{param} record {record.ordinal}")
        traces.extend(decision.events)
        if decision.yields.get("bounded"):
            return True
    return False


def decoded(query: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """The query form-decoded, as learned queries name their parameters."""
    return [(unquote_plus(name), unquote_plus(value)) for name, value in query]


def _sizes(param: str, queries) -> set[int]:
    found = set()
    for query in queries:
        for name, value in decoded(query):
            if name == param and value.strip().lstrip("-").isdigit():
                found.add(int(value))
    return found


def _bounded_line(line: ListLine, bounded: dict[str, QuerySpec]) -> ListLine:
    if not line.queries or not any(q.param in bounded for q in line.queries):
        return line
    return line.model_copy(update={"queries": tuple(bounded.get(q.param, q) if q.kind == "limit" else q
                                                    for q in line.queries)})

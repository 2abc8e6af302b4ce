"""Default page sizes the replay shows (``view-default-page-caps``).

Many applications cap a list at a default page size when the call names none, with nothing in
a bare array saying so: once a create takes the collection past the cap, the unqueried list
answers its first members only. The replay notes, for each list view, how many members each
unqueried read of a whole line listed while the copy held more; where the table finds one size
throughout, the view records it (``ReadView.default_page``) and the gate runs again predicting
the capped lists, as serving renders them (``serving/reads/default_pages``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.models import DefaultPage, ViewResult
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.default_pages import DefaultPageContext
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate_table
from capenv.serving.state.index import StateIndex

TABLE = "view-default-page-caps"


@dataclass
class DefaultPageEvidence:
    capped: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """List view (tool) -> (record, members listed) of unqueried reads listing fewer than the copy held."""
    largest: dict[str, int] = field(default_factory=dict)
    """List view (tool) -> the most members an unqueried read of a whole line listed."""

    def observe(self, record: Record, read_view: Any, copy: StateIndex, run: Any) -> None:
        """Note an unqueried list read of a whole line: how many it listed, against the copy."""
        if read_view.kind != "list" or not read_view.type or record.query or not record.succeeded \
                or not record.response.is_json:
            return
        chosen = run.choose_list_line(read_view, record.path, record.query)
        if chosen is None or chosen[0].membership != "all" or chosen[0].query or chosen[0].queries:
            return
        listed = locate(record.response.json_value, read_view.locator)
        if not isinstance(listed, list):
            return
        held = copy.find_collection(chosen[0].collection or chosen[0].path, read_view.type)
        self.largest[read_view.tool] = max(self.largest.get(read_view.tool, 0), len(listed))
        if held is not None and len(held.order) > len(listed):
            self.capped.setdefault(read_view.tool, []).append((record.ordinal, len(listed)))


def with_default_pages(view: ViewResult, evidence: DefaultPageEvidence, table: Any) -> ViewResult | None:
    """The view with each list view the table finds capped given its default page, and the
    decisions' traces; None when no view is capped (the gate's run stands)."""
    if table is None or not evidence.capped:
        return None
    traces: list[TraceEvent] = []
    pages: dict[str, DefaultPage] = {}
    for tool, reads in sorted(evidence.capped.items()):
        context = DefaultPageContext(capped=[n for _, n in reads], largest_listed=evidence.largest.get(tool, 0))
        decision = evaluate_table(table, context, subject=f"{tool} unqueried lists "
                                                          f"(records {', '.join(str(o) for o, _ in reads)})")
        traces.extend(decision.events)
        if decision.yields.get("capped") and decision.matched:
            pages[tool] = DefaultPage(size=reads[0][1], rule_id=decision.matched[0],
                                      record_ordinals=tuple(o for o, _ in reads))
    if not pages:
        return view.model_copy(update={"traces": view.traces + tuple(traces)}) if traces else None
    views = tuple(v.model_copy(update={"default_page": pages[v.tool]}) if v.tool in pages else v for v in view.views)
    return view.model_copy(update={"views": views, "traces": view.traces + tuple(traces)})


def cut_short(record: Record, read_view: Any, held: Any) -> bool:
    """An unqueried list read its view's default page lists only the first members of (the copy
    ``held`` holds more): what it shows says nothing of a create or delete beyond the page."""
    page = getattr(read_view, "default_page", None)
    return page is not None and read_view.kind == "list" and not record.query and held is not None \
        and len(held.order) > page.size

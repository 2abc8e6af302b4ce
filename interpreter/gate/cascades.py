"""Cascades: what a write's recorded calls changed outside the state its plan writes.

The gate checks the reads of a plan's own type against its effect and the reads of related paths
as side-effects. A call can change more: a resource delete that takes its metrics out of
``/v1/metric``, a create whose body makes entities in another collection. This module gathers, for
each successful call of each plan, the sightings the ``write-cascades`` table judges (see
``interpreter/predicates/write_cascades.py``): each GET line read just before and just after the
call with no other write between, and each value of the call's answer no earlier read showed that
a later read of another state type lists as an entity's identity. The first sighting the table
takes for a cascade keeps the plan unserved (``verdict.cascade``), naming the read that showed it.

Writes between two reads are the read-only decision's (``interpreter/readonly/timeline``): every
state-changing call but a read-only POST's and one answered 4xx.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Iterator

from capenv.interpreter.bundle.models import ReadView, ViewResult, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Evidence, Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.readonly_contexts import same_body
from capenv.interpreter.predicates.write_cascades import CascadeContext
from capenv.interpreter.readonly.contexts import read_facts
from capenv.interpreter.readonly.timeline import GetLine, Timeline, Writes, paths_relate
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .kept_deletes import kept_sightings

TABLE = "write-cascades"
SETTINGS = "readonly"


@dataclass(frozen=True)
class Cascade:
    """The read that showed a call's change outside the plan's state, what it showed, and the trace."""

    read: int
    shown: str
    events: tuple[TraceEvent, ...]


def find_cascades(plans: list[WritePlan], evidence: Evidence, manifest: Manifest, view: ViewResult,
                  ruleset: RuleSet) -> dict[str, Cascade]:
    """tool -> the first cascade the table finds among its successful calls' sightings."""
    if TABLE not in ruleset.tables:
        return {}
    sightings = _Sightings.of_capture(evidence, manifest, view, ruleset)
    found: dict[str, Cascade] = {}
    for plan in plans:
        for context in sightings.of(plan):
            decision = evaluate(ruleset, TABLE, context, subject=f"{plan.tool} record {context.call}")
            if decision.yields.get("cascade"):
                found[plan.tool] = Cascade(read=_showing_read(context), shown=_shown(context),
                                           events=tuple(decision.events))
                break
    return found


def stale_replays(evidence: Evidence, manifest: Manifest, view: ViewResult,
                  ruleset: RuleSet) -> tuple[dict[str, tuple[str, ...]], tuple[TraceEvent, ...]]:
    """Replayed read tools whose answers the capture shows a served write changing
    (``cascade.replayed-line-changed``): read tool -> the types those writes change, with the
    decisions' traces. Serving refuses their replay once a served write has changed such a type
    (``ReplayTable.reads_types``), since the recording shows the state before it."""
    if TABLE not in ruleset.tables:
        return {}, ()
    sightings = _Sightings.of_capture(evidence, manifest, view, ruleset)
    stale: dict[str, set[str]] = {}
    events: list[TraceEvent] = []
    served = [plan for plan in view.writes if plan.served and plan.type is not None]
    for plan in served:
        for context in sightings.of(plan):
            if context.sighting != "line" or context.line_state_backed or context.line_tool is None:
                continue
            decision = evaluate(ruleset, TABLE, context, subject=f"{plan.tool} record {context.call}")
            if decision.yields.get("stale_replay"):
                stale.setdefault(context.line_tool, set()).add(plan.type)
                events.extend(decision.events)
    for plan, context in sightings.spans(served):
        if plan.type in stale.get(context.line_tool or "", set()):
            continue  # already stale for this type: one decision is trace enough
        decision = evaluate(ruleset, TABLE, context, subject=f"{plan.tool} record {context.call}")
        if decision.yields.get("stale_replay") and context.line_tool is not None:
            stale.setdefault(context.line_tool, set()).add(plan.type)
            events.extend(decision.events)
    return {tool: tuple(sorted(types)) for tool, types in sorted(stale.items())}, tuple(events)


class _Sightings:
    """The sightings around each call, with what serving knows of each GET line worked out once."""

    def __init__(self, timeline: Timeline, writes: Writes, manifest: Manifest, view: ViewResult):
        self.timeline, self.writes = timeline, writes
        self.tools = {tool.name: tool for tool in manifest.tools}
        self.views = {v.tool: v for v in view.views}
        self.id_fields = {t.name: t.id_field for t in view.types}
        # the collection paths of the types serving answers from the state (some view of theirs is
        # state-backed): a replayed line reading one shows entities the state answers elsewhere
        answered = {v.type for v in view.views if v.state_backed and v.type is not None}
        self.answered_types = answered
        self.held_collections = tuple((t.name, tuple(split_path(t.collection_template))) for t in view.types
                                      if t.name in answered)
        self._alone: dict[str, bool] = {}
        self._differences: dict[tuple[int, int], bool] = {}
        self._texts: dict[int, str] = {}
        self._by_start = sorted(timeline.records, key=lambda r: (r.started_at, r.ordinal))
        self._starts = [r.started_at for r in self._by_start]
        # Every line's reads by start, each with its line's position: the lines a call may have a
        # read just before are those read after the last other write ended (see ``_lines``).
        line_reads = sorted((r.started_at, r.ordinal, r.finished_at, position)
                            for position, line in enumerate(timeline.lines) for r in line.reads_by_start)
        self._line_reads = [(finished, position) for _, _, finished, position in line_reads]
        self._line_read_starts = [started for started, _, _, _ in line_reads]
        self._listings: dict[str, list[tuple[int, Record, ReadView]]] | None = None

    @classmethod
    def of_capture(cls, evidence: Evidence, manifest: Manifest, view: ViewResult, ruleset: RuleSet) -> "_Sightings":
        timeline = Timeline(evidence, manifest, tuple(ruleset.setting(SETTINGS, "unchanged_write_status_range")))
        return cls(timeline, timeline.writes(frozenset(p.tool for p in view.read_only_posts)), manifest, view)

    def of(self, plan: WritePlan) -> Iterator[CascadeContext]:
        tool = self.tools.get(plan.tool)
        if tool is None:
            return
        for ordinal in tool.record_ordinals:
            call = self.timeline.by_ordinal.get(ordinal)
            if call is None or not call.succeeded:
                continue
            yield from self._lines(plan, call, tool.segments)
            yield from self._answer(plan, call)
            yield from kept_sightings(plan, call, self.timeline, self.writes, self.views, self.id_fields)

    def spans(self, plans: list[WritePlan]) -> Iterator[tuple[WritePlan, CascadeContext]]:
        """Each replayed line's consecutive reads that differ with more than one write between them,
        with each successful call of ``plans`` among those writes (``span``): the line changed across
        the call, but so did it across the others. Lines serving answers from the state, and lines no
        tool reads, are passed over; each pair of reads is compared once."""
        calls: dict[int, WritePlan] = {}
        for plan in plans:
            tool = self.tools.get(plan.tool)
            for ordinal in tool.record_ordinals if tool is not None else ():
                call = self.timeline.by_ordinal.get(ordinal)
                if call is not None and call.succeeded:
                    calls[ordinal] = plan
        if not calls:
            return
        for line in self.timeline.lines:
            reads = line.reads_by_start
            line_tool = self.timeline.tool_of.get(reads[0].ordinal)
            read_view = self.views.get(line_tool or "")
            if line_tool is None or (read_view is not None and read_view.state_backed):
                continue
            for before, after in zip(reads, reads[1:]):
                between = self.writes.between(before, after, besides=-1)
                if len(between) < 2 or not any(ordinal in calls for ordinal in between):
                    continue
                if not self._differ(before, after):
                    continue
                for ordinal in between:
                    plan = calls.get(ordinal)
                    if plan is None:
                        continue
                    call = self.timeline.by_ordinal[ordinal]
                    yield plan, CascadeContext(
                        sighting="span", write_type=plan.type, call=ordinal, line=line.label, line_tool=line_tool,
                        line_type=read_view.type if read_view else None, line_state_backed=False,
                        line_held_type=self._held_type_read(read_view, line.path),
                        line_relates=paths_relate(call.path, self.tools[plan.tool].segments, line.path, line.segments),
                        line_changes_alone=self._changes_alone(line), before=read_facts(before), after=read_facts(after))

    def _lines(self, plan: WritePlan, call: Record, segments: Any) -> Iterator[CascadeContext]:
        for line in self._lines_read_just_before(call):
            before = line.last_finished_before(call.started_at)
            after = line.first_started_after(call.finished_at)
            if before is None or after is None or self.writes.any_between(before, after, besides=call.ordinal):
                continue
            if not self._differ(before, after):
                continue  # every rule taking a line for a cascade or a stale replay needs a change
            line_tool = self.timeline.tool_of.get(before.ordinal)
            read_view = self.views.get(line_tool or "")
            yield CascadeContext(
                sighting="line", write_type=plan.type, call=call.ordinal, line=line.label, line_tool=line_tool,
                line_type=read_view.type if read_view else None,
                line_state_backed=bool(read_view and read_view.state_backed),
                line_summarises=_summarised(read_view, before.ordinal),
                line_held_type=self._held_type_read(read_view, line.path),
                line_refers=bool(read_view and read_view.kind == "item"
                                 and any(r.type == read_view.type for r in plan.referrers)),
                line_relates=paths_relate(call.path, segments, line.path, line.segments),
                line_changes_alone=self._changes_alone(line), before=read_facts(before), after=read_facts(after))

    def _held_type_read(self, read_view: ReadView | None, path: str) -> str | None:
        """The type a line reads that serving answers from the state through some view: its own
        view's type, or for a view of no type the type whose collection the path reads (a template
        parameter matches any segment)."""
        if read_view is not None and read_view.type is not None:
            return read_view.type if read_view.type in self.answered_types else None
        parts = split_path(path.split("?", 1)[0])
        for name, template in self.held_collections:
            if len(template) == len(parts) and all(t == p or (t.startswith("{") and t.endswith("}"))
                                                   for t, p in zip(template, parts)):
                return name
        return None

    def _lines_read_just_before(self, call: Record) -> list[GetLine]:
        """The lines, in line order, with a read that began no earlier than the last end of another
        write begun before the call ended, and finished before the call began. Only these can have
        no write but the call between their read before it and their read after it: that write
        began before the read after ended, so it must have ended before the read before began."""
        floor = self.writes.latest_end_begun_before(call.finished_at, besides=call.ordinal)
        index = 0 if floor is None else bisect.bisect_left(self._line_read_starts, floor)
        positions = set()
        while index < len(self._line_reads) and self._line_read_starts[index] <= call.started_at:
            finished, position = self._line_reads[index]
            if finished <= call.started_at:
                positions.add(position)
            index += 1
        return [self.timeline.lines[position] for position in sorted(positions)]

    def _changes_alone(self, line: GetLine) -> bool:
        """Two consecutive reads of the line differ with no write between them."""
        if line.label not in self._alone:
            reads = line.reads_by_start
            self._alone[line.label] = any(
                not self.writes.any_between(a, b, besides=-1) and self._differ(a, b) for a, b in zip(reads, reads[1:]))
        return self._alone[line.label]

    def _answer(self, plan: WritePlan, call: Record) -> Iterator[CascadeContext]:
        """Each value of the call's answer that no earlier read showed, with the first later read of
        another state type listing an entity under it."""
        if not call.response.is_json:
            return
        sent = _strings(call.request.json_value, set()) if call.request.is_json else set()
        values = _strings(call.response.json_value, set()) - sent - {_own_id(plan, call, self.id_fields)}
        first = bisect.bisect_left(self._starts, call.finished_at)
        found = []  # (position of the first later read of another type listing the value, the value, ...)
        listings = self._listings_by_value()
        for value in values:
            listed = listings.get(value, [])
            for position, record, read_view in listed[bisect.bisect_left(listed, first, key=_position):]:
                if read_view.type != plan.type:
                    found.append((position, value, record, read_view))
                    break
        for _, value, record, read_view in sorted(found, key=lambda item: item[:2]):
            if not self._shown_before(value, call):
                yield CascadeContext(sighting="answer", write_type=plan.type, call=call.ordinal, value=value,
                                     listed_by=record.ordinal, listed_type=read_view.type, listed_path=record.path)

    def _listings_by_value(self) -> dict[str, list[tuple[int, Record, ReadView]]]:
        """identity -> each successful GET of a state-backed view listing it (its list's elements, its
        item), by start, with its position: a call's answer values look up their first later listing
        here rather than walking every later record per call."""
        if self._listings is None:
            self._listings = {}
            for position, record in enumerate(self._by_start):
                if record.method != "GET" or not record.succeeded:
                    continue
                read_view = self.views.get(self.timeline.tool_of.get(record.ordinal, ""))
                if read_view is None or not read_view.state_backed or read_view.type is None:
                    continue
                for value in _listed_ids(record, read_view, self.id_fields.get(read_view.type)):
                    self._listings.setdefault(value, []).append((position, record, read_view))
        return self._listings

    def _shown_before(self, value: str, call: Record) -> bool:
        """A record that finished before the call began showed the value (its path, query or answer)."""
        return any(value in self._text(record) for record in self._by_start
                   if record.finished_at <= call.started_at)

    def _text(self, record: Record) -> str:
        if record.ordinal not in self._texts:
            self._texts[record.ordinal] = _shown_text(record)
        return self._texts[record.ordinal]

    def _differ(self, a: Record, b: Record) -> bool:
        """Two reads answered differently, by status and body (JSON by value), worked out once per pair."""
        key = (a.ordinal, b.ordinal)
        if key not in self._differences:
            fa, fb = read_facts(a), read_facts(b)
            self._differences[key] = fa.status != fb.status or not same_body(fa.body_kind, fa.body,
                                                                            fb.body_kind, fb.body)
        return self._differences[key]


def _summarised(read_view: ReadView | None, ordinal: int) -> list[str]:
    """The types the state-backed document line holding the read ``ordinal`` summarises (none for
    another kind of view or a line serving replays)."""
    if read_view is None or read_view.kind != "document":
        return []
    line = next((d for d in read_view.documents if ordinal in d.record_ordinals), None)
    return list(line.summarises) if line is not None and line.state_backed else []


def _position(listing: tuple[int, Record, ReadView]) -> int:
    return listing[0]


def _strings(value: Any, out: set[str]) -> set[str]:
    """Every string in a JSON value, at any depth (object member names are not values)."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for member in value.values():
            _strings(member, out)
    elif isinstance(value, list):
        for element in value:
            _strings(element, out)
    return out


def _own_id(plan: WritePlan, call: Record, id_fields: dict[str, str]) -> Any:
    """The identity of the entity the call wrote, where its answer shows it: that entity is the plan's."""
    answer = call.response.json_value
    locator = plan.response.locator if plan.response is not None else None
    shown = locate(answer, locator) if locator is not None else answer
    field = id_fields.get(plan.type or "")
    value = shown.get(field) if isinstance(shown, dict) and field else None
    return value if isinstance(value, (str, int)) else None  # an id the answer shows as an object or array names none


def _shown_text(record: Record) -> str:
    """What a record showed a client: its path and query, and its answer's text."""
    return " ".join([record.path, *(value for _, value in record.query), record.response.text or ""])


def _listed_ids(record: Record, read_view: ReadView, id_field: str | None) -> set[str]:
    """The identities of the entities a read shows at its view's place (its list's elements, its item)."""
    if id_field is None or not record.response.is_json:
        return set()
    body = record.response.json_value
    shown = locate(body, read_view.locator) if read_view.locator is not None else body
    entities = shown if isinstance(shown, list) else [shown]
    return {e[id_field] for e in entities if isinstance(e, dict) and isinstance(e.get(id_field), str)}


def _showing_read(context: CascadeContext) -> int:
    if context.sighting in ("answer", "kept") and context.listed_by is not None:
        return context.listed_by
    return context.after.ordinal if context.after is not None else context.call


def _shown(context: CascadeContext) -> str:
    if context.sighting == "kept":
        return (f"record {context.listed_by} ({context.listed_path}), the collection's list read next after record "
                f"{context.call} with no other write between, lists {context.value!r} sharing "
                f"{', '.join(context.kept_members)} with the entity the call deleted, values no other listed entity "
                "holds: the application kept it, which a served delete would not")
    if context.sighting == "answer":
        return (f"record {context.call}'s answer names {context.value!r}, which no earlier read showed and record "
                f"{context.listed_by} lists as a {context.listed_type} at {context.listed_path}: the call made "
                "an entity in another collection, which serving would not")
    before = context.before.ordinal if context.before else "?"
    after = context.after.ordinal if context.after else "?"
    return (f"{context.line} read differently before (record {before}) and after (record {after}) record "
            f"{context.call}, with no other write between: the call changed a {context.line_type or 'state'} "
            "its plan does not write, which serving would go on answering as before")

"""Build the contexts the read-only tables read, for one POST tool and one set of writes.

The choices of *which* records a rule compares live here (the timeline's); the judging
lives in the predicates (``interpreter/predicates/readonly_*.py``).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.evidence.records import Body, Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.predicates.readonly_contexts import (
    ItemRead, Observation, ReadFacts, VetoCall, VetoesContext, WayCall, WaysContext,
)

from .timeline import Timeline, Writes


def ways_context(tool: Tool, timeline: Timeline, writes: Writes) -> WaysContext:
    calls = []
    for record in _calls(tool, timeline):
        body_kind, body = body_facts(record.request)
        response_kind, response = body_facts(record.response)
        prior = timeline.prior_successful_get(record)
        calls.append(WayCall(
            ordinal=record.ordinal, status=record.status, body=body, body_kind=body_kind,
            query=list(record.query), response=response, response_kind=response_kind,
            prior_get=read_facts(prior) if prior else None,
            writes_since_prior_get=writes.between(prior, record, besides=record.ordinal) if prior else [],
        ))
    return WaysContext(tool=tool.name, template=tool.template, calls=calls)


def vetoes_context(tool: Tool, timeline: Timeline, writes: Writes) -> VetoesContext:
    """Each call, and for each GET line related to its path the reads just before and just
    after it: the read that finished last before the call began and the first that began
    after it ended (a read overlapping the call may show either state, so it is no side)."""
    calls, observations = [], []
    for record in _calls(tool, timeline):
        answer = record.response.json_value if record.response.is_json else None
        calls.append(VetoCall(ordinal=record.ordinal, status=record.status, redirected=record.redirected,
                              answer=answer, item_reads=_item_reads(record, timeline) if answer is not None else [],
                              reads_before=[read_facts(r) for r in timeline.own_path_gets(record.path)
                                            if r.succeeded and r.finished_at <= record.started_at]
                              if answer is not None else []))
        for line in timeline.lines_related(record.path, tool.segments):
            before = line.last_finished_before(record.started_at)
            after = line.first_started_after(record.finished_at)
            if before is None or after is None:
                continue
            observations.append(Observation(
                call=record.ordinal, line=line.label, before=read_facts(before), after=read_facts(after),
                writes_between=writes.between(before, after, besides=record.ordinal)))
    return VetoesContext(tool=tool.name, calls=calls, observations=observations)


def _item_reads(call: Record, timeline: Timeline) -> list[ItemRead]:
    """The GETs of the call's path plus one segment that finished before it began or began after
    it ended (one overlapping the call shows neither side)."""
    found = []
    for segment, read in timeline.child_gets(call.path):
        side = "before" if read.finished_at <= call.started_at else \
            "after" if read.started_at >= call.finished_at else None
        if side is not None:
            kind, value = body_facts(read.response)
            found.append(ItemRead(ordinal=read.ordinal, status=read.status, body=value, body_kind=kind,
                                  segment=segment, side=side))
    return found


def body_facts(body: Body) -> tuple[str, Any]:
    """A body as the comparisons see it: its JSON value, else its text, else nothing."""
    if body.is_json:
        return "json", body.json_value
    if body.text is not None:
        return "text", body.text
    return "none", None


def read_facts(record: Record) -> ReadFacts:
    kind, value = body_facts(record.response)
    return ReadFacts(ordinal=record.ordinal, status=record.status, body=value, body_kind=kind)


def _calls(tool: Tool, timeline: Timeline) -> list[Record]:
    return [timeline.by_ordinal[ordinal] for ordinal in tool.record_ordinals if ordinal in timeline.by_ordinal]

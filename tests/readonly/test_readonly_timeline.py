"""How the timeline relates paths and finds writes between two records."""

from __future__ import annotations

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.manifest.models import Segment
from capenv.interpreter.readonly.timeline import Timeline, Writes, paths_relate


def template(text: str) -> tuple[Segment, ...]:
    return tuple(Segment(param=p[1:-1]) if p.startswith("{") else Segment(literal=p) for p in text[1:].split("/"))


@pytest.mark.parametrize("call, call_template, read, read_template, related", [
    ("/api/flows/filter", "/api/flows/filter", "/api/flows/f1", "/api/flows/{id}", True),
    ("/api/flows/filter", "/api/flows/filter", "/api/flows", "/api/flows", True),
    ("/api/flows/filter", "/api/flows/filter", "/api/health", "/api/health", False),
    ("/api/flows/filter", "/api/flows/filter", "/api/flows/name/etl", "/api/flows/name/{name}", False),
    ("/api/pools/p1/scan", "/api/pools/{pool}/scan", "/api/pools/p2", "/api/pools/{pool}", True),
    ("/api/pools/p1/scan", "/api/pools/{pool}/scan", "/api/pools/p1/queues/q", "/api/pools/{pool}/queues/{q}", False),
    ("/v1/batch", "/v1/batch", "/v1/", "/v1/", True),
    ("/api/users/auth-refresh", "/api/users/auth-refresh", "/api/realtime", "/api/realtime", False),
])
def test_paths_relate_segment_by_segment(call, call_template, read, read_template, related):
    assert paths_relate(call, template(call_template), read, template(read_template)) is related


def test_a_read_no_tool_holds_relates_by_its_literal_spelling():
    assert paths_relate("/a/search", template("/a/search"), "/a", None)
    assert not paths_relate("/a/search", template("/a/search"), "/a/1", None)


def test_writes_between_count_overlaps_and_leave_out_the_call_itself():
    har = (HarBuilder()
           .call("PUT", "/x/1", body={}, response={}, started="2026-01-01T00:00:00.000Z", duration_ms=10)
           .call("GET", "/x/1", response={}, started="2026-01-01T00:00:01.000Z", duration_ms=100)
           .call("PUT", "/x/1", body={}, response={}, started="2026-01-01T00:00:01.050Z", duration_ms=10)
           .call("POST", "/x/search", body={}, response=[], started="2026-01-01T00:00:02.000Z", duration_ms=10)
           .call("GET", "/x/1", response={}, started="2026-01-01T00:00:03.000Z", duration_ms=10))
    records = parse_har_bytes(har.bytes(), source="t.har").records
    writes = Writes([r for r in records if r.method != "GET"])
    before, call, after = records[1], records[3], records[4]
    # #1 ended before the GET began; #3 began while the GET ran (it may show either state)
    assert writes.between(before, after, besides=call.ordinal) == [3]
    assert writes.between(before, after, besides=0) == [3, 4]


def test_related_lines_are_kept_per_path_and_parameter_positions(ruleset):
    """The same call path under a template with a parameter where another has a literal relates
    to other lines: what one template found must not answer for the other."""
    har = (HarBuilder()
           .call("GET", "/shop/other/stock", response=[{"id": 1}])
           .call("GET", "/shop/p1/stock", response=[{"id": 2}])
           .call("POST", "/shop/p1/stock", body={}, response={}))
    evidence = parse_har_bytes(har.bytes(), source="t.har")
    timeline = Timeline(evidence, build_manifest(evidence, ruleset), (400, 499))
    labels = {}
    for name, segments in [("param", template("/shop/{shop}/stock")), ("literal", template("/shop/p1/stock")),
                           ("param again", template("/shop/{shop}/stock"))]:
        found = timeline.lines_related("/shop/p1/stock", segments)
        assert found == [line for line in timeline.lines
                         if paths_relate("/shop/p1/stock", segments, line.path, line.segments)]
        labels[name] = [line.path for line in found]
    assert "/shop/other/stock" in labels["param"] and "/shop/other/stock" not in labels["literal"]
    assert labels["param again"] == labels["param"]

"""A list line's query is proven against the latest whole listing that finished before the
query read, with no write to a related path between the two."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

ITEMS = [{"id": 1, "title": "a", "kind": "x"}, {"id": 2, "title": "b", "kind": "y"}]
RENAMED = {**ITEMS[1], "title": "c"}
NO_REFERENCE = "no whole listing of the collection, with no write between, to prove its query against"


def query_line(builder: HarBuilder):
    view = next(v for v in build_from(builder).view.views if v.tool == "get_items")
    return next(line for line in view.lines if line.query)


def test_a_query_read_after_a_whole_listing_is_learned():
    line = query_line(HarBuilder().call("GET", "/items", response=ITEMS)
                      .call("GET", "/items", query=[("kind", "x")], response=[ITEMS[0]]))
    assert line.state_backed and [q.kind for q in line.queries] == ["equals"]


def test_a_related_write_between_the_listing_and_the_query_read_leaves_no_reference():
    line = query_line(HarBuilder().call("GET", "/items", response=ITEMS)
                      .call("PATCH", "/items/2", body={"title": "c"}, response=RENAMED)
                      .call("GET", "/items", query=[("kind", "x")], response=[ITEMS[0]]))
    assert not line.state_backed and line.reason == NO_REFERENCE


def test_a_write_before_the_latest_listing_or_to_an_unrelated_path_does_not_count():
    line = query_line(HarBuilder().call("GET", "/items", response=ITEMS)
                      .call("PATCH", "/items/2", body={"title": "c"}, response=RENAMED)
                      .call("GET", "/items", response=[ITEMS[0], RENAMED])
                      .call("POST", "/notes", body={"text": "n"}, response={"id": 9, "text": "n"})
                      .call("GET", "/items", query=[("kind", "x")], response=[ITEMS[0]]))
    assert line.state_backed and [q.kind for q in line.queries] == ["equals"]

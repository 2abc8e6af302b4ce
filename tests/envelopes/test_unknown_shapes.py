"""An answer no view can read is reported with the JSON pointer where it stops making sense,
never a crash (issue 16): the read stays on replay with that reason in the report."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder


def reason_of(builder: HarBuilder, tool: str) -> str:
    bundle = build_from(builder)
    (read,) = [r for r in bundle.report["reads"] if r["tool"] == tool]
    assert read["state_backed"] is False
    return read["reason"]


def test_an_array_of_strings_names_its_first_non_object():
    reason = reason_of(HarBuilder().call("GET", "/tags", response=[{"id": 1}, "b"]), "get_tags")
    assert "record 1: /1 is a string" in reason


def test_a_scalar_answer_names_the_root():
    reason = reason_of(HarBuilder().call("GET", "/version", response=42), "get_version")
    assert "record 1: / is a number" in reason


def test_answers_listing_at_different_places_name_both():
    # one call answered enveloped, the same call later as a bare array: no query says which shape
    # a call gets (view-list-shapes chooses only when another shape answers a query asking for it,
    # as Datasette's _shape=array: tests/envelopes/test_row_pages.py)
    rows = [{"id": 1, "t": "a"}, {"id": 2, "t": "b"}]
    har = (HarBuilder().call("GET", "/blog/articles", response={"ok": True, "rows": rows, "next": None})
           .call("GET", "/blog/articles", response=rows))
    reason = reason_of(har, "get_blog_articles")
    assert "record 1 at /rows" in reason and "record 2 at /" in reason


@pytest.mark.parametrize("body", [[], [[1, 2]], [None], "\"text\"", "null", 1.5, [{}], {"a": [{"x": 1}], "b": [{"y": 2}]},
                                  [{"id": 1}, {"id": 1}], {"data": None}, {"data": [None]}])
def test_odd_shapes_never_crash_the_build(body):
    har = (HarBuilder().call("GET", "/things", response=body)
           .call("GET", "/things/1", response=body)
           .call("POST", "/things", body={"a": 1}, status=201, response=body)
           .call("GET", "/things", response=body))
    bundle = build_from(har)
    assert {r["tool"] for r in bundle.report["reads"]} >= {"get_things"}

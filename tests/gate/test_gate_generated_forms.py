"""The gate: a later create whose generated values take another form than serving gives them
(a clock in another format, a non-UUID unique value) makes the plan unexplained-change."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder

START = "2026-01-01T00:00:00.000Z"


def _app_with_clocks(second_clock: str):
    entities = [{"id": 1, "title": "t1", "at": "2025-12-31T10:00:00Z"},
                {"id": 2, "title": "t2", "at": "2025-12-31T11:00:00Z"}]
    builder = items_app(entities, HarBuilder(start=START))
    builder.call("POST", "/items", body={"title": "new"}, status=201,
                 response={"id": 3, "title": "new", "at": "2026-01-01T00:00:00Z"})
    builder.call("GET", "/items/3", response={"id": 3, "title": "new", "at": "2026-01-01T00:00:00Z"})
    builder.call("POST", "/items", body={"title": "later"}, status=201,
                 response={"id": 4, "title": "later", "at": second_clock})
    builder.call("GET", "/items/4", response={"id": 4, "title": "later", "at": second_clock})
    return build_from(builder)


def test_a_later_create_with_the_clock_in_the_learned_format_is_served():
    created = plan(_app_with_clocks("2026-01-01T00:00:01Z"), "POST", "/items")
    assert {f.field: f.op for f in created.fields}["at"] == "clock"
    assert created.served, created.reason


def test_a_later_create_with_the_clock_in_another_format_is_unexplained():
    created = plan(_app_with_clocks("2026-01-01 00:00:01+00:00"), "POST", "/items")
    assert (created.served, created.reason) == (False, "unexplained-change")

"""A query may change which fields a list shows (Label Studio's ``fields=all``, Datasette's
``_col=``): each list line renders the fields its own recordings showed, so the plain list
is not rendered with the fields only the other query (or the item read) shows."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

PLAIN = [{"id": 1, "text": "a"}, {"id": 2, "text": "b"}]
FULL = [{"id": 1, "text": "a", "annotations": [7]}, {"id": 2, "text": "b", "annotations": []}]


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/tasks", response=PLAIN)
            .call("GET", "/tasks", query="fields=all", response=FULL)
            .call("GET", "/tasks/1", response=FULL[0]))


def test_each_line_shows_its_own_fields():
    bundle = build_from(capture())
    view = bundle.view.view("get_tasks")
    assert view.state_backed, view.reason
    plain, full = view.lines
    assert (plain.shown_fields, full.shown_fields) == (("id", "text"), ())  # the view's own: all three
    runtime = EnvironmentRuntime(bundle)
    assert runtime.read("get_tasks")["body"] == PLAIN
    assert runtime.read("get_tasks", {"query": {"fields": "all"}})["body"] == FULL


RECORDS = [{"id": 1, "title": "c", "tags": ["x"]}, {"id": 2, "title": "a"}, {"id": 3, "title": "b"}]


def optional_member_capture() -> HarBuilder:
    """A page sorted by title lists 2 and 3, which lack the optional ``tags`` that 1 holds; then 2
    gains tags."""
    tagged = {**RECORDS[1], "tags": ["new"]}
    return (HarBuilder()
            .call("GET", "/records", response=RECORDS)
            .call("GET", "/records", query="_sort=title&_limit=2", response=[RECORDS[1], RECORDS[2]])
            .call("GET", "/records", query="_sort=title&_limit=1", response=[RECORDS[1]])
            .call("GET", "/records/2", response=RECORDS[1])
            .call("PATCH", "/records/2", body={"tags": ["new"]}, response=tagged)
            .call("GET", "/records/2", response=tagged)
            .call("GET", "/records", response=[RECORDS[0], tagged, RECORDS[2]]))


def test_a_page_that_listed_entities_without_an_optional_member_shows_it_where_they_hold_it():
    """Once the page rendered only the members its recording showed, so after 2 gained tags it
    answered 2 without them, where the application (and the plain list) show them."""
    bundle = build_from(optional_member_capture())
    view = bundle.view.view("get_records")
    page = next(line for line in view.lines if line.query == (("_sort", "title"), ("_limit", "2")))
    assert set(page.shown_fields) == {"id", "title", "tags"}
    assert any(t.rule_id == "line-fields.optional-members-lacked" for t in bundle.view.traces)
    runtime = EnvironmentRuntime(bundle)
    assert runtime.read("get_records", {"query": {"_sort": "title", "_limit": "2"}})["body"] == [RECORDS[1], RECORDS[2]]
    patched = runtime.call_tool("patch_records_by_record_id", {"record_id": 2, "body": {"tags": ["z"]}})
    assert not patched.is_error and patched.structured["status"] == 200, patched.structured
    page_after = runtime.read("get_records", {"query": {"_sort": "title", "_limit": "2"}})["body"]
    assert page_after == [{**RECORDS[1], "tags": ["z"]}, RECORDS[2]]


def test_a_projection_keeps_its_own_members_where_they_are_optional():
    """``fields=`` names the members: the line shows only them, though some entities lack the others."""
    bundle = build_from(HarBuilder()
                        .call("GET", "/records", response=RECORDS)
                        .call("GET", "/records", query="fields=id", response=[{"id": 2}, {"id": 3}]))
    line = next(line for line in bundle.view.view("get_records").lines if line.query)
    assert line.shown_fields == ("id",)
    assert EnvironmentRuntime(bundle).read("get_records", {"query": {"fields": "id"}})["body"] == [{"id": 2}, {"id": 3}]

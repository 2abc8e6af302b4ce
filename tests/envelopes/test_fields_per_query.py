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

"""A list read whose application leaves an empty list out of its answer (``{"total": 0}`` where
other answers carry ``{"total": n, "items": [...]}``) is a list view (``view-omitted-lists``): an
answer lacking the member lists nothing, and serving leaves an empty list out alike. An answer
with other members than the listing answers' envelope is no empty listing: the tool stays no list."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

P1 = {"slug": "p1", "title": "one"}
P2 = {"slug": "p2", "title": "two"}
P3 = {"slug": "p3", "title": "three"}  # a board's own pin: one /pins lists would be a copy its delete leaves stale


def pins_app(empty_answer: dict) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/pins", response={"total": 2, "items": [P1, P2]})
            .call("GET", "/pins/p1", response=P1)
            .call("GET", "/pins/p2", response=P2)
            .call("GET", "/boards/b1/pins", response=empty_answer)
            .call("GET", "/boards/b2/pins", response={"total": 1, "items": [P3]})
            .call("DELETE", "/pins/p1", status=204, response="")
            .call("GET", "/pins/p1", status=404, response={"error": "not found"})
            .call("DELETE", "/pins/p2", status=204, response="")
            .call("GET", "/pins/p2", status=404, response={"error": "not found"})
            .call("GET", "/pins", response=empty_answer))


def view_of(bundle, tool: str):
    return next(v for v in bundle.view.views if v.tool == tool)


def test_an_answer_leaving_the_list_out_lists_nothing_and_serving_leaves_it_out_alike():
    bundle = build_from(pins_app({"total": 0}))
    pins = view_of(bundle, "get_pins")
    assert pins.kind == "list" and pins.locator.member == "items" and pins.locator.omits_empty
    deletes = [p for p in bundle.view.writes if p.method == "DELETE"]
    assert deletes and all(p.served for p in deletes), [(p.tool, p.reason) for p in deletes]
    runtime = EnvironmentRuntime(bundle)
    full = loads(runtime.http(HttpRequest("GET", "/pins", (), (), b"")).body)
    assert full == {"total": 2, "items": [P1, P2]}
    for slug in ("p1", "p2"):
        assert runtime.http(HttpRequest("DELETE", f"/pins/{slug}", (), (), b"")).status == 204
    empty = loads(runtime.http(HttpRequest("GET", "/pins", (), (), b"")).body)
    assert empty == {"total": 0}


def test_an_answer_with_another_envelope_is_no_empty_listing():
    bundle = build_from(pins_app({"total": 0, "error": "none"}))
    assert view_of(bundle, "get_pins").kind != "list"

"""A listing read at a collection's own path that the view cannot list (an object keyed by the
entities' names) is a document that summarises the collection: the gate pins no side effect of an
item update on it, serving answers it only while the collection is as the capture began (409 after)
and no update is refused for the copy it holds. A write no plan models at a document's own path
(or above it) may have changed that document: a difference a later read of it shows is no side
effect of the modelled writes before it."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

JSON = (("content-type", "application/json"),)
RED = {"name": "red", "colour": "crimson", "size": 3}
BLUE = {"name": "blue", "colour": "navy", "size": 5}
TEAL = {"name": "teal", "colour": "cyan", "size": 2}


def keyed(*boxes: dict) -> dict:
    return {"type": "boxes", "result": {box["name"]: box for box in boxes}}


def boxes_app(listing_shows_update: bool = True) -> HarBuilder:
    """Items at ``/api/boxes/{name}``, the listing ``/api/boxes`` an object keyed by name, updates
    answered with a message only (observed by the reads after them)."""
    har = HarBuilder()
    har.call("GET", "/api/boxes", response=keyed(RED, BLUE, TEAL))
    for box in (RED, BLUE, TEAL):
        har.call("GET", f"/api/boxes/{box['name']}", response={"type": "box", "result": box})
    red, blue = dict(RED), dict(BLUE)
    for box, change in ((red, {"colour": "scarlet"}), (blue, {"size": 8}), (red, {"size": 4})):
        box.update(change)
        har.call("PATCH", f"/api/boxes/{box['name']}", body=change, response={"message": "box updated"})
        har.call("GET", f"/api/boxes/{box['name']}", response={"type": "box", "result": box})
        listed = (red, blue, TEAL) if listing_shows_update else (RED, BLUE, TEAL)
        har.call("GET", "/api/boxes", response=keyed(*listed))
    return har


def update_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "PATCH")


def send(runtime: EnvironmentRuntime, method: str, path: str, body: object = None):
    data = json.dumps(body).encode() if body is not None else b""
    return runtime.http(HttpRequest(method, path, (), JSON if body is not None else (), data))


def test_an_update_the_keyed_listing_shows_is_served():
    bundle = build_from(boxes_app())
    listing = next(v for v in bundle.view.views if v.kind == "document")
    assert any(line.summarises for line in listing.documents), listing.documents
    plan = update_plan(bundle)
    assert plan.served, (plan.reason, plan.contradicted_by)


def test_the_keyed_listing_is_refused_once_a_served_update_changed_the_collection():
    runtime = EnvironmentRuntime(build_from(boxes_app()))
    before = send(runtime, "GET", "/api/boxes")
    assert before.status == 200 and json.loads(before.body)["result"]["teal"]["colour"] == "cyan", before.body
    updated = send(runtime, "PATCH", "/api/boxes/teal", {"colour": "green"})
    assert updated.status == 200, updated.body  # the copy the listing holds refuses nothing
    item = send(runtime, "GET", "/api/boxes/teal")
    assert item.status == 200 and json.loads(item.body)["result"]["colour"] == "green", item.body
    after = send(runtime, "GET", "/api/boxes")
    assert after.status == 409 and b"lies above" in after.body, after.body


def test_an_update_changing_nothing_leaves_the_keyed_listing_answered():
    runtime = EnvironmentRuntime(build_from(boxes_app()))
    assert send(runtime, "PATCH", "/api/boxes/teal", {"colour": "cyan"}).status == 200
    assert send(runtime, "GET", "/api/boxes").status == 200


def lid_app(lid_write: bool = True) -> HarBuilder:
    """A document at ``/api/boxes/red/lid`` below red's item path; red's update is modelled, the lid's
    write (a text body) is not, and the lid's read after both shows the lid's change."""
    har = HarBuilder()
    har.call("GET", "/api/boxes", response=[RED, BLUE])
    har.call("GET", "/api/boxes/red", response=RED)
    har.call("GET", "/api/boxes/blue", response=BLUE)
    har.call("GET", "/api/boxes/red/lid", response={"open": False, "hinge": "left"})
    har.call("PATCH", "/api/boxes/red", body={"colour": "scarlet"}, response={**RED, "colour": "scarlet"})
    har.call("GET", "/api/boxes/red", response={**RED, "colour": "scarlet"})
    har.call("PATCH", "/api/boxes/blue", body={"colour": "sky"}, response={**BLUE, "colour": "sky"})
    har.call("GET", "/api/boxes/blue", response={**BLUE, "colour": "sky"})
    if lid_write:
        har.call("PUT", "/api/boxes/red/lid", body="open", request_type="text/plain", response={"ok": True})
    har.call("GET", "/api/boxes/red/lid", response={"open": True, "hinge": "left"})
    return har


def test_an_unmodelled_write_at_the_documents_path_explains_its_difference():
    bundle = build_from(lid_app())
    lid = next(p for p in bundle.view.writes if p.method == "PUT")
    assert not lid.served
    plan = next(p for p in bundle.view.writes if p.method == "PATCH")
    assert plan.served, (plan.reason, plan.contradicted_by)


def test_without_the_unmodelled_write_the_documents_difference_is_a_side_effect():
    plan = next(p for p in build_from(lid_app(lid_write=False)).view.writes if p.method == "PATCH")
    assert not plan.served and plan.reason == "side-effect", (plan.reason, plan.contradicted_by)

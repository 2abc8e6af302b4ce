"""A create at the item path told from an update by the earlier absence (``effect.create-at-item-
absent``): ``PUT /v1/zones/east`` answers 200 with a report on the call (no 201, no entity), and
the whole list read just before it did not list east. Its list and item reads name the members
they show with a repeated parameter (``?show=label&show=note``) that selects no entity
(``view-member-naming-queries``), so the list still lists the whole collection and checks the
create. The body's ``spec`` object is stored under the entity's ``spec``; a recorded call that
sent only some of its members read back a default for the others, so serving accepts ``spec``
only holding exactly the exemplar's members."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted, refused

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

SHOW = (("show", "label"), ("show", "note"))
ZONES = [{"name": n, "spec": {"label": n.title(), "note": ""}, "kind": "Zone"} for n in ("north", "south")]
CREATED = {"results": [{"code": 200, "status": "Object was created"}]}


def zone(name: str, label: str, note: str) -> dict:
    return {"name": name, "spec": {"label": label, "note": note}, "kind": "Zone"}


def zones_app(*, written_between: bool = False) -> HarBuilder:
    har = HarBuilder().call("GET", "/v1/zones", query=SHOW, response={"results": ZONES})
    for item in ZONES:
        har.call("GET", f"/v1/zones/{item['name']}", query=SHOW, response={"results": [item]})
    har.call("GET", "/v1/zones/nowhere", query=SHOW, status=404, response={"error": 404})
    if written_between:  # a write below the collection the plan models nothing of
        har.call("POST", "/v1/zones/north/import", body={"from": "file"}, response={"ok": True})
    east = zone("east", "East", "sunrise")
    har.call("PUT", "/v1/zones/east", body={"spec": {"label": "East", "note": "sunrise"}}, response=CREATED)
    har.call("GET", "/v1/zones/east", query=SHOW, response={"results": [east]})
    har.call("GET", "/v1/zones", query=SHOW, response={"results": [*ZONES, east]})
    west = zone("west", "West", "")
    har.call("PUT", "/v1/zones/west", body={"spec": {"label": "West"}}, response=CREATED)
    har.call("GET", "/v1/zones/west", query=SHOW, response={"results": [west]})
    har.call("GET", "/v1/zones", query=SHOW, response={"results": [*ZONES, east, west]})
    return har


def _put_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "PUT")


def _get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, SHOW, (), b""))


def test_a_put_naming_what_the_whole_list_lacked_is_a_served_create():
    bundle = build_from(zones_app())
    plan = _put_plan(bundle)
    assert (plan.effect, plan.served) == ("create", True), (plan.effect, plan.reason, plan.build_reason)
    assert next(line for v in bundle.view.views for line in v.lines).membership == "all"
    runtime = EnvironmentRuntime(bundle)
    answer = accepted(runtime, plan.tool, {"zone_id": "lake", "body": {"spec": {"label": "Lake", "note": "wet"}}})
    assert answer["body"] == CREATED
    shown = _get(runtime, "/v1/zones/lake")
    assert shown.status == 200 and json.loads(shown.body) == {"results": [zone("lake", "Lake", "wet")]}
    listed = json.loads(_get(runtime, "/v1/zones").body)["results"]
    assert [z["name"] for z in listed] == ["north", "south", "lake"]


def test_a_create_of_a_held_name_or_with_members_left_out_is_refused():
    bundle = build_from(zones_app())
    plan = _put_plan(bundle)
    runtime = EnvironmentRuntime(bundle)
    refused(runtime, plan.tool, {"zone_id": "north", "body": {"spec": {"label": "N", "note": ""}}})
    message = refused(runtime, plan.tool, {"zone_id": "lake", "body": {"spec": {"label": "Lake"}}})["message"]
    assert "note" in message, message
    assert runtime.http(HttpRequest("PUT", "/v1/zones/lake", (), (("content-type", "application/json"),),
                                    json.dumps({"spec": {"label": "Lake"}}).encode())).status >= 400


def test_a_write_to_the_collection_after_the_list_leaves_the_absence_unproven():
    """east's absence is unproven (a write reached the collection after the list), so not every
    call made what it named: no create. west's is proven (the list after east's create, nothing
    written since), so the PUT made one entity and may update others: an upsert, not served
    (``effect.upsert-absent-before``)."""
    plan = _put_plan(build_from(zones_app(written_between=True)))
    assert (plan.effect, plan.build_reason, plan.served) == ("none", "upsert", False), (plan.effect, plan.reason)

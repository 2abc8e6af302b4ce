"""A write answer that names, outside the entity serving renders, the entity its recorded call
wrote (``interpreter/plans/entity_bound_answers``): a create's envelope linking the new entity
(``links.self: /flows/<id>``, ``meta.created_id``), a get-or-create's answer naming the entity it
found, or a header doing so. Answered as recorded, every call would name the recorded entity,
never its own: a create whose answer does so is body-unusable, and a get-or-create's key answer is
served only without such a value (its headers less those naming the entity)."""

from __future__ import annotations

import json

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

FLOWS = [{"id": "5b1c9a52-8f6e-4b1a-9f0e-7c2d3e4f5a61", "name": "etl", "tags": ["a"]},
         {"id": "9c2d9a52-8f6e-4b1a-9f0e-7c2d3e4f5a62", "name": "ops", "tags": ["b"]}]
NEW = {"id": "7d0f6c52-1e6b-4c1e-9d3e-2f6a1c0b9e11", "name": "train", "tags": ["t"]}


def flows_app(envelope, headers=lambda entity: [], found: bool = False) -> HarBuilder:
    """Flows read, one created (its answer ``{"data": entity, **envelope(entity)}``) and read back;
    with ``found``, a create naming the held ``etl`` answers it (a get-or-create)."""
    har = HarBuilder().call("GET", "/flows", response=FLOWS)
    for flow in FLOWS:
        har.call("GET", f"/flows/{flow['id']}", response=flow)
    har.call("POST", "/flows", body={"name": "train", "tags": ["t"]}, status=201,
             response={"data": NEW, **envelope(NEW)}, response_headers=headers(NEW))
    har.call("GET", f"/flows/{NEW['id']}", response=NEW)
    if found:
        har.call("POST", "/flows", body={"name": "etl", "tags": ["x"]}, status=200,
                 response={"data": FLOWS[0], **envelope(FLOWS[0])}, response_headers=headers(FLOWS[0]))
    return har.call("GET", "/flows", response=FLOWS + [NEW])


def post(runtime: EnvironmentRuntime, body: dict):
    answer = runtime.http(HttpRequest("POST", "/flows", (), (("content-type", "application/json"),),
                                      json.dumps(body).encode()))
    return answer.status, dict(answer.headers), json.loads(answer.body)


def _self_link(entity: dict) -> dict:
    return {"links": {"self": f"/flows/{entity['id']}"}}


def _created_id(entity: dict) -> dict:
    return {"meta": {"created_id": entity["id"]}}


def test_a_create_answer_naming_its_own_entity_outside_it_is_body_unusable():
    for envelope in (_self_link, _created_id):
        create = plan(build_from(flows_app(envelope)), "POST", "/flows")
        assert (create.served, create.reason) == (False, "body-unusable"), envelope
        assert any("names the entity it made" in (e.reason or "") for e in create.traces)


def test_a_create_answer_naming_nothing_of_its_entity_is_served():
    bundle = build_from(flows_app(lambda entity: {"meta": {"version": "2.1"}}))
    create = plan(bundle, "POST", "/flows")
    assert create.served, create.reason
    status, _, body = post(EnvironmentRuntime(bundle), {"name": "fresh", "tags": []})
    assert status == 201 and body["meta"] == {"version": "2.1"} and body["data"]["name"] == "fresh"


def test_no_answer_names_the_recorded_entity_for_another():
    """Whatever is served, an answer never names an id the call did not make or find."""
    for envelope, headers in ((_self_link, lambda e: []), (_created_id, lambda e: []),
                              (lambda e: {}, lambda e: [("X-Flow-Id", e["id"])])):
        bundle = build_from(flows_app(envelope, headers, found=True))
        runtime = EnvironmentRuntime(bundle)
        for body in ({"name": "ops", "tags": ["z"]}, {"name": "fresh", "tags": []}):
            answered = post(runtime, body)
            if not 200 <= answered[0] < 300:
                continue
            text = json.dumps(answered[1:])
            own = answered[2]["data"]["id"]
            recorded = {FLOWS[0]["id"], NEW["id"]} - {own}
            assert not any(other in text for other in recorded), (envelope, body, answered)


def test_a_get_or_create_whose_found_answer_names_its_entity_is_not_served():
    create = plan(build_from(flows_app(_self_link, found=True)), "POST", "/flows")
    assert not create.served


def test_a_get_or_create_answering_a_header_naming_its_entity_leaves_it_out():
    bundle = build_from(flows_app(lambda e: {}, lambda e: [("X-Flow-Id", e["id"])], found=True))
    create = plan(bundle, "POST", "/flows")
    assert create.served and create.key is not None, create.reason
    status, headers, body = post(EnvironmentRuntime(bundle), {"name": "ops", "tags": ["z"]})
    assert (status, body["data"]) == (200, FLOWS[1])
    assert "X-Flow-Id" not in headers

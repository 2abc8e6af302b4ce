"""A POST to an item path whose calls answered 201 Created makes the entity its path names, the
client choosing its identity (JupyterHub's POST /users/{name}; rule effect.create-at-item):
served as a create in the collection the call names, the identity from the call's own path,
a held name refused. A POST answering 200 is a create too where the capture showed the entity
absent before it (effect.create-at-item-absent: the 404 read of /users/zed), else an update."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ANN = {"name": "ann", "admin": False, "created": "2026-01-05T10:00:00.000000Z"}
BOB = {"name": "bob", "admin": True, "created": "2026-01-05T10:01:00.000000Z"}
MISSING = {"status": 404, "message": "Not Found"}


def users_app(create_status: int = 201, *, absent_before: bool = True) -> HarBuilder:
    zed = {"name": "zed", "admin": False, "created": "2026-01-06T09:00:00.000000Z"}
    har = HarBuilder(start="2026-01-06T09:00:00Z")
    if absent_before:
        har.call("GET", "/users", response=[ANN, BOB])
    har.call("GET", "/users/ann", response=ANN).call("GET", "/users/bob", response=BOB)
    if absent_before:
        har.call("GET", "/users/zed", status=404, response=MISSING)
    return (har
            .call("POST", "/users/zed", body={}, status=create_status, response=zed)
            .call("GET", "/users/zed", response=zed)
            .call("GET", "/users", response=[ANN, BOB, zed]))


def http(runtime: EnvironmentRuntime, method: str, path: str, body: bytes = b""):
    return runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),), body))


def test_a_post_to_an_item_path_answering_201_is_a_served_create_in_the_collection_the_call_names():
    bundle = build_from(users_app())
    plan = next(p for p in bundle.view.writes if p.tool == "post_users_by_user_id")
    assert plan.effect == "create" and plan.served, plan.reason
    assert plan.collection is None  # untied: each call's own path names the collection and the entity
    assert any(e.rule_id == "effect.create-at-item" and e.outcome == "match" for e in plan.traces)


def test_the_served_create_takes_its_identity_from_the_calls_path_and_refuses_a_held_one():
    runtime = EnvironmentRuntime(build_from(users_app()))
    made = http(runtime, "POST", "/users/yan", b"{}")
    assert made.status == 201 and b'"name":"yan"' in made.body.replace(b" ", b"")
    assert b'"yan"' in http(runtime, "GET", "/users/yan").body
    assert b'"yan"' in http(runtime, "GET", "/users").body
    again = http(runtime, "POST", "/users/ann", b"{}")
    assert again.status >= 400 and b"already held" in again.body
    assert http(runtime, "POST", "/users/kim", b'{"admin": true}').status == 400  # a member never sent
    assert http(runtime, "GET", "/users/kim").status == 404


def test_a_post_to_an_item_path_answering_200_after_its_absence_is_a_create():
    plan = next(p for p in build_from(users_app(200)).view.writes if p.tool == "post_users_by_user_id")
    assert plan.effect == "create"
    assert any(e.rule_id == "effect.create-at-item-absent" and e.outcome == "match" for e in plan.traces)


def test_a_post_to_an_item_path_answering_200_with_no_absence_shown_stays_an_update():
    plan = next(p for p in build_from(users_app(200, absent_before=False)).view.writes
                if p.tool == "post_users_by_user_id")
    assert plan.effect == "update"

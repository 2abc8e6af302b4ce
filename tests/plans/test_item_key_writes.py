"""Writes naming their entity by a key member under a literal sub-path (issue 16:
``/users/by-email/{email}``, Prefect's ``/variables/name/{name}``), decided by ``write-item-keys``:
the plan addresses the entity by that member, the gate checks it by identity, and serving writes
the one entity holding the call's value, answering the learned absence when none does and
refusing when several do."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ANN = {"id": "0b5e1c6a-3f1d-4c6e-9a52-7f3e8d2c1a01", "email": "ann@example.test", "name": "Ann"}
BO = {"id": "6d2a9f10-8e4b-4f0c-b1d3-2c9e7a5f4b02", "email": "bo@example.test", "name": "Bo"}
MISSING = {"detail": "User not found."}


def users_app(read_by_email: bool = True) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/users", response=[ANN, BO])
           .call("GET", f"/users/{ANN['id']}", response=ANN)
           .call("GET", f"/users/{BO['id']}", response=BO))
    if read_by_email:
        har.call("GET", "/users/by-email/ann@example.test", response=ANN)
        har.call("GET", "/users/by-email/bo@example.test", response=BO)
        har.call("GET", "/users/by-email/nobody@example.test", status=404, response=MISSING)
    har.call("PATCH", "/users/by-email/ann@example.test", body={"name": "Ann B"}, status=204)
    har.call("GET", f"/users/{ANN['id']}", response={**ANN, "name": "Ann B"})
    har.call("PATCH", "/users/by-email/bo@example.test", body={"name": "Bo C"}, status=204)
    har.call("GET", f"/users/{BO['id']}", response={**BO, "name": "Bo C"})
    har.call("DELETE", "/users/by-email/ann@example.test", status=204)
    har.call("GET", f"/users/{ANN['id']}", status=404, response=MISSING)
    har.call("GET", "/users", response=[{**BO, "name": "Bo C"}])
    return har


def plan_of(bundle, tool: str):
    return next(p for p in bundle.view.writes if p.tool == tool)


def call(runtime: EnvironmentRuntime, method: str, path: str, body: dict | None = None):
    answer = runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),),
                                      json.dumps(body).encode() if body is not None else b""))
    return answer.status, json.loads(answer.body) if answer.body else None


def test_writes_by_a_key_read_at_the_same_path_are_item_writes_addressed_by_it():
    bundle = build_from(users_app())
    for tool in ("patch_users_by_email_by_by_email_id", "delete_users_by_email_by_by_email_id"):
        plan = plan_of(bundle, tool)
        assert plan.address is not None and plan.address.member == "email", tool
        assert plan.served, (tool, plan.reason)
        assert any(e.rule_id == "item-key.read-by-key" for e in plan.traces)


def test_with_no_read_at_that_path_two_calls_each_naming_one_holder_decide_it():
    ann, bo = {**ANN, "handle": "Xk29fQa7Lm"}, {**BO, "handle": "Pz81cRt4Wn"}
    har = (HarBuilder()
           .call("GET", "/users", response=[ann, bo])
           .call("GET", f"/users/{ANN['id']}", response=ann)
           .call("PATCH", "/users/by-handle/Xk29fQa7Lm", body={"name": "Ann B"}, status=204)
           .call("GET", f"/users/{ANN['id']}", response={**ann, "name": "Ann B"})
           .call("PATCH", "/users/by-handle/Pz81cRt4Wn", body={"name": "Bo C"}, status=204)
           .call("GET", f"/users/{BO['id']}", response={**bo, "name": "Bo C"})
           .call("PUT", "/users/by-handle/Pz81cRt4Wn", body={"name": "Bo D"}, status=204)
           .call("GET", f"/users/{BO['id']}", response={**bo, "name": "Bo D"}))
    bundle = build_from(har)
    plan = next(p for p in bundle.view.writes if p.method == "PATCH")
    assert plan.address is not None and plan.address.member == "handle", plan.traces
    assert any(e.rule_id == "item-key.calls-name-holder" and e.outcome == "match" for e in plan.traces)
    assert plan.served, plan.reason
    put = next(p for p in bundle.view.writes if p.method == "PUT")  # one call alone proves nothing
    assert put.effect == "none" and put.build_reason == "no-effect"
    assert any(e.rule_id == "item-key.calls-name-holder" and "fewer than 2" in (e.reason or "") for e in put.traces)


def test_serving_writes_the_one_holder_and_answers_a_missing_key_with_the_learned_absence():
    runtime = EnvironmentRuntime(build_from(users_app()))
    assert call(runtime, "PATCH", "/users/by-email/bo@example.test", {"name": "Bob"})[0] == 204
    assert call(runtime, "GET", f"/users/{BO['id']}")[1]["name"] == "Bob"
    assert call(runtime, "GET", f"/users/{ANN['id']}")[1]["name"] == "Ann"  # the other one untouched
    assert call(runtime, "PATCH", "/users/by-email/zed@example.test", {"name": "Z"}) == (404, MISSING)
    assert call(runtime, "DELETE", "/users/by-email/bo@example.test")[0] == 204
    assert call(runtime, "DELETE", "/users/by-email/bo@example.test") == (404, MISSING)
    assert [u["id"] for u in call(runtime, "GET", "/users")[1]] == [ANN["id"]]


def test_serving_refuses_a_key_value_two_entities_hold_and_changes_nothing():
    runtime = EnvironmentRuntime(build_from(users_app()))
    state = json.loads(runtime.data_get())
    for collection in state["collections"]:
        for entity in collection["entities"]:
            entity["value"]["email"] = "same@example.test"
    runtime.data_add(json.dumps(state).encode())
    before = runtime.data_get()
    answer = runtime.call_tool("patch_users_by_email_by_by_email_id", {"by_email_id": "same@example.test", "body": {"name": "X"}})
    assert answer.is_error
    assert "2 users entities hold 'email' 'same@example.test'" in json.dumps(answer.structured)
    assert runtime.data_get() == before


def test_an_update_giving_an_entity_a_key_another_holds_is_refused_where_creates_refuse_it():
    har = users_app()
    har.call("POST", "/users", body={"email": "cy@example.test", "name": "Cy"}, status=201,
             response={"id": "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b10", "email": "cy@example.test", "name": "Cy"})
    har.call("GET", "/users/9e8d7c6b-5a49-4382-9170-6f5e4d3c2b10",
             response={"id": "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b10", "email": "cy@example.test", "name": "Cy"})
    har.call("POST", "/users", body={"email": "cy@example.test", "name": "Other"}, status=409,
             response={"detail": "email taken"})
    har.call("PATCH", f"/users/{BO['id']}", body={"email": "bob@example.test"}, status=204)
    har.call("GET", f"/users/{BO['id']}", response={**BO, "name": "Bo C", "email": "bob@example.test"})
    cy = "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b10"
    har.call("PATCH", f"/users/{cy}", body={"email": "cy2@example.test"}, status=204)
    har.call("GET", f"/users/{cy}", response={"id": cy, "email": "cy2@example.test", "name": "Cy"})
    runtime = EnvironmentRuntime(build_from(har))
    patch = next(p for p in runtime.bundle.view.writes if p.tool == "patch_users_by_user_id")
    assert patch.served, patch.reason
    before = runtime.data_get()
    status, body = call(runtime, "PATCH", f"/users/{BO['id']}", {"email": "ann@example.test"})
    assert status == 409 or status >= 400, (status, body)
    assert "holds email 'ann@example.test'" in json.dumps(body) and runtime.data_get() == before
    assert call(runtime, "PATCH", f"/users/{BO['id']}", {"email": "new@example.test"})[0] == 204


def test_a_read_by_a_key_two_entities_hold_is_refused():
    runtime = EnvironmentRuntime(build_from(users_app()))
    state = json.loads(runtime.data_get())
    for collection in state["collections"]:
        for entity in collection["entities"]:
            entity["value"]["email"] = "same@example.test"
    runtime.data_add(json.dumps(state).encode())
    status, body = call(runtime, "GET", "/users/by-email/same@example.test")
    assert status == 409 and '2 users entities hold \\"email\\" \\"same@example.test\\"' in json.dumps(body)
    assert call(runtime, "GET", f"/users/{ANN['id']}")[0] == 200

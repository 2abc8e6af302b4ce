"""A create whose recorded calls answered an entity the state already held (issue 16 item 4): a
get-or-create learns its key from that call (``create-keys``) and is served with it, both branches
proved by the gate; an upsert, or a key the gate cannot confirm, leaves it unserved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

FLOWS = [{"id": "5b1c9a52-8f6e-4b1a-9f0e-7c2d3e4f5a61", "name": "etl", "tags": ["a"]}]
NEW = {"id": "7d0f6c52-1e6b-4c1e-9d3e-2f6a1c0b9e11", "name": "train", "tags": ["t"]}


def flows_app(second_status: int, second_answer: dict, second_body: dict) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/flows", response=FLOWS)
            .call("GET", f"/flows/{FLOWS[0]['id']}", response=FLOWS[0])
            .call("POST", "/flows", body={"name": "train", "tags": ["t"]}, status=201, response=NEW)
            .call("GET", f"/flows/{NEW['id']}", response=NEW)
            .call("POST", "/flows", body=second_body, status=second_status, response=second_answer)
            .call("GET", "/flows", response=FLOWS + [NEW]))


def plan_of(bundle, tool: str):
    return next(p for p in bundle.view.writes if p.tool == tool)


def post(runtime: EnvironmentRuntime, path: str, body: dict):
    answer = runtime.http(HttpRequest("POST", path, (), (("content-type", "application/json"),),
                                      json.dumps(body).encode()))
    return answer.status, json.loads(answer.body)


def test_a_create_naming_a_held_key_learns_the_key_and_is_served():
    plan = plan_of(build_from(flows_app(200, FLOWS[0], {"name": "etl", "tags": ["other"]})), "post_flows")
    assert plan.served, plan.reason
    assert plan.key is not None and plan.key.members == ("name",) and plan.key.learned_from == 5
    assert plan.key.response.status == 200 and plan.answered_held is None
    assert any(e.rule_id == "create-key.get-held" for e in plan.traces)
    assert any("the get branch is confirmed" in (e.reason or "") for e in plan.traces)


def test_serving_gets_the_held_entity_its_key_names_and_creates_otherwise():
    runtime = EnvironmentRuntime(build_from(flows_app(200, FLOWS[0], {"name": "etl", "tags": ["other"]})))
    assert post(runtime, "/flows", {"name": "etl", "tags": ["z"]}) == (200, FLOWS[0])  # the sent tags ignored
    status, made = post(runtime, "/flows", {"name": "score", "tags": ["s"]})
    assert status == 201 and made["name"] == "score" and made["id"] != FLOWS[0]["id"]
    again = post(runtime, "/flows", {"name": "score", "tags": ["other"]})
    assert again == (200, made)  # the entity the first call made, not a duplicate
    listed = runtime.read("get_flows", {})["body"]
    assert [f["name"] for f in listed] == ["etl", "score"]


def test_an_upsert_by_a_key_is_not_served():
    updated = {**FLOWS[0], "tags": ["other"]}  # the answer wrote the sent tags into the held flow
    plan = plan_of(build_from(flows_app(200, updated, {"name": "etl", "tags": ["other"]})), "post_flows")
    assert not plan.served and plan.reason == "get-or-create" and plan.key is None
    assert "an upsert, not modelled" in plan.answered_held
    assert any(e.rule_id == "create-key.upsert" for e in plan.traces)


def test_a_later_call_creating_where_the_key_names_a_held_entity_contradicts_the_key():
    har = (flows_app(200, FLOWS[0], {"name": "etl", "tags": ["other"]})
           .call("POST", "/flows", body={"name": "etl", "tags": ["b"]}, status=201,
                 response={"id": "0a9fa248-2be8-496c-bc8e-3a0f61e263f0", "name": "etl", "tags": ["b"]}))
    plan = plan_of(build_from(har), "post_flows")
    assert not plan.served and plan.reason == "contradicted" and plan.contradicted_by == 7
    assert any("serving would get the held flows" in (e.reason or "") for e in plan.traces)


def test_every_call_making_a_new_entity_keeps_a_plain_create():
    other = {"id": "0a9fa248-2be8-496c-bc8e-3a0f61e263f0", "name": "score", "tags": ["s"]}
    har = flows_app(201, other, {"name": "score", "tags": ["s"]}).call("GET", f"/flows/{other['id']}",
                                                                        response=other)
    plan = plan_of(build_from(har), "post_flows")
    assert plan.key is None and plan.answered_held is None and plan.reason != "get-or-create"


def test_a_call_serving_would_refuse_is_no_evidence():
    # the second call sends a member the plan does not accept: serving refuses it, no duplicate
    har = flows_app(200, FLOWS[0], {"name": "etl", "tags": ["x"], "force": True})
    plan = plan_of(build_from(har), "post_flows")
    assert plan.answered_held is None and plan.key is None


def test_an_id_reused_after_a_delete_is_a_new_entity():
    notes = [{"id": 1, "text": "a"}]
    har = (HarBuilder()
           .call("GET", "/notes", response=notes)
           .call("GET", "/notes/1", response=notes[0])
           .call("POST", "/notes", body={"text": "b"}, status=201, response={"id": 2, "text": "b"})
           .call("GET", "/notes/2", response={"id": 2, "text": "b"})
           .call("DELETE", "/notes/2", status=200, response={})
           .call("POST", "/notes", body={"text": "c"}, status=200, response={"id": 2, "text": "c"})
           .call("GET", "/notes/2", response={"id": 2, "text": "c"}))
    plan = plan_of(build_from(har), "post_notes")
    assert plan.answered_held is None and plan.key is None


def test_prefect_flows_get_by_name_and_tag_limits_stay_unserved(bundle_dir: Callable[[str], Path]):
    bundle = read_bundle(bundle_dir("prefect"))
    flows = plan_of(bundle, "post_flows")
    assert flows.served and flows.key is not None and flows.key.members == ("name",)
    assert flows.key.response.status == 200
    limits = plan_of(bundle, "post_concurrency_limits")  # an upsert by tag: the sent limit is written
    assert not limits.served and limits.reason == "get-or-create" and limits.key is None
    assert "an upsert, not modelled" in limits.answered_held


def test_prefect_a_held_flow_name_answers_the_held_flow_unchanged(bundle_dir: Callable[[str], Path]):
    runtime = EnvironmentRuntime(read_bundle(bundle_dir("prefect")))
    before = runtime.read("get_flows_name_by_name", {"name": "etl-daily"})["body"]
    status, got = post(runtime, "/api/flows/", {"name": "etl-daily", "tags": ["other", "tags"]})
    assert status == 200 and got == before and got["tags"] == ["etl", "daily"]
    status, made = post(runtime, "/api/flows/", {"name": "brand-new", "tags": []})
    assert status == 201 and made["id"] != before["id"]
    assert post(runtime, "/api/flows/", {"name": "brand-new", "tags": ["x"]}) == (200, made)


# --- a conflict: the application refuses a second entity with a held key --------------------

VARS = [{"id": "4a344bbc-a8fc-424a-b854-a0d2b4231c44", "name": "env", "value": "prod"},
        {"id": "d9b8acd0-7708-4a54-b586-5af0758ce2b0", "name": "flags", "value": "on"}]
MADE = {"id": "a06bcac0-d1ad-43e1-beaa-500b98f5d7c6", "name": "fresh", "value": "x"}


def variables_app(refused_status: int = 409) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/vars", response=VARS)
            .call("GET", f"/vars/{VARS[0]['id']}", response=VARS[0])
            .call("POST", "/vars", body={"name": "fresh", "value": "x"}, status=201, response=MADE)
            .call("GET", f"/vars/{MADE['id']}", response=MADE)
            .call("POST", "/vars", body={"name": "env", "value": "other"}, status=refused_status,
                  response={"detail": "A variable with the name 'env' already exists."})
            .call("GET", "/vars", response=VARS + [MADE]))


def test_a_conflict_on_a_held_name_learns_a_key_serving_refuses_by():
    bundle = build_from(variables_app())
    plan = plan_of(bundle, "post_vars")
    assert plan.served, plan.reason
    assert plan.key is not None and plan.key.branch == "conflict" and plan.key.members == ("name",)
    assert any(e.rule_id == "create-key.conflict" for e in plan.traces)
    runtime = EnvironmentRuntime(bundle)
    status, refused = post(runtime, "/vars", {"name": "env", "value": "again"})
    assert status == 409 and refused["error"] == "conflict" and "name 'env' is held" in refused["message"]
    status, made = post(runtime, "/vars", {"name": "score", "value": "1"})
    assert status == 201 and made["name"] == "score"
    assert post(runtime, "/vars", {"name": "score", "value": "2"})[0] == 409
    assert [v["name"] for v in runtime.read("get_vars", {})["body"]] == ["env", "flags", "score"]


def test_a_create_the_application_made_under_a_held_key_contradicts_the_conflict_key():
    twin = {"id": "0cfe6e8a-8036-4262-bd4a-6e65996452e0", "name": "flags", "value": "again"}
    har = variables_app().call("POST", "/vars", body={"name": "flags", "value": "again"}, status=201,
                               response=twin)
    plan = plan_of(build_from(har), "post_vars")
    assert not plan.served and plan.reason == "contradicted" and plan.contradicted_by == 7


def test_a_refusal_that_is_no_conflict_teaches_no_key():
    plan = plan_of(build_from(variables_app(refused_status=422)), "post_vars")
    assert plan.key is None and plan.served, plan.reason


def test_prefect_a_held_variable_or_pool_name_is_refused_as_the_application_refuses_it(
        bundle_dir: Callable[[str], Path]):
    bundle = read_bundle(bundle_dir("prefect"))
    for tool in ("post_variables", "post_work_pools"):
        plan = plan_of(bundle, tool)
        assert plan.served and plan.key is not None and plan.key.branch == "conflict", tool
        assert plan.key.members == ("name",) and plan.key.response.status == 409
    runtime = EnvironmentRuntime(bundle)
    status, refused = post(runtime, "/api/variables/", {"name": "env", "value": "x", "tags": []})
    assert status == 409 and refused["error"] == "conflict"
    assert runtime.read("get_variables_name_by_name", {"name": "env"})["body"]["value"] == "prod"


def patch(runtime: EnvironmentRuntime, path: str, body: dict):
    answer = runtime.http(HttpRequest("PATCH", path, (), (("content-type", "application/json"),),
                                      json.dumps(body).encode()))
    return answer.status, json.loads(answer.body)


def test_an_update_giving_an_entity_the_key_another_holds_is_refused_where_creates_refuse_it():
    flags = VARS[1]
    renamed = {**flags, "name": "switches"}
    har = (variables_app()
           .call("PATCH", f"/vars/{flags['id']}", body={"name": "switches"}, response=renamed)
           .call("GET", f"/vars/{flags['id']}", response=renamed))
    bundle = build_from(har)
    assert plan_of(bundle, "patch_vars_by_var_id").served, plan_of(bundle, "patch_vars_by_var_id").reason
    runtime = EnvironmentRuntime(bundle)
    status, refused = patch(runtime, f"/vars/{flags['id']}", {"name": "env"})  # env's own name: two would hold it
    assert status == 409 and refused["error"] == "conflict" and "holds name 'env'" in refused["message"], refused
    assert runtime.read("get_vars", {})["body"][1]["name"] == "flags"  # refused: unchanged
    assert patch(runtime, f"/vars/{flags['id']}", {"name": "toggles"}) == (200, {**flags, "name": "toggles"})
    assert patch(runtime, f"/vars/{VARS[0]['id']}", {"name": "env"})[0] == 200  # its own name: no second one

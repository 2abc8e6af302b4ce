"""data/get after served writes (write-effects "Data plane and export"): written entities and
documents appear without record citations, and the document loads back through data/add
unchanged — into the same runtime and into a fresh one — where reads serve what was written."""

from __future__ import annotations

import json

from write_calls import NEW_POST, accepted, document

from capenv.serving.runtime import EnvironmentRuntime


def write_some(runtime: EnvironmentRuntime) -> int:
    new_id = accepted(runtime, "post_posts", {"body": NEW_POST})["state"]["id"]
    accepted(runtime, "patch_posts_by_post_id", {"post_id": "2", "body": {"author": "carol"}})
    accepted(runtime, "delete_comments_by_comment_id", {"comment_id": "4"})
    accepted(runtime, "patch_profile", {"body": {"theme": "dark"}})
    return new_id


def test_written_entities_carry_no_record_citations(runtime) -> None:
    initial = document(runtime)
    new_id = write_some(runtime)
    state = document(runtime)
    posts = {e["id"]: e for c in state["collections"] if c["path"] == "/posts" for e in c["entities"]}
    initial_posts = {e["id"]: e for c in initial["collections"] if c["path"] == "/posts" for e in c["entities"]}
    assert posts[new_id] == {"id": new_id, "value": {**NEW_POST, "id": new_id}, "records": []}
    assert posts[2]["records"] == [] and posts[2]["value"]["author"] == "carol"
    assert posts[1] == initial_posts[1] and posts[1]["records"]  # untouched: still cited
    profile = next(d for d in state["documents"] if d["path"] == "/profile")
    assert profile["records"] == [] and profile["value"]["theme"] == "dark"


def test_data_get_after_writes_loads_back_unchanged(runtime, json_server_bundle) -> None:
    write_some(runtime)
    written = runtime.data_get()
    runtime.data_add(written)
    assert runtime.data_get() == written
    fresh = EnvironmentRuntime(json_server_bundle)
    fresh.data_add(written)
    assert fresh.data_get() == written


def test_a_loaded_state_serves_what_was_written(runtime, json_server_bundle) -> None:
    new_id = write_some(runtime)
    fresh = EnvironmentRuntime(json_server_bundle)
    fresh.data_add(runtime.data_get())
    item = accepted(fresh, "get_posts_by_post_id", {"post_id": str(new_id)})
    assert item["body"] == {**NEW_POST, "id": new_id} and item["state"]["view"] == "item"
    assert accepted(fresh, "get_comments_by_comment_id", {"comment_id": "4"})["state"]["view"] == "missing"
    assert accepted(fresh, "get_profile", {})["body"]["theme"] == "dark"
    # and the loaded state keeps serving writes: the sequence continues past the loaded entity
    assert accepted(fresh, "post_posts", {"body": {**NEW_POST, "title": "Another new post"}})["state"]["id"] == new_id + 1


def test_a_round_trip_of_prefect_writes(bundle_of) -> None:
    runtime = EnvironmentRuntime(bundle_of("prefect"))
    variable = accepted(runtime, "post_variables", {"body": {"name": "rt", "value": "x", "tags": []}})["state"]["id"]
    accepted(runtime, "patch_deployments_by_deployment_id", {"deployment_id": "d592824c-566c-49d2-84f1-611fc0586d45",
                                                             "body": {"description": "changed"}})
    accepted(runtime, "post_work_pools", {"body": {"name": "rt-pool", "type": "process"}})
    written = runtime.data_get()
    fresh = EnvironmentRuntime(bundle_of("prefect"))
    fresh.data_add(written)
    assert fresh.data_get() == written
    variables = next(c for c in json.loads(written)["collections"] if c["path"] == "/api/variables")
    assert next(e for e in variables["entities"] if e["id"] == variable)["records"] == []

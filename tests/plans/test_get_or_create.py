"""A create whose recorded calls answered an entity the state already held (a get-or-create or an
upsert by a key) is not served as a plain create (issue 16 item 4): the same call would make a
duplicate with a new id where the application answers the existing entity."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.io import read_bundle

FLOWS = [{"id": "5b1c9a52-8f6e-4b1a-9f0e-7c2d3e4f5a61", "name": "etl"}]
NEW = {"id": "7d0f6c52-1e6b-4c1e-9d3e-2f6a1c0b9e11", "name": "train"}


def flows_app(second_status: int, second_answer: dict, second_body: dict) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/flows", response=FLOWS)
            .call("GET", f"/flows/{FLOWS[0]['id']}", response=FLOWS[0])
            .call("POST", "/flows", body={"name": "train"}, status=201, response=NEW)
            .call("GET", f"/flows/{NEW['id']}", response=NEW)
            .call("POST", "/flows", body=second_body, status=second_status, response=second_answer)
            .call("GET", "/flows", response=FLOWS + [NEW]))


def plan_of(bundle, tool: str):
    return next(p for p in bundle.view.writes if p.tool == tool)


def test_a_create_answering_a_held_entity_by_its_name_is_not_served():
    plan = plan_of(build_from(flows_app(200, FLOWS[0], {"name": "etl"})), "post_flows")
    assert not plan.served and plan.reason == "get-or-create"
    assert plan.answered_held is not None and "record 5 answered 200" in plan.answered_held
    assert "the initial state already held" in plan.answered_held


def test_every_call_making_a_new_entity_keeps_the_create_served():
    other = {"id": "0a9fa248-2be8-496c-bc8e-3a0f61e263f0", "name": "score"}
    har = flows_app(201, other, {"name": "score"}).call("GET", f"/flows/{other['id']}", response=other)
    plan = plan_of(build_from(har), "post_flows")
    assert plan.answered_held is None and plan.reason != "get-or-create"


def test_a_call_serving_would_refuse_is_no_evidence():
    # the second call sends a member the plan does not accept: serving refuses it, no duplicate
    har = flows_app(200, FLOWS[0], {"name": "etl", "force": True})
    assert plan_of(build_from(har), "post_flows").answered_held is None


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
    assert plan_of(build_from(har), "post_notes").answered_held is None


def test_prefect_flows_and_tag_limits_are_get_or_create(bundle_dir: Callable[[str], Path]):
    bundle = read_bundle(bundle_dir("prefect"))
    flows = plan_of(bundle, "post_flows")
    assert not flows.served and flows.reason == "get-or-create"
    assert flows.answered_held and "answered 200 with the flows" in flows.answered_held
    limits = plan_of(bundle, "post_concurrency_limits")
    assert not limits.served and limits.reason == "get-or-create"

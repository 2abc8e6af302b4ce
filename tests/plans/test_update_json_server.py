"""``explain_update`` on json-server's real recorded updates (captures/json-server/capture.har),
each entity as held before taken from the seed or from the capture's own earlier read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from capenv.interpreter.evidence.har import load_evidence
from capenv.interpreter.plans.update_changes import UpdateCall
from test_update_support import explain, member

CAPTURE = Path(__file__).resolve().parents[2] / "captures" / "json-server"


@pytest.fixture(scope="module")
def records():
    evidence = load_evidence(CAPTURE / "capture.har")
    return {record.ordinal: record for record in evidence.records}


@pytest.fixture(scope="module")
def seed():
    return json.loads((CAPTURE / "seed.json").read_text())


def recorded_call(record, before, *, later_read=None) -> UpdateCall:
    return UpdateCall(body=record.request.json_value, before=before, after=record.response.json_value,
                      observed_by="response", started_at=record.started_at, ordinal=record.ordinal,
                      later_read=later_read)


def test_patch_post_views_is_an_echo_and_nothing_is_unexplained(records, seed):
    patch = records[47]
    assert (patch.method, patch.path, patch.request.json_value) == ("PATCH", "/posts/1", {"views": 121})
    post = seed["posts"][0]
    assert post["views"] == 120
    plan = explain(recorded_call(patch, post, later_read=records[48].response.json_value), method="PATCH",
                   type_entities=seed["posts"])
    assert [(f.field, f.rule_id, f.op, f.params) for f in plan.fields] == [
        ("views", "update-member.echo", "echo", {"member": "views"})]
    assert [(m.member, m.admission, m.required, m.kind) for m in plan.members] == [
        ("views", "accepted", False, "integer")]
    assert (plan.min_members, plan.build_reason, plan.problems, plan.unconfirmed) == (1, None, [], [])


def test_put_user_with_a_partial_body_drops_role(records):
    put, read = records[55], records[56]
    assert (put.method, put.path) == ("PUT", "/users/4")
    dave = records[33].response.json_value  # GET /users/4 after the create
    plan = explain(recorded_call(put, dave, later_read=read.response.json_value), method="PUT", path_id="4")
    assert plan.build_reason == "unexplained-change"
    assert [(p.check, p.subject, p.ordinal) for p in plan.problems] == [("dropped-field", "role", 55)]


def test_patch_user_with_another_id_the_application_ignored(records, seed):
    patch = records[57]
    assert patch.request.json_value == {"id": 99, "role": "admin"}
    plan = explain(recorded_call(patch, seed["users"][1], later_read=records[58].response.json_value),
                   method="PATCH", path_id="2", type_entities=seed["users"])
    identity = member(plan, "id")
    assert (identity.rule_id, identity.admission, identity.recorded_value) == \
           ("update-member.ignored-identity", "recorded-only", 99)
    assert [f.field for f in plan.fields] == ["role"]  # the id stores nothing
    assert plan.build_reason is None

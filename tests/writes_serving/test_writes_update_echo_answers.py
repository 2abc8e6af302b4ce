"""Update answers holding the members sent beside a field the application made
(``write-answer-envelopes`` ``answer-envelope.echoed-with-made``: a rename answered
``{id, name, updatedAt}`` where the item read holds more): served with just those fields of the
entity after the call, and only to a call sending exactly the members every recorded call sent."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.writes.answers import render_split
from capenv.serving.writes.calls import WriteRefusal

SEED = [{"updatedAt": "2026-01-01T00:00:00.000Z", "createdAt": "2026-01-01T00:00:00.000Z", "id": "Qm4xT0aLpZ9w",
         "name": "ops"},
        {"updatedAt": "2026-01-01T00:00:01.000Z", "createdAt": "2026-01-01T00:00:01.000Z", "id": "Rk7nWc2KdE3v",
         "name": "billing"}]
RENAMED = {**SEED[1], "name": "finance", "updatedAt": "2026-01-01T00:00:10.046Z"}


def capture() -> HarBuilder:
    har = HarBuilder().call("GET", "/labels", response={"data": SEED})
    for label in SEED:
        har.call("GET", f"/labels/{label['id']}", response=label)
    return (har
            .call("PUT", f"/labels/{RENAMED['id']}", body={"name": "finance"},
                  response={"id": RENAMED["id"], "name": "finance", "updatedAt": RENAMED["updatedAt"]},
                  started="2026-01-01T00:00:10.000Z")
            .call("GET", f"/labels/{RENAMED['id']}", response=RENAMED)
            .call("GET", "/labels", response={"data": [SEED[0], RENAMED]}))


def test_an_update_answered_its_body_and_clock_answers_only_those():
    bundle = build_from(capture())
    plan = next(w for w in bundle.view.writes if w.tool == "put_labels_by_label_id")
    assert plan.served, (plan.reason, plan.build_reason)
    split = plan.response.split
    assert split is not None and split.projection == "acknowledged" and split.sent_members == ("name",)
    runtime = EnvironmentRuntime(bundle)
    answer = accepted(runtime, "put_labels_by_label_id", {"label_id": SEED[0]["id"], "body": {"name": "platform"}})
    body = answer["body"]
    assert sorted(body) == ["id", "name", "updatedAt"] and body["name"] == "platform"
    held = runtime.read("get_labels_by_label_id", {"label_id": SEED[0]["id"]})["body"]
    assert held["name"] == "platform" and held["updatedAt"] == body["updatedAt"]
    assert held["createdAt"] == SEED[0]["createdAt"]


def test_a_call_sending_other_members_is_refused_rather_than_guessed():
    bundle = build_from(capture())
    plan = next(w for w in bundle.view.writes if w.tool == "put_labels_by_label_id")
    entity = {**SEED[0], "colour": "red"}
    with pytest.raises(WriteRefusal, match="send exactly name"):
        render_split(plan, entity, "id", {"name": "x", "colour": "red"}, f"/labels/{SEED[0]['id']}")

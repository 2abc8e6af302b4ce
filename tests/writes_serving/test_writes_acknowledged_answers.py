"""Acknowledging answers (``write-answer-envelopes`` ``answer-envelope.acknowledged``): a create
answered with its identity and a clock only (Parse's 201 ``{"objectId", "createdAt"}``) is
observed by the later read of that id, and served with an answer holding just those members of
the entity it made, never the whole entity rendered into the acknowledgement."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted

from capenv.interpreter.bundle.models import ResponseRule, SplitAnswer, WritePlan
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.writes.answers import render_split
from capenv.serving.writes.calls import WriteRefusal

SEED = [{"objectId": "Hx4bT0qLmZ", "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z",
         "name": "Le Guin", "born": 1929},
        {"objectId": "pR7nWc2KdE", "createdAt": "2026-01-01T00:00:01.000Z", "updatedAt": "2026-01-01T00:00:01.000Z",
         "name": "Lem", "born": 1921}]
MADE = {"objectId": "Ab3dEf6hIj", "createdAt": "2026-01-01T00:00:10.046Z", "updatedAt": "2026-01-01T00:00:10.046Z",
        "name": "Calvino", "born": 1923}


def capture() -> HarBuilder:
    har = HarBuilder().call("GET", "/authors", response={"results": SEED})
    for author in SEED:
        har.call("GET", f"/authors/{author['objectId']}", response=author)
    return (har
            .call("POST", "/authors", body={"name": "Calvino", "born": 1923}, status=201,
                  response={"objectId": MADE["objectId"], "createdAt": MADE["createdAt"]},
                  started="2026-01-01T00:00:10.000Z")
            .call("GET", f"/authors/{MADE['objectId']}", response=MADE)
            .call("GET", "/authors", response={"results": [*SEED, MADE]}))


def test_a_create_acknowledged_with_its_id_and_clock_answers_only_those():
    bundle = build_from(capture())
    plan = next(w for w in bundle.view.writes if w.tool == "post_authors")
    assert plan.served, (plan.reason, plan.build_reason)
    assert plan.response.split is not None and plan.response.split.projection == "acknowledged"
    assert plan.response.split.fields == ("createdAt",) and plan.response.split.id_member == "objectId"
    runtime = EnvironmentRuntime(bundle)
    answer = accepted(runtime, "post_authors", {"body": {"name": "Borges", "born": 1899}})
    body = answer["body"]
    assert list(body) == ["objectId", "createdAt"]  # the acknowledgement, in the recorded order
    made = runtime.read("get_authors_by_author_id", {"author_id": body["objectId"]})["body"]
    assert made["name"] == "Borges" and made["createdAt"] == body["createdAt"]


def test_an_answer_holding_the_whole_entity_is_no_acknowledgement():
    bundle = build_from(HarBuilder().call("GET", "/authors", response={"results": SEED})
                        .call("POST", "/authors", body={"name": "Calvino", "born": 1923}, status=201, response=MADE,
                              started="2026-01-01T00:00:10.000Z")
                        .call("GET", f"/authors/{MADE['objectId']}", response=MADE))
    plan = next(w for w in bundle.view.writes if w.tool == "post_authors")
    assert plan.response.split is None


def _plan() -> WritePlan:
    split = SplitAnswer(id_member=None, entity_member=None, projection="acknowledged", fields=("updatedAt",))
    return WritePlan(tool="put_author", method="PUT", template="/authors/{id}", effect="update", type="authors",
                     response=ResponseRule(status=200, content_type="application/json",
                                           body={"updatedAt": "recorded"}, split=split), served=True)


def test_an_update_acknowledged_with_its_clock_answers_the_entity_s_new_clock():
    entity = {**MADE, "name": "Italo Calvino", "updatedAt": "2026-01-01T00:00:20.000Z"}
    assert render_split(_plan(), entity, "objectId", {"name": "Italo Calvino"}, "/authors/Ab3dEf6hIj") == \
        {"updatedAt": "2026-01-01T00:00:20.000Z"}


def test_an_acknowledgement_of_a_field_the_entity_lacks_is_refused():
    entity = {key: value for key, value in MADE.items() if key != "updatedAt"}
    with pytest.raises(WriteRefusal, match="updatedAt"):
        render_split(_plan(), entity, "objectId", {"name": "x"}, "/authors/Ab3dEf6hIj")

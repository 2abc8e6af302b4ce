"""Acknowledging answers (``write-answer-envelopes`` ``answer-envelope.acknowledged``): a create
answered with its identity and a clock only (Parse's 201 ``{"objectId", "createdAt"}``) is
observed by the later read of that id, and served with an answer holding just those members of
the entity it made, never the whole entity rendered into the acknowledgement; inside a one-member
envelope too (``answer-envelope.acknowledged-in-envelope``: Roundup's ``{"data": {"id", "link"}}``)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted, refused

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


KEYWORDS = [{"id": "1", "type": "keyword", "link": "http://h/rest/keyword/1", "attributes": {"name": "ui"}},
            {"id": "2", "type": "keyword", "link": "http://h/rest/keyword/2", "attributes": {"name": "backend"}}]


def enveloped_capture() -> HarBuilder:
    """Creates acknowledged inside a one-member envelope, as the item reads wrap their entity."""
    har = HarBuilder().call("GET", "/rest/keyword", response={"data": {"collection": KEYWORDS}})
    for keyword in KEYWORDS:
        har.call("GET", f"/rest/keyword/{keyword['id']}", response={"data": keyword})
    for number, name in (("3", "perf"), ("4", "security")):
        made = {"id": number, "type": "keyword", "link": f"http://h/rest/keyword/{number}", "attributes": {"name": name}}
        har.call("POST", "/rest/keyword", body={"name": name}, status=201,
                 response={"data": {"id": number, "link": made["link"]}}, started=f"2026-01-01T00:00:1{number}.000Z")
        har.call("GET", f"/rest/keyword/{number}", response={"data": made})
    return har


def test_a_create_acknowledged_inside_an_envelope_answers_the_acknowledgement_in_it():
    bundle = build_from(enveloped_capture())
    plan = next(w for w in bundle.view.writes if w.tool == "post_keyword")
    split = plan.response.split
    assert split is not None and split.projection == "acknowledged", (plan.reason, plan.build_reason)
    assert split.entity_member == "data" and split.fields == ("link",) and split.id_member == "id"
    assert plan.served, (plan.reason, plan.build_reason)
    runtime = EnvironmentRuntime(bundle)
    answer = accepted(runtime, "post_keyword", {"body": {"name": "docs"}})
    # the state holds the initial keywords: the next sequence value, the link rebuilt around it
    assert answer["body"] == {"data": {"id": "3", "link": "http://h/rest/keyword/3"}}
    made = runtime.read("get_keyword_by_keyword_id", {"keyword_id": "3"})["body"]
    assert made["data"]["attributes"] == {"name": "docs"}


def test_a_name_held_inside_the_grouped_object_is_not_taken_twice():
    """Every name the capture shows under attributes is distinct (write-distinct-values, judged
    inside the grouped object): a second keyword named as a held one is refused, state unchanged."""
    bundle = build_from(enveloped_capture())
    plan = next(w for w in bundle.view.writes if w.tool == "post_keyword")
    assert [(d.group, d.member) for d in plan.distinct_members] == [("attributes", "name")]
    runtime = EnvironmentRuntime(bundle)
    assert "already holds" in str(refused(runtime, "post_keyword", {"body": {"name": "UI"}}))
    accepted(runtime, "post_keyword", {"body": {"name": "frontend"}})


def test_an_acknowledgement_in_an_envelope_renders_under_that_member():
    split = SplitAnswer(id_member="id", entity_member="data", projection="acknowledged", fields=("link",))
    plan = WritePlan(tool="post_keyword", method="POST", template="/rest/keyword", effect="create", type="keyword",
                     response=ResponseRule(status=201, content_type="application/json",
                                           body={"data": {"id": "3", "link": "recorded"}}, split=split), served=True)
    entity = {"id": "9", "type": "keyword", "link": "http://h/rest/keyword/9", "attributes": {"name": "x"}}
    assert render_split(plan, entity, "id", {"name": "x"}, "/rest/keyword") == \
        {"data": {"id": "9", "link": "http://h/rest/keyword/9"}}

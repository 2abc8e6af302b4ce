"""The exemplar, request-body admission and the written entity's observation (write-effects,
"Exemplar"), from small synthetic captures of an ``/items`` app."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan

C = {"id": 3, "title": "c"}
LIMIT = 256 * 1024


def _create(**request) -> object:
    """A create sending ``request`` (HarBuilder.call keywords), confirmed by an item read."""
    bundle = build_from(items_app()
                        .call("POST", "/items", status=201, response=C, **request)   # 4
                        .call("GET", "/items/3", response=C))                        # 5
    return plan(bundle, "POST", "/items")


def test_the_first_successful_call_is_the_exemplar():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": ""}, status=422, response={"error": "title"})  # 4
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)                # 5
                        .call("GET", "/items/3", response=C))                                               # 6
    create = plan(bundle, "POST", "/items")
    assert create.exemplar == 5 and create.observation == 5
    assert create.served and create.checked_record_ordinals == (6,)


def test_a_tool_without_a_successful_call_has_no_exemplar():
    bundle = build_from(items_app().call("PATCH", "/items/1", body={"title": ""}, status=422, response={"e": 1}))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.exemplar is None and update.build_reason == "no-successful-call" and not update.served


@pytest.mark.parametrize("request_kw,problem", [
    (dict(body='{"title":"c"}', request_type="text/plain"), "media type"),
    (dict(body="title=c", request_type="application/x-www-form-urlencoded"), "media type"),
    (dict(body='{"title":"c","__proto__":{"admin":true}}'), "__proto__"),
    (dict(body={"title": "c", "pad": "x" * (LIMIT + 1)}), "past"),
    (dict(body=[{"title": "c"}]), "not a JSON object"),
    (dict(body='"c"'), "not a JSON object"),
    (dict(body=b'{"title":"\xff"}'), "UTF-8"),
    (dict(body={"title": "c"}, retained=False), "did not retain"),
], ids=["text-plain", "form", "proto", "over-limit", "array", "string", "not-utf8", "not-retained"])
def test_an_exemplar_body_that_cannot_enter_the_state_is_body_unusable(request_kw, problem):
    create = _create(**request_kw)
    assert create.build_reason == "body-unusable" and create.reason == "body-unusable" and not create.served
    assert any(problem in (t.reason or "") for t in create.traces), [t.reason for t in create.traces]


def test_a_body_just_within_the_limit_is_usable():
    pad = "x" * (LIMIT - len('{"title":"c","pad":""}'))
    create = _create(body={"title": "c", "pad": pad})
    assert create.build_reason != "body-unusable"


def test_a_json_suffix_media_type_is_json():
    create = _create(body='{"title":"c"}', request_type="application/vnd.api+json")
    assert create.build_reason is None and create.served


def test_only_the_exemplars_body_decides():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)
                        .call("GET", "/items/3", response=C)
                        .call("POST", "/items", body="title=d", request_type="text/plain", status=201,
                              response={"id": 4, "title": "d"}))
    assert plan(bundle, "POST", "/items").build_reason != "body-unusable"


def test_a_one_element_array_envelope_is_unwrapped_and_recorded():
    create = _create(body={"items": [{"title": "c"}]})
    assert create.body_envelope == "items"
    assert [(m.member, m.admission) for m in create.members] == [("title", "accepted")]
    assert create.served


@pytest.mark.parametrize("body", [{"items": [{"title": "c"}, {"title": "d"}]}, {"items": [{"title": "c"}], "x": 1}],
                         ids=["two-elements", "another-member"])
def test_no_envelope_without_a_sole_one_element_array(body):
    assert _create(body=body).body_envelope is None


# --- observation ------------------------------------------------------------------------------

def test_a_204_update_is_observed_by_the_next_item_read_of_its_entity():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, status=204)                    # 4
                        .call("GET", "/items/2", response={"id": 2, "title": "t2"})                     # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "x"})                      # 6
                        .call("GET", "/items", response=[{"id": 1, "title": "x"}, {"id": 2, "title": "t2"}]))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.observation == 6 and update.build_reason is None
    assert update.response.status == 204 and not update.response.carries_entity
    # the read the effect was learned from checks nothing of it; the later list does
    assert update.served and update.checked_record_ordinals == (7,)


def test_an_update_answering_with_its_entity_is_observed_in_its_own_response():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"data": {"id": 1, "title": "x"}})
                        .call("GET", "/items/1", response={"id": 1, "title": "x"}))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.observation == 4 and update.response.carries_entity
    assert (update.response.locator.kind, update.response.locator.member) == ("member", "data")
    assert update.served and update.checked_record_ordinals == (5,)


def test_a_create_answering_its_id_alone_is_observed_only_through_the_read_of_that_id():
    listed = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}, C]
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response={"id": 3})   # 4
                        .call("GET", "/items", response=listed)                                       # 5
                        .call("GET", "/items/2", response={"id": 2, "title": "t2"})                   # 6
                        .call("GET", "/items/3", response=C))                                         # 7
    create = plan(bundle, "POST", "/items")
    assert create.observation == 7 and not create.response.carries_entity
    assert {f.field: f.op for f in create.fields} == {"id": "identity", "title": "echo"}
    assert create.served and create.checked_record_ordinals == (5,)


@pytest.mark.parametrize("response", [{"id": 3}, 3003], ids=["id-member", "scalar"])
def test_a_create_with_no_item_read_of_its_id_is_no_observation(response):
    new_id = response["id"] if isinstance(response, dict) else response
    listed = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}, {"id": new_id, "title": "c"}]
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=response)
                        .call("GET", "/items", response=listed))
    create = plan(bundle, "POST", "/items")
    assert create.build_reason == "no-observation" and create.reason == "no-observation"


@pytest.mark.parametrize("later", [None, "list", "other-item"])
def test_an_update_nothing_shows_is_no_observation(later):
    builder = items_app().call("PATCH", "/items/1", body={"title": "x"}, status=204)
    if later == "list":
        builder.call("GET", "/items", response=[{"id": 1, "title": "x"}, {"id": 2, "title": "t2"}])
    elif later == "other-item":
        builder.call("GET", "/items/2", response={"id": 2, "title": "t2"})
    update = plan(build_from(builder), "PATCH", "/items/{item_id}")
    assert update.build_reason == "no-observation" and update.observation is None and not update.served

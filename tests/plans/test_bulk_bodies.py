"""Which bodies a bulk write names its entities in (write-effects, "Bulk writes" over "Exemplar").

"Bulk writes" names entities in an array at the root ([{"Id": 9}]) as well as in an object's one
array member, and serving takes the body "as recorded (an array of objects or of ids …, or an
object), a DELETE included": so a root array is admitted for a bulk PUT or PATCH, though the
exemplar's general rule asks for an object. The rest of the exemplar's admission still holds.
A body naming its ids inside a filter object ({"flows": {"id": {"any_": [...]}}}, as Prefect's
POST /flows/bulk_delete sends) names them in no way the bulk rules admit: body-unusable."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan

ITEMS = [{"id": 1, "title": "t1", "read": False}, {"id": 2, "title": "t2", "read": False}]
READ = [{**e, "read": True} for e in ITEMS]


def _unusable(write):
    return [e.reason for e in write.traces if e.table == "plans" and (e.reason or "").startswith("body-unusable")]


@pytest.mark.parametrize("method", ["PATCH", "PUT"])
def test_a_root_array_of_elements_is_a_bulk_update_body(method):
    bundle = build_from(items_app(ITEMS)
                        .call(method, "/items", body=[{"id": 1, "read": True}, {"id": 2, "read": True}], status=204)
                        .call("GET", "/items", response=READ))
    bulk = plan(bundle, method, "/items")
    assert (bulk.build_reason, bulk.bulk_effect) == (None, "update")
    assert (bulk.address.by, bulk.address.member) == ("elements", None)
    assert [(f.field, f.op) for f in bulk.fields] == [("read", "echo")]
    assert bulk.observation == 5


def test_a_root_id_array_updates_nothing_and_is_still_a_usable_body():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body=[1, 2], status=204)
                        .call("GET", "/items", response=ITEMS))
    bulk = plan(bundle, "PATCH", "/items")
    assert (bulk.address.by, bulk.address.kind) == ("ids", "integer") and bulk.fields == ()
    assert bulk.reason != "body-unusable"


@pytest.mark.parametrize(("body", "request_type", "problem"), [
    ('[{"id": 1, "read": true}]', "text/plain", "media type 'text/plain' is not JSON"),
    ('[{"id": 1, "__proto__": {}}]', "application/json", "__proto__"),
    ('"1"', "application/json", "a JSON string, not an array or an object"),
], ids=["media-type", "proto", "scalar"])
def test_a_bulk_body_the_exemplar_rules_refuse_is_body_unusable(body, request_type, problem):
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body=body, request_type=request_type, status=204)
                        .call("GET", "/items", response=READ))
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.reason == "body-unusable"
    assert any(problem in reason for reason in _unusable(bulk))


def test_a_bulk_delete_without_a_body_names_no_entities():
    bundle = build_from(items_app(ITEMS)
                        .call("DELETE", "/items", status=204)
                        .call("GET", "/items", response=[]))
    bulk = plan(bundle, "DELETE", "/items")
    assert bulk.reason == "body-unusable"
    assert _unusable(bulk) == ["body-unusable: the call sent no body to name its entities in"]


def test_a_later_call_with_a_body_the_exemplar_rules_refuse_makes_the_plan_body_unusable():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1], "read": True}, status=204)        # 4
                        .call("GET", "/items", response=[READ[0], ITEMS[1]])                        # 5
                        .call("PATCH", "/items", body='{"ids": [2], "read": true}', request_type="text/plain",
                              status=204))                                                          # 6
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.reason == "body-unusable"
    assert any(r.startswith("body-unusable: record 6 names its entities otherwise: the request body's media type")
               for r in _unusable(bulk))


def test_a_delete_verb_path_whose_body_filters_by_ids_names_no_entities():
    """Prefect's bulk delete: the ids sit inside a filter object, and the answer lists those it deleted."""
    filtered = {"items": {"id": {"any_": [1, 2]}}}
    bundle = build_from(items_app(ITEMS)
                        .call("POST", "/items/bulk_delete", body=filtered, response={"deleted": [1, 2]})
                        .call("GET", "/items", response=[]))
    bulk = plan(bundle, "POST", "/items/bulk_delete")
    assert (bulk.effect, bulk.reason) == ("bulk", "body-unusable")
    assert [e.rule_id for e in bulk.traces if e.table == "bulk-addresses"] == [
        "bulk-address.root-ids", "bulk-address.root-elements", "bulk-address.ids-member",
        "bulk-address.elements-member"]
    assert _unusable(bulk) == ["body-unusable: the body names no entities (no array of ids or elements at the root "
                               "or in one member)"]


def test_a_delete_verb_path_naming_ids_in_one_member_is_a_bulk_delete():
    bundle = build_from(items_app(ITEMS)
                        .call("POST", "/items/bulk_delete", body={"ids": [1]}, status=204)   # 4
                        .call("GET", "/items", response=ITEMS[1:]))                         # 5
    bulk = plan(bundle, "POST", "/items/bulk_delete")
    assert (bulk.effect, bulk.bulk_effect, bulk.build_reason) == ("bulk", "delete", None)
    assert bulk.served and list(bulk.checked_record_ordinals) == [5]


THREE = [*ITEMS, {"id": 3, "title": "t3", "read": False}]


@pytest.mark.parametrize(("answer", "problem"), [
    ({"deleted": 2}, "the answer holds a number equal to how many ids it named (a count)"),
    ({"deleted": [1, 3]}, "the answer names the recorded ids"),
    ([{"id": 1}], "the answer is an array that is not one element per id"),
    ([{"id": 3}, {"id": 1}], "the answer is an array that is not one element per id"),
], ids=["count", "names-ids", "too-few-elements", "another-order"])
def test_an_answer_serving_could_not_give_for_other_ids_is_body_unusable(answer, problem):
    bundle = build_from(items_app(THREE)
                        .call("DELETE", "/items", body={"ids": [1, 3]}, response=answer)
                        .call("GET", "/items", response=[ITEMS[1]]))
    bulk = plan(bundle, "DELETE", "/items")
    assert bulk.reason == "body-unusable"
    assert _unusable(bulk) == [f"body-unusable: {problem}"]


@pytest.mark.parametrize("answer", [None, {"ok": True}, [{"id": 1, "deleted": True}, {"id": 3, "deleted": True}]],
                         ids=["no-body", "no-ids-no-count", "one-element-per-id"])
def test_an_answer_serving_can_give_for_any_ids_builds_the_plan(answer):
    bundle = build_from(items_app(THREE)
                        .call("DELETE", "/items", body={"ids": [1, 3]}, response=answer,
                              status=204 if answer is None else 200)
                        .call("GET", "/items", response=[ITEMS[1]]))
    bulk = plan(bundle, "DELETE", "/items")
    assert bulk.build_reason is None and bulk.served

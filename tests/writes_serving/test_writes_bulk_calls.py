"""A served bulk tool over the runtime (write-effects "Bulk and action calls"): it takes its body
as recorded — an array of objects or of ids of the recorded kind, or an object — a DELETE
included, and its input schema says so; a refused call leaves the state unchanged."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan
from write_calls import accepted, entities, refused

from capenv.serving.runtime import EnvironmentRuntime

ITEMS = [{"id": 1, "title": "t1", "read": False}, {"id": 2, "title": "t2", "read": False},
         {"id": 3, "title": "t3", "read": False}]


def _served(builder, method):
    bundle = build_from(builder)
    bulk = plan(bundle, method, "/items")
    assert bulk.served, bulk.reason
    runtime = EnvironmentRuntime(bundle)
    return runtime, {spec.name: spec for spec in runtime.tools()}[bulk.tool]


def _root_array_update():
    return _served(items_app(ITEMS)
                   .call("PATCH", "/items", body=[{"id": 1, "read": True}], status=204)     # 5
                   .call("GET", "/items/1", response={**ITEMS[0], "read": True})           # 6
                   .call("GET", "/items", response=[{**ITEMS[0], "read": True}, *ITEMS[1:]]), "PATCH")


def test_a_root_array_bulk_tool_takes_an_array_body_and_says_so():
    runtime, spec = _root_array_update()
    assert spec.input_schema["properties"]["body"] == {"type": "array", "minItems": 1, "items": {"type": "object"}}
    assert "body" in spec.input_schema["required"]
    answer = accepted(runtime, spec.name, {"body": [{"id": 3, "read": True}, {"id": 2, "read": True}]})
    assert (answer["state"]["ids"], answer["state"]["id"]) == ([3, 2], 3)
    assert [e["value"]["read"] for e in entities(runtime, "/items")] == [False, True, True]


def test_a_root_array_bulk_tool_refuses_an_object_body_and_an_unheld_entity():
    runtime, spec = _root_array_update()
    assert "array" in refused(runtime, spec.name, {"body": {"id": 2, "read": True}})["message"]
    message = refused(runtime, spec.name, {"body": [{"id": 2, "read": True}, {"id": 9, "read": True}]})["message"]
    assert "9" in message and "changes none of them" in message


def test_a_bulk_delete_takes_its_body_and_removes_every_entity_it_names():
    runtime, spec = _served(items_app(ITEMS)
                            .call("DELETE", "/items", body={"ids": [1]}, status=204)      # 5
                            .call("GET", "/items", response=ITEMS[1:]), "DELETE")         # 6
    # a non-empty array of ids of the recorded kind, as serving enforces (f208831)
    assert spec.input_schema["properties"]["body"]["properties"]["ids"] == {
        "type": "array", "items": {"type": "integer"}, "minItems": 1}
    assert spec.input_schema["required"] == ["body"]
    answer = accepted(runtime, spec.name, {"body": {"ids": [3, 2]}})
    assert (answer["state"]["view"], answer["state"]["ids"]) == ("delete", [3, 2])
    assert [e["id"] for e in entities(runtime, "/items")] == [1]

"""Serving renders a view's learned ``sorted_arrays`` sorted (DESIGN §5), so what the gate proved
is what serving answers: the state keeps the written order, item and list answers sort it."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, tool_name

from capenv.serving.runtime import EnvironmentRuntime

INITIAL = [{"id": 1, "title": "t1", "tags": ["x", "y"]}, {"id": 2, "title": "t2", "tags": []}]
MADE = {"id": 3, "title": "c", "tags": ["b", "a"]}
SORTED = {**MADE, "tags": ["a", "b"]}


@pytest.fixture(scope="module")
def bundle():
    return build_from(items_app(INITIAL)
                      .call("POST", "/items", body={"title": "c", "tags": ["b", "a"]}, status=201, response=MADE)
                      .call("GET", "/items/3", response=SORTED)
                      .call("GET", "/items", response=[*INITIAL, SORTED]))


def test_a_served_create_is_read_back_sorted_in_item_and_list_answers(bundle):
    runtime = EnvironmentRuntime(bundle)
    try:
        made = runtime.call_tool(tool_name(bundle, "POST", "/items"), {"body": {"title": "e", "tags": ["z", "m"]}})
        assert not made.is_error and made.structured["body"]["tags"] == ["z", "m"]  # the create answers as recorded
        made_id = str(made.structured["body"]["id"])
        item = runtime.read(tool_name(bundle, "GET", "/items/{item_id}"), {"item_id": made_id})
        assert item["body"]["tags"] == ["m", "z"] and "state" in item
        listed = runtime.read(tool_name(bundle, "GET", "/items"))
        assert [m["tags"] for m in listed["body"]][-1] == ["m", "z"]
    finally:
        runtime.close()


def test_views_without_learned_fields_render_the_written_order(bundle):
    item_view = bundle.view.view(tool_name(bundle, "GET", "/items/{item_id}"))
    unsorted = item_view.model_copy(update={"sorted_arrays": ()})
    runtime = EnvironmentRuntime(bundle.model_copy(update={"view": bundle.view.model_copy(update={
        "views": tuple(unsorted if v.tool == item_view.tool else v for v in bundle.view.views)})}))
    try:
        made = runtime.call_tool(tool_name(bundle, "POST", "/items"), {"body": {"title": "e", "tags": ["z", "m"]}})
        item = runtime.read(item_view.tool, {"item_id": str(made.structured["body"]["id"])})
        assert item["body"]["tags"] == ["z", "m"]
    finally:
        runtime.close()

"""Served-write sentences the spec-coverage table had no test for (write-effects, "Effects",
"Deletes", "Responses", "Refusals", "Bulk and action calls", "Not modelled"), on one small
capture: an item action sent with no body, an update that also increments a counter, a delete
answering with its entity in another media type, and a create answering 201."""

from __future__ import annotations

from typing import Any

import pytest
from support.capture_runs import build_from, items_app, summary
from write_calls import accepted, entities, with_state

from capenv.interpreter.bundle.io import Bundle
from capenv.serving.catalog.tools import NOT_MODELLED
from capenv.serving.runtime import EnvironmentRuntime

ITEMS = [{"id": 1, "title": "t1", "archived": False, "views": 1},
         {"id": 2, "title": "t2", "archived": True, "views": 5},
         {"id": 4, "title": "t4", "archived": False, "views": 0}]
HAL = "application/hal+json"
API = "application/vnd.api+json"


def _capture():
    one, two, four = ITEMS
    return (items_app(ITEMS)                                                                           # 1-4
            .call("POST", "/items/1/archive", response={**one, "archived": True})                     # 5: no body
            .call("GET", "/items/1", response={**one, "archived": True})                              # 6
            .call("POST", "/items/2/archive", response=two)                                           # 7: found set
            .call("PATCH", "/items/4", body={"title": "x"}, response={**four, "title": "x", "views": 1})  # 8
            .call("GET", "/items/4", response={**four, "title": "x", "views": 1})                     # 9
            .call("DELETE", "/items/4", response={**four, "title": "x", "views": 1}, response_type=API)  # 10
            .call("GET", "/items/4", status=404, response={"error": "gone"})                          # 11
            .call("POST", "/items", body={"title": "c"}, status=201, response_type=HAL,
                  response={"id": 5, "title": "c", "archived": False, "views": 0})                    # 12
            .call("GET", "/items/5", response={"id": 5, "title": "c", "archived": False, "views": 0}))  # 13


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    built = build_from(_capture())
    served = {tool for tool, row in summary(built).items() if row[1]}
    assert served == {"post_items_archive", "patch_items_by_item_id", "delete_items_by_item_id", "post_items"}, \
        summary(built)
    return built


@pytest.fixture
def runtime(bundle: Bundle) -> EnvironmentRuntime:
    served = EnvironmentRuntime(bundle)
    yield served
    served.close()


def _held(runtime: EnvironmentRuntime) -> dict[Any, dict[str, Any]]:
    return {e["id"]: e["value"] for e in entities(runtime, "/items")}


# --- item actions (A5, S39) -------------------------------------------------------------------

def test_an_item_action_writes_the_entity_its_path_names_before_the_action_segment(runtime):
    """S39, A5: ``/items/4/archive`` archives item 4 (the segment before ``archive``), sent with no
    body, and leaves every other entity as it was."""
    before = _held(runtime)
    answer = accepted(runtime, "post_items_archive", {"item_id": "4"})
    assert (answer["state"]["view"], answer["state"]["id"]) == ("update", 4)
    assert answer["body"] == {**before[4], "archived": True}
    after = _held(runtime)
    assert after[4]["archived"] is True
    assert {k: v for k, v in after.items() if k != 4} == {k: v for k, v in before.items() if k != 4}


def test_an_item_action_naming_an_entity_the_state_does_not_hold_changes_nothing(runtime):
    """S39: the entity is the one the path names; ``archive`` of item 9, which the state does not
    hold, answers the item view's recorded 404 (labelled missing) and changes nothing."""
    before = runtime.data_get()
    answer = accepted(runtime, "post_items_archive", {"item_id": "9"})
    assert (answer["status"], answer["state"]["view"], answer["state"]["id"]) == (404, "missing", "9")
    assert runtime.data_get() == before


# --- deletes and responses (D2, Resp1) --------------------------------------------------------

def test_a_delete_answers_with_the_entity_it_removed_re_rendered(runtime):
    """D2: the recorded delete answered with item 4; a served delete of item 1 answers with item 1
    as the state held it (after a served update), not with the recorded item 4."""
    accepted(runtime, "patch_items_by_item_id", {"item_id": "1", "body": {"title": "renamed"}})
    held = _held(runtime)[1]
    answer = accepted(runtime, "delete_items_by_item_id", {"item_id": "1"})
    assert answer["body"] == held and held["title"] == "renamed"
    assert 1 not in _held(runtime)


@pytest.mark.parametrize("tool, arguments, status, media_type", [
    ("delete_items_by_item_id", {"item_id": "2"}, 200, API),
    ("post_items", {"body": {"title": "n"}}, 201, HAL),
    ("post_items_archive", {"item_id": "1"}, 200, "application/json"),
], ids=["delete", "create", "action"])
def test_a_write_answers_with_the_status_and_content_type_of_its_recorded_response(runtime, tool, arguments,
                                                                                  status, media_type):
    """Resp1: each write answers with its exemplar's status and content type."""
    answer = accepted(runtime, tool, arguments)
    assert (answer["status"], answer["content_type"]) == (status, media_type)


# --- increments (S15) ---------------------------------------------------------------------------

def test_an_increment_past_64_bits_stays_exact_and_loads_back(runtime):
    """S15 "increments included": the update's views counter adds one; on a held value at the top
    of the 64-bit range the result is still exact, and data/get loads back through data/add."""
    top = 2**64 - 1

    def at_top(state: dict[str, Any]) -> None:
        item = next(e for c in state["collections"] for e in c["entities"] if e["id"] == 1)
        item["value"]["views"] = top

    with_state(runtime, at_top)
    answer = accepted(runtime, "patch_items_by_item_id", {"item_id": "1", "body": {"title": "y"}})
    views = answer["body"]["views"]
    assert getattr(views, "text", views) == str(top + 1)
    written = runtime.data_get()
    assert [e["value"]["views"] for e in entities(runtime, "/items") if e["id"] == 1] == [top + 1]
    runtime.data_add(written)
    assert runtime.data_get() == written


# --- not modelled (N1, N4, N8, N9) --------------------------------------------------------------

def _description(runtime: EnvironmentRuntime, name: str) -> str:
    return next(t.description for t in runtime.tools() if t.name == name)


def test_every_write_description_labels_what_is_not_modelled(runtime):
    """N1, N9: every served write names side effects elsewhere and authorization as not modelled;
    N4: an update (an item action included) names list reordering; N8: a delete names that it
    removes the entity alone, its dependents and referential refusals not reproduced."""
    descriptions = {name: _description(runtime, name)
                    for name in ("post_items", "patch_items_by_item_id", "post_items_archive",
                                 "delete_items_by_item_id")}
    for name, text in descriptions.items():
        assert NOT_MODELLED["*"] in text and "side effects" in text and "authorization" in text, (name, text)
    for name in ("patch_items_by_item_id", "post_items_archive"):
        assert NOT_MODELLED["update"] in descriptions[name] and "reorder" in descriptions[name], name
    assert NOT_MODELLED["delete"] in descriptions["delete_items_by_item_id"]
    assert "removes this entity alone" in descriptions["delete_items_by_item_id"]
    assert "reorder" not in descriptions["post_items"] and "alone" not in descriptions["post_items"]


R = [{"id": 1, "title": "t1", "read": False}, {"id": 2, "title": "t2", "read": False}]


@pytest.mark.parametrize("method, effect", [("PATCH", "update"), ("DELETE", "delete")])
def test_a_bulk_write_carries_the_label_of_the_effect_it_has_on_each_entity(method, effect):
    """N4, N8: a bulk update reorders no list, and a bulk delete removes its entities alone, as an
    item update or delete does; each description says so."""
    builder = items_app(R).call(method, "/items", body={"ids": [1, 2], "read": True} if method == "PATCH"
                                else {"ids": [2]}, status=204)                                        # 4
    if method == "PATCH":
        builder.call("GET", "/items/1", response={**R[0], "read": True})                              # 5
        builder.call("GET", "/items/2", response={**R[1], "read": True})                              # 6
    else:
        builder.call("GET", "/items", response=R[:1])                                                 # 5
    runtime = EnvironmentRuntime(build_from(builder))
    name = f"{method.lower()}_items"
    assert name in {t.name for t in runtime.tools()}, [t.name for t in runtime.tools()]
    text = _description(runtime, name)
    other = "delete" if effect == "update" else "update"
    assert NOT_MODELLED[effect] in text and NOT_MODELLED[other] not in text and NOT_MODELLED["*"] in text, text

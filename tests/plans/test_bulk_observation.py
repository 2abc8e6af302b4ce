"""A bulk update's observation must show the members the call sent (write-effects, "Bulk
writes"): the first later read showing a named entity observes it, and every named entity that
read shows must carry what the call sent it; a bulk delete needs no observation."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

ITEMS = [{"id": 1, "title": "t1", "read": False}, {"id": 2, "title": "t2", "read": False}]


def _notes(write, outcome):
    return [e.reason for e in write.traces if e.table == "plans" and (e.reason or "").startswith(outcome)]


def test_a_list_showing_every_named_entity_with_the_sent_member_observes_the_update():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1, 2], "read": True}, status=204)   # 4
                        .call("GET", "/items", response=[{**e, "read": True} for e in ITEMS]))   # 5
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.build_reason is None and bulk.observation == 5
    assert any("record 5 shows entities 1, 2" in (e.reason or "") for e in bulk.traces)


def test_a_read_showing_a_named_entity_without_the_sent_member_is_no_observation():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1, 2], "read": True}, status=204)   # 4
                        .call("GET", "/items", response=[{**ITEMS[0], "read": True}, ITEMS[1]]))  # 5
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.reason == "no-observation" and bulk.observation is None and not bulk.served
    assert _notes(bulk, "no-observation") == [
        "no-observation: record 5 shows entity 2 without the member(s) the call sent it (read)"]


def test_elements_are_each_checked_for_their_own_members():
    sent = [{"id": 1, "read": True}, {"id": 2, "title": "renamed"}]
    shown = [{"id": 1, "title": "t1", "read": True}, {"id": 2, "title": "t2", "read": False}]
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"items": sent}, status=204)   # 4
                        .call("GET", "/items", response=shown))                     # 5
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.reason == "no-observation"
    assert _notes(bulk, "no-observation") == [
        "no-observation: record 5 shows entity 2 without the member(s) the call sent it (title)"]


def test_the_first_read_showing_any_named_entity_observes_and_an_item_read_shows_only_its_own():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1, 2], "read": True}, status=204)   # 4
                        .call("GET", "/items/2", response={**ITEMS[1], "read": True})            # 5
                        .call("GET", "/items", response=[ITEMS[0], {**ITEMS[1], "read": True}]))  # 6
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.build_reason is None and bulk.observation == 5  # record 6 then checks entity 1 (the gate's)


def test_a_bulk_update_no_later_read_shows_is_no_observation():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1, 2], "read": True}, status=204))
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.reason == "no-observation"
    assert _notes(bulk, "no-observation") == [
        "no-observation: no later item or list read shows an entity the call named"]


def test_another_tools_write_before_the_first_read_leaves_the_update_unobserved():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1], "read": True}, status=204)     # 4
                        .call("PUT", "/items/2", body={"id": 2, "title": "x", "read": False},
                              response={"id": 2, "title": "x", "read": False})                    # 5
                        .call("GET", "/items", response=[{**ITEMS[0], "read": True},
                                                         {"id": 2, "title": "x", "read": False}]))  # 6
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.reason == "no-observation"
    assert "another tool's write came before record 6" in _notes(bulk, "no-observation")[0]


def test_a_bulk_delete_needs_no_observation():
    bundle = build_from(items_app(ITEMS)
                        .call("DELETE", "/items", body={"ids": [1]}, status=204)    # 4
                        .call("GET", "/items/1", status=404, response={"error": "not found"})   # 5
                        .call("GET", "/items", response=ITEMS[1:]))                # 6
    bulk = plan(bundle, "DELETE", "/items")
    assert bulk.build_reason is None and bulk.observation is None
    assert bulk.served and 5 in bulk.checked_record_ordinals

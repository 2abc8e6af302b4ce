"""The faults `docs/verdict-audit.md` diagnosed on the real captures (D1-D4), reproduced on small
synthetic captures: each test states what the write-effects specification asks, failed before
its fix and guards it now."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, limits_app, plan, tag_limit
from support.har_builder import HarBuilder


def test_d1_a_write_naming_no_held_entity_makes_every_entity_unknown_not_the_collection_unchecked():
    # "When the path names no held entity, every entity of that collection is unknown": unknown
    # entities are still checked, so the 404 after the delete confirms it
    bundle = build_from(items_app()
                        .call("PATCH", "/items/name/x", body={"title": "q"}, status=204)      # 4: no plan
                        .call("DELETE", "/items/2", status=204)                                  # 5
                        .call("GET", "/items/2", status=404, response={"error": "not found"}))  # 6
    delete = plan(bundle, "DELETE", "/items/{item_id}")
    assert delete.served and delete.checked_record_ordinals == (6,), (delete.reason, delete.checked_record_ordinals)


def test_d2_a_read_by_a_key_field_checks_the_entity_serving_names():
    # "an item read of a state-backed item view, of the entity serving would name"
    builder = limits_app()
    for n, tag in ((3, "gamma"), (4, "delta")):
        made = tag_limit(n, tag)
        builder.call("POST", "/limits", body={"tag": tag, "limit": n}, status=201, response=made)
        builder.call("GET", f"/limits/{made['id']}", response=made)   # a view no window read proves: replayed
        builder.call("GET", f"/limits/tag/{tag}", response=made)      # state-backed, by the key field
    create = plan(build_from(builder), "POST", "/limits")
    assert create.served and create.checked_record_ordinals == (5, 8), (create.reason, create.checked_record_ordinals)


def test_d3_a_change_another_write_made_is_not_charged_to_the_update():
    # "A field the exemplar's update changed without sending it …": the sub-resource POST changed
    # state, so the entity as held before the PATCH is unknown and only its sent members explain it
    builder = items_app([{"id": 1, "title": "t1", "state": "new"}, {"id": 2, "title": "t2", "state": "new"}])
    builder.call("POST", "/items/1/transition", body={"to": "done"}, status=201, response={"state": "done"})  # 4
    builder.call("PATCH", "/items/1", body={"title": "z"}, status=204)                                        # 5
    builder.call("GET", "/items/1", response={"id": 1, "title": "z", "state": "done"})                       # 6
    update = plan(build_from(builder), "PATCH", "/items/{item_id}")
    assert update.reason != "unexplained-change", update.reason


def test_d4_a_later_listing_places_a_create_among_what_was_held_before_it():
    # "the first candidate consistent with … the position a later recorded list shows"
    bundle = build_from(HarBuilder()
                        .call("GET", "/things", response=[{"id": "blog", "title": "b"}])
                        .call("GET", "/things/blog", response={"id": "blog", "title": "b"})
                        .call("POST", "/things", body={"title": "s"}, status=201,
                              response={"id": "sandbox1", "title": "s"})
                        .call("GET", "/things/sandbox1", response={"id": "sandbox1", "title": "s"})
                        .call("POST", "/things", body={"title": "a"}, status=201,
                              response={"id": "auto0001", "title": "a"})
                        .call("GET", "/things/auto0001", response={"id": "auto0001", "title": "a"})
                        .call("GET", "/things", response=[{"id": "auto0001", "title": "a"},
                                                          {"id": "sandbox1", "title": "s"},
                                                          {"id": "blog", "title": "b"}]))
    create = plan(bundle, "POST", "/things")
    assert create.insert is not None and create.insert.kind == "first", create.insert
    assert create.served, create.reason

"""Effects later writes erased (write-effects, "The gate", "Attribution": "A check exercises the
write tools that changed its entity or collection since the previous check of it, less those
whose effect later writes erased")."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

ITEMS = [{"id": 1, "title": "t1", "done": False}, {"id": 2, "title": "t2", "done": False}]


def _overwritten(read: dict):
    return (items_app(ITEMS)
            .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x", "done": False})  # 4
            .call("PUT", "/items/1", body={"title": "y"}, response={"id": 1, "title": "y", "done": False})    # 5
            .call("GET", "/items/1", response=read))                                                         # 6


def test_an_update_whose_field_a_later_update_overwrote_is_not_confirmed_by_a_read_showing_the_later_value():
    bundle = build_from(_overwritten({"id": 1, "title": "y", "done": False}))
    patch = plan(bundle, "PATCH", "/items/{item_id}")
    put = plan(bundle, "PUT", "/items/{item_id}")
    assert put.served and put.checked_record_ordinals == (6,)
    assert 6 not in patch.checked_record_ordinals and patch.contradicted_by is None


def test_an_update_whose_field_a_later_update_overwrote_is_not_contradicted_by_a_failed_read():
    bundle = build_from(_overwritten({"id": 1, "title": "z", "done": False}))
    assert plan(bundle, "PUT", "/items/{item_id}").contradicted_by == 6
    assert plan(bundle, "PATCH", "/items/{item_id}").contradicted_by is None


def test_fields_a_later_update_left_alone_are_still_checked():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items/1", body={"done": True}, response={"id": 1, "title": "t1", "done": True})
                        .call("PUT", "/items/1", body={"title": "y"}, response={"id": 1, "title": "y", "done": True})
                        .call("GET", "/items/1", response={"id": 1, "title": "y", "done": True}))            # 6
    patch = plan(bundle, "PATCH", "/items/{item_id}")
    assert patch.served and patch.checked_record_ordinals == (6,)


def test_a_create_a_later_delete_erased_counts_nowhere():
    created = {"id": 3, "title": "c", "done": False}
    bundle = build_from(items_app(ITEMS)
                        .call("POST", "/items", body={"title": "c"}, status=201, response=created)            # 4
                        .call("GET", "/items/3", response=created)                                           # 5
                        .call("POST", "/items", body={"title": "d"}, status=201,
                              response={"id": 4, "title": "d", "done": False})                               # 6
                        .call("DELETE", "/items/4", status=204)                                              # 7
                        .call("GET", "/items/4", status=404, response={"error": "not found"})                 # 8
                        .call("GET", "/items", response=ITEMS + [created]))                                  # 9
    create = plan(bundle, "POST", "/items")
    assert create.contradicted_by is None
    assert 8 not in create.checked_record_ordinals

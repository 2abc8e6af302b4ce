"""A failed list whose only difference is members a write no plan models left unknown
(``gate/excuses.unknown_alone``, ``gate/read_check._unknown_shown_again``; write-effects, "The
gate", "Attribution"): an ACL write below an item's path (no plan models it) bumps that item's
``updated``; a whole list after another item's delete shows the bump. The unmodelled write
explains the difference: the list shows the unknown member again, and then checks the delete. A
difference in a member no unmodelled write reached still contradicts."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

ITEMS = [{"id": 1, "title": "t1", "updated": "2026-01-01T00:00:00"},
         {"id": 2, "title": "t2", "updated": "2026-01-01T00:00:00"},
         {"id": 3, "title": "t3", "updated": "2026-01-01T00:00:00"}]


def _acl_then_delete(listed, acl=True):
    app = items_app([dict(i) for i in ITEMS])                                                      # 1-4
    if acl:
        app.call("PUT", "/items/3/acl", body={"read": ["ada"]}, response={"acl_ref": "/items/3/acl"})  # 5
    else:
        app.call("GET", "/items/3", response=ITEMS[2])                                             # 5
    return build_from(app
                      .call("DELETE", "/items/2", status=204)                                      # 6
                      .call("GET", "/items/2", status=404, response={"error": "not found"})        # 7
                      .call("GET", "/items", response=listed))                                     # 8


BUMPED = [ITEMS[0], {**ITEMS[2], "updated": "2026-01-01T00:05:00"}]


def test_a_list_differing_only_at_a_member_an_unmodelled_write_reached_checks_the_delete():
    delete = plan(_acl_then_delete(BUMPED), "DELETE", "/items/{item_id}")
    assert delete.served and delete.contradicted_by is None
    assert 8 in delete.checked_record_ordinals
    assert any(e.table == "gate" and "left unknown" in (e.reason or "") and "record 8" in (e.reason or "")
               for e in delete.traces)


def test_without_the_unmodelled_write_the_same_list_contradicts_the_delete():
    delete = plan(_acl_then_delete(BUMPED, acl=False), "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 8)


def test_a_member_the_unmodelled_write_did_not_reach_still_contradicts():
    listed = [{**ITEMS[0], "title": "changed"}, {**ITEMS[2], "updated": "2026-01-01T00:05:00"}]
    delete = plan(_acl_then_delete(listed), "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 8)


def test_a_delete_the_list_shows_undone_is_still_contradicted():
    listed = [ITEMS[0], ITEMS[1], {**ITEMS[2], "updated": "2026-01-01T00:05:00"}]
    delete = plan(_acl_then_delete(listed), "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 8)

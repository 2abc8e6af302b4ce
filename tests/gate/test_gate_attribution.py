"""Attribution and resynchronisation in the gate (write-effects, "The gate": "Reads",
"Attribution"), from small synthetic captures of an ``/items`` app."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder

C = {"id": 3, "title": "c"}
DONE = [{"id": 1, "title": "t1", "done": False}, {"id": 2, "title": "t2", "done": False}]


def test_after_a_failed_item_check_the_copy_takes_the_reads_values_so_a_later_correct_write_is_confirmed():
    bundle = build_from(items_app(DONE)
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x", "done": False})
                        .call("GET", "/items/1", response={"id": 1, "title": "X", "done": False})        # 5: fails
                        .call("PUT", "/items/1", body={"done": True}, response={"id": 1, "title": "X", "done": True})
                        .call("GET", "/items/1", response={"id": 1, "title": "X", "done": True}))        # 7
    patch = plan(bundle, "PATCH", "/items/{item_id}")
    put = plan(bundle, "PUT", "/items/{item_id}")
    assert (patch.reason, patch.contradicted_by) == ("contradicted", 5)
    # the copy held title "X" from read 5, so read 7 reproduces the PUT's effect
    assert put.served and put.checked_record_ordinals == (7,) and put.contradicted_by is None


def test_after_a_failed_item_check_showing_an_absence_the_copy_drops_the_entity():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})   # 4
                        .call("GET", "/items/1", status=404, response={"error": "not found"})              # 5
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C)               # 6
                        .call("GET", "/items/3", response=C)                                               # 7
                        .call("GET", "/items", response=[{"id": 2, "title": "t2"}, C]))                    # 8
    assert plan(bundle, "PATCH", "/items/{item_id}").contradicted_by == 5
    create = plan(bundle, "POST", "/items")
    assert create.served and create.checked_record_ordinals == (7, 8)


def _failed_list_then_update():
    listed_without_2 = [{"id": 1, "title": "t1"}, C]
    return (items_app()
            .call("POST", "/items", body={"title": "c"}, status=201, response=C)               # 4
            .call("GET", "/items/3", response=C)                                               # 5
            .call("GET", "/items", response=listed_without_2)                                  # 6: fails
            .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})  # 7
            .call("GET", "/items/1", response={"id": 1, "title": "x"})                         # 8
            .call("GET", "/items", response=[{"id": 1, "title": "x"}, C]))                     # 9: would fail


def test_a_failed_list_is_not_checked_again():
    bundle = build_from(_failed_list_then_update())
    create = plan(bundle, "POST", "/items")
    assert (create.reason, create.contradicted_by, create.checked_record_ordinals) == ("contradicted", 6, (5,))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.contradicted_by is None and 9 not in update.checked_record_ordinals


def test_item_reads_are_still_checked_after_a_failed_list():
    update = plan(build_from(_failed_list_then_update()), "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (8,)


def test_the_read_that_supplied_the_observation_checks_other_writes_it_exercises():
    # the create answers its id alone: read 6 is its observation, and checks the update of item 1
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})  # 4
                        .call("POST", "/items", body={"title": "c"}, status=201, response={"id": 3})      # 5
                        .call("GET", "/items/3", response=C)                                              # 6
                        .call("GET", "/items", response=[{"id": 1, "title": "x"}, {"id": 2, "title": "t2"}, C]))
    create = plan(bundle, "POST", "/items")
    assert create.observation == 6 and create.checked_record_ordinals == (7,)
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (7,)


def test_a_read_showing_none_of_an_updates_changes_leaves_it_for_a_later_check():
    # the list view never shows "note": it neither confirms nor contradicts the note update
    summaries = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]
    bundle = build_from(HarBuilder()
                        .call("GET", "/items", response=summaries)
                        .call("GET", "/items/1", response={"id": 1, "title": "t1", "note": "n1"})
                        .call("GET", "/items/2", response={"id": 2, "title": "t2", "note": "n2"})
                        .call("PATCH", "/items/1", body={"note": "x"}, response={"id": 1, "title": "t1", "note": "x"})
                        .call("GET", "/items", response=summaries)                                    # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "t1", "note": "x"}))     # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (6,)


def test_an_item_read_overlapping_a_modelled_write_checks_nothing():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"},
                              started="2026-01-01T00:00:01Z", duration_ms=500)                         # 4
                        .call("GET", "/items/1", response={"id": 1, "title": "x"},
                              started="2026-01-01T00:00:01.100Z")                                     # 5: overlaps
                        .call("GET", "/items/1", response={"id": 1, "title": "x"},
                              started="2026-01-01T00:00:02Z"))                                        # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (6,)


def test_a_list_read_overlapping_a_modelled_create_checks_nothing():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C,
                              started="2026-01-01T00:00:01Z", duration_ms=500)                         # 4
                        .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}],
                              started="2026-01-01T00:00:01.100Z")                                     # 5: before
                        .call("GET", "/items/3", response=C, started="2026-01-01T00:00:02Z"))          # 6
    create = plan(bundle, "POST", "/items")
    assert create.contradicted_by is None
    assert create.served and create.checked_record_ordinals == (6,)


def test_a_read_after_the_write_ended_is_checked():
    # the same timings as above, but the list starts after the create ended: it contradicts it
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "c"}, status=201, response=C,
                              started="2026-01-01T00:00:01Z", duration_ms=500)
                        .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}],
                              started="2026-01-01T00:00:01.600Z")
                        .call("GET", "/items/3", response=C, started="2026-01-01T00:00:02Z"))
    assert plan(bundle, "POST", "/items").contradicted_by == 5

"""Bulk calls in the gate (write-effects "Bulk writes": "Each named entity gets the effect as an
item call would, checked by the same reads; one the state does not hold leaves the call
unmodelled there"; "Exemplar": "a bulk call leaves the entities it names unmodelled")."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

ITEMS = [{"id": 1, "title": "t1", "read": False}, {"id": 2, "title": "t2", "read": False},
         {"id": 3, "title": "t3", "read": False}]
ONE, TWO, THREE = ITEMS


def _read(entity, value=True):
    return {**entity, "read": value}


def _bulk_read_of_one():
    """A bulk update of entity 1 and the item read observing it (records 5 and 6)."""
    return (items_app(ITEMS)
            .call("PATCH", "/items", body={"ids": [1], "read": True}, status=204)   # 5
            .call("GET", "/items/1", response=_read(ONE)))                          # 6


# --- each named entity gets the effect ----------------------------------------------------

def test_a_bulk_update_is_confirmed_by_later_reads_of_each_entity_it_named():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1, 2], "read": True}, status=204)   # 5
                        .call("GET", "/items/1", response=_read(ONE))                             # 6 observes
                        .call("GET", "/items/2", response=_read(TWO))                             # 7
                        .call("GET", "/items", response=[_read(ONE), _read(TWO), THREE]))          # 8
    bulk = plan(bundle, "PATCH", "/items")
    assert bulk.served and bulk.observation == 6
    assert bulk.checked_record_ordinals == (7, 8)


def test_a_later_read_showing_a_named_entity_unchanged_contradicts_the_bulk_update():
    bundle = build_from(items_app(ITEMS)
                        .call("PATCH", "/items", body={"ids": [1, 2], "read": True}, status=204)   # 5
                        .call("GET", "/items/1", response=_read(ONE))                             # 6 observes
                        .call("GET", "/items/2", response=TWO))                                   # 7
    bulk = plan(bundle, "PATCH", "/items")
    assert (bulk.served, bulk.reason, bulk.contradicted_by) == (False, "contradicted", 7)


def test_an_entity_the_bulk_update_did_not_name_is_still_checked_against_it():
    bundle = build_from(_bulk_read_of_one()
                        .call("GET", "/items", response=[_read(ONE), _read(TWO), THREE]))   # 7: 2 changed too
    bulk = plan(bundle, "PATCH", "/items")
    assert (bulk.served, bulk.contradicted_by) == (False, 7)


# --- an entity the copy does not hold ----------------------------------------------------

def test_an_entity_the_state_lacks_leaves_the_call_unmodelled_there_only():
    bundle = build_from(_bulk_read_of_one()
                        .call("PATCH", "/items", body={"ids": [2, 9], "read": True}, status=204)   # 7
                        .call("GET", "/items/9", response={"id": 9, "title": "t9", "read": True})   # 8
                        .call("GET", "/items/2", response=_read(TWO)))                            # 9
    bulk = plan(bundle, "PATCH", "/items")
    # entity 2 still took the effect and read 9 confirms it; read 8 shows the unknown entity 9
    # again: the copy takes it and nothing is blamed
    assert bulk.served and bulk.checked_record_ordinals == (9,)


def test_an_entity_the_state_lacks_does_not_stop_the_collections_list_being_checked():
    bundle = build_from(_bulk_read_of_one()
                        .call("PATCH", "/items", body={"ids": [9, 2], "read": True}, status=204)   # 7
                        .call("GET", "/items", response=[_read(ONE), TWO, THREE]))                # 8
    bulk = plan(bundle, "PATCH", "/items")
    assert (bulk.served, bulk.contradicted_by) == (False, 8)  # entity 2 shows the call undone


# --- a call the plan does not explain ----------------------------------------------------

def test_a_refused_bulk_call_leaves_the_entities_it_names_unknown_and_the_rest_checked():
    bundle = build_from(_bulk_read_of_one()
                        .call("PATCH", "/items", query={"force": "1"}, body={"ids": [2], "read": True},
                              status=204)                                                          # 7
                        .call("GET", "/items/2", response={**TWO, "read": True, "title": "x"})     # 8
                        .call("PATCH", "/items", body={"ids": [3], "read": True}, status=204)      # 9
                        .call("GET", "/items/3", response=_read(THREE)))                          # 10
    bulk = plan(bundle, "PATCH", "/items")
    # read 8 shows entity 2 again (the copy takes its values); entity 3 is still checked
    assert bulk.served and bulk.checked_record_ordinals == (10,)


def test_a_refused_bulk_calls_entities_stay_unknown_only_until_a_read_shows_them():
    bundle = build_from(_bulk_read_of_one()
                        .call("PATCH", "/items", query={"force": "1"}, body={"ids": [2], "read": True},
                              status=204)                                                          # 7
                        .call("GET", "/items/2", response=_read(TWO))                             # 8
                        .call("PATCH", "/items", body={"ids": [2], "read": False}, status=204)     # 9
                        .call("GET", "/items/2", response=_read(TWO)))                            # 10: undone
    bulk = plan(bundle, "PATCH", "/items")
    assert (bulk.served, bulk.contradicted_by) == (False, 10)


def test_a_list_read_after_a_refused_bulk_call_is_not_blamed_for_its_entities():
    bundle = build_from(_bulk_read_of_one()
                        .call("PATCH", "/items", query={"force": "1"}, body={"ids": [2], "read": True},
                              status=204)                                                          # 7
                        .call("GET", "/items", response=[_read(ONE), _read(TWO), THREE]))          # 8
    bulk = plan(bundle, "PATCH", "/items")
    # the unmodelled call may explain entity 2's difference: nothing is contradicted; the list shows
    # entity 2 again (the copy takes what it lists), and then confirms call 5's effect on entity 1
    assert (bulk.served, bulk.contradicted_by) == (True, None) and 8 in bulk.checked_record_ordinals
    assert any("left unknown" in (e.reason or "") for e in bulk.traces)


# --- bulk deletes -------------------------------------------------------------------------

def test_a_bulk_delete_is_confirmed_by_the_absence_and_the_list_that_follow():
    bundle = build_from(items_app(ITEMS)
                        .call("DELETE", "/items", body=[{"id": 3}, {"id": 1}], status=204)         # 5
                        .call("GET", "/items/3", status=404, response={"error": "not found"})      # 6
                        .call("GET", "/items", response=[TWO]))                                   # 7
    bulk = plan(bundle, "DELETE", "/items")
    assert bulk.served and bulk.checked_record_ordinals == (6, 7)


def test_a_bulk_delete_a_later_read_still_shows_an_entity_of_is_contradicted():
    bundle = build_from(items_app(ITEMS)
                        .call("DELETE", "/items", body={"ids": [1, 2]}, status=204)   # 5
                        .call("GET", "/items/2", response=TWO))                      # 6
    bulk = plan(bundle, "DELETE", "/items")
    assert (bulk.served, bulk.contradicted_by) == (False, 6)


def test_a_bulk_delete_naming_an_entity_the_state_lacks_deletes_the_others():
    bundle = build_from(items_app(ITEMS)
                        .call("DELETE", "/items", body={"ids": [9, 1]}, status=204)              # 5
                        .call("GET", "/items/9", status=404, response={"error": "not found"})    # 6
                        .call("GET", "/items", response=[TWO, THREE]))                          # 7
    bulk = plan(bundle, "DELETE", "/items")
    assert bulk.served and bulk.checked_record_ordinals == (7,)

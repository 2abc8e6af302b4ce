"""A6 (write-effects, "Item actions"): an action is observed in its own response, or in a later
item read only while no other tool's modelled write to the entity awaits a check: that read then
checks the other write, and the action's call is one the gate does not model."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary

ITEMS = [{"id": 1, "title": "t1", "archived": False}, {"id": 2, "title": "t2", "archived": False}]


def _archive_twice(builder):
    """The action's own evidence on item 2: archived, read, archived again (found set), read."""
    return (builder.call("POST", "/items/2/archive", response=None, status=204)
            .call("GET", "/items/2", response={"id": 2, "title": "t2", "archived": True})
            .call("POST", "/items/2/archive", response=None, status=204)
            .call("GET", "/items/2", response={"id": 2, "title": "t2", "archived": True}))


def _notes(update, ordinal):
    return [e.reason for e in update.traces if e.table == "gate" and e.evidence.get("record") == ordinal
            and "read" in e.evidence]


def test_a_read_after_a_waiting_write_checks_that_write_not_the_action():
    builder = _archive_twice(items_app(ITEMS))                                                 # 1-7
    builder.call("PATCH", "/items/1", body={"title": "T"},
                 response={"id": 1, "title": "T", "archived": False})                          # 8 awaits a check
    builder.call("POST", "/items/1/archive", response=None, status=204)                        # 9
    builder.call("GET", "/items/1", response={"id": 1, "title": "T", "archived": True})        # 10
    bundle = build_from(builder)
    action, update = plan(bundle, "POST", "/items/{item_id}/archive"), plan(bundle, "PATCH", "/items/{item_id}")
    assert action.served and update.served, summary(bundle)
    assert 10 in update.checked_record_ordinals          # read 10 checks the waiting PATCH
    assert 10 not in action.checked_record_ordinals      # ... and not the action call 9, which it does not model
    assert _notes(action, 9) and "awaits a check" in _notes(action, 9)[0]


def test_a_read_after_another_tools_later_write_checks_that_write_not_the_action():
    builder = _archive_twice(items_app(ITEMS))                                                 # 1-7
    builder.call("POST", "/items/1/archive", response=None, status=204)                        # 8
    builder.call("PATCH", "/items/1", body={"title": "T"},
                 response={"id": 1, "title": "T", "archived": True})                           # 9
    builder.call("GET", "/items/1", response={"id": 1, "title": "T", "archived": True})        # 10
    bundle = build_from(builder)
    action, update = plan(bundle, "POST", "/items/{item_id}/archive"), plan(bundle, "PATCH", "/items/{item_id}")
    assert action.served and update.served, summary(bundle)
    assert 10 in update.checked_record_ordinals and 10 not in action.checked_record_ordinals
    assert _notes(action, 8) and "comes before read 10" in _notes(action, 8)[0]


def test_with_no_other_write_the_read_checks_the_action():
    bundle = build_from(_archive_twice(items_app(ITEMS))                                       # 1-7
                        .call("POST", "/items/1/archive", response=None, status=204)           # 8
                        .call("GET", "/items/1", response={"id": 1, "title": "t1", "archived": True}))  # 9
    action = plan(bundle, "POST", "/items/{item_id}/archive")
    assert action.served and 9 in action.checked_record_ordinals, summary(bundle)
    assert not _notes(action, 8)


def test_a_read_differing_after_a_held_back_action_blames_neither_write():
    """The PATCH waiting since record 8 answered title T; read 10 shows another title. The action
    call 9 the gate does not model may explain it: the read checks the PATCH on the members it
    sent and contradicts nothing, and the action call is neither checked nor blamed."""
    builder = _archive_twice(items_app(ITEMS))                                                 # 1-7
    builder.call("PATCH", "/items/1", body={"title": "T"},
                 response={"id": 1, "title": "T", "archived": False})                          # 8
    builder.call("POST", "/items/1/archive", response=None, status=204)                        # 9
    builder.call("GET", "/items/1", response={"id": 1, "title": "other", "archived": True})    # 10
    bundle = build_from(builder)
    action, update = plan(bundle, "POST", "/items/{item_id}/archive"), plan(bundle, "PATCH", "/items/{item_id}")
    assert update.reason == "unconfirmed" and update.contradicted_by is None, summary(bundle)
    # the plan takes no observation from read 10 for call 9 either: its title change is no action's
    assert action.served and action.checked_record_ordinals == (7,), summary(bundle)

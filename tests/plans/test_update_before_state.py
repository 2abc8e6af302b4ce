"""The entity as held just before an update call reflects the writes recorded since the latest
read: a write answer that carries the entity is a sighting too (seeds: "Item actions", "Updates")."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary


def _archivable():
    return items_app([{"id": 1, "title": "t1", "archived": False}, {"id": 2, "title": "t2", "archived": False}])


def test_an_action_on_an_entity_an_update_answer_showed_set_is_confirmed():
    bundle = build_from(_archivable()                                                           # 1-3
                        .call("POST", "/items/1/archive", response=None, status=204)            # 4
                        .call("GET", "/items/1", response={"id": 1, "title": "t1", "archived": True})  # 5
                        .call("PATCH", "/items/2", body={"archived": True},
                              response={"id": 2, "title": "t2", "archived": True})              # 6
                        .call("POST", "/items/2/archive", response=None, status=204)            # 7
                        .call("GET", "/items/2", response={"id": 2, "title": "t2", "archived": True})  # 8
                        .call("POST", "/items/1/archive", response=None, status=204)            # 9
                        .call("GET", "/items/1", response={"id": 1, "title": "t1", "archived": True}))  # 10
    action = plan(bundle, "POST", "/items/{item_id}/archive")
    assert (action.effect, action.address.segment) == ("action", "archive")
    rule = next(f for f in action.fields if f.field == "archived")
    assert (rule.op, rule.params) == ("set", {"value": True})
    # call 7 found archived already true: not from a read (record 3 showed false) but from PATCH 6's answer
    check = next(e for e in action.traces if (e.rule_id or "").endswith(".action-set-confirmed"))
    assert (check.outcome, check.evidence) == ("match", {"found_set_by": [7, 9]})
    # read 8 checks PATCH 6, which awaited a check when call 7 ran, so it shows nothing of the
    # action (seeds "Item actions"); read 10 checks call 9
    assert action.served and action.checked_record_ordinals == (10,), summary(bundle)


def test_an_action_whose_set_only_a_read_before_the_update_could_show_stays_unconfirmed():
    """The update answer showed the field unset again: the second call found it unset, nothing confirms."""
    bundle = build_from(_archivable()
                        .call("POST", "/items/1/archive", response=None, status=204)            # 4
                        .call("GET", "/items/1", response={"id": 1, "title": "t1", "archived": True})  # 5
                        .call("PATCH", "/items/1", body={"archived": False},
                              response={"id": 1, "title": "t1", "archived": False})             # 6
                        .call("POST", "/items/1/archive", response=None, status=204)            # 7
                        .call("GET", "/items/1", response={"id": 1, "title": "t1", "archived": True}))  # 8
    action = plan(bundle, "POST", "/items/{item_id}/archive")
    assert not action.served and action.reason == "unconfirmed", summary(bundle)


def test_a_patch_after_a_patch_takes_the_earlier_answer_as_the_entity_before():
    bundle = build_from(items_app([{"id": 1, "title": "t1", "version": 1}, {"id": 2, "title": "t2", "version": 1}])
                        .call("PATCH", "/items/1", body={"title": "a"},
                              response={"id": 1, "title": "a", "version": 2})                  # 4
                        .call("PATCH", "/items/1", body={"title": "b"},
                              response={"id": 1, "title": "b", "version": 3})                  # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "b", "version": 3}))  # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    rule = next(f for f in update.fields if f.field == "version")
    assert (rule.op, rule.params) == ("increment", {"by": 1})
    # call 5's entity before is call 4's answer (version 2), not read 2 (version 1)
    assert update.build_reason is None and update.served, summary(bundle)


def test_a_partial_answer_keeps_the_fields_the_latest_read_showed():
    """An answer leaving a field out does not make the next call add it."""
    bundle = build_from(items_app([{"id": 1, "title": "t1", "version": 1, "note": "n"},
                                   {"id": 2, "title": "t2", "version": 1, "note": "n"}])
                        .call("PATCH", "/items/1", body={"title": "a"},
                              response={"id": 1, "title": "a", "version": 2})                  # 4
                        .call("PATCH", "/items/1", body={"title": "b"},
                              response={"id": 1, "title": "b", "version": 3})                  # 5
                        .call("GET", "/items/1", response={"id": 1, "title": "b", "version": 3, "note": "n"}))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.build_reason is None, summary(bundle)
    # the plan explains every field; serving would answer note, which these answers leave out (the gate's
    # answer members check), so it is not served
    assert not update.served and update.reason == "contradicted", summary(bundle)


def test_an_answer_overlapping_the_call_is_not_the_entity_before():
    """A write still running when the call began may not have happened yet: it is left out, as a read is."""
    builder = items_app([{"id": 1, "title": "t1", "version": 1}, {"id": 2, "title": "t2", "version": 1}])
    builder.call("PATCH", "/items/1", body={"title": "a"}, response={"id": 1, "title": "a", "version": 2},
                 duration_ms=500)                                                               # 4
    builder.call("PATCH", "/items/1", body={"title": "b"}, response={"id": 1, "title": "b", "version": 3})  # 5
    bundle = build_from(builder)
    update = plan(bundle, "PATCH", "/items/{item_id}")
    # call 5 began while call 4 ran: before is read 2 (version 1), so version 3 is no increment by one
    assert update.build_reason == "unexplained-change", summary(bundle)

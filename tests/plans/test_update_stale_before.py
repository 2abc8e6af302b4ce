"""The entity before an update when a write answered without it (a 204) came since the latest
read (seeds: "Updates"): the update's before holds the members that write sent, and a field it
did not send may have changed unseen, so no change of it is explained from that before."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary


def _items(**extra):
    return items_app([{"id": 1, "x": "a", "y": "b", "version": 1, **extra},
                      {"id": 2, "x": "c", "y": "d", "version": 1, **extra}])


def _events(update, rule_id):
    return [e for e in update.traces if e.rule_id == rule_id]


def test_a_204_update_brings_its_sent_field_forward():
    bundle = build_from(_items()                                                                 # 1-3
                        .call("PATCH", "/items/2", body={"y": "d2"},
                              response={"id": 2, "x": "c", "y": "d2", "version": 1})            # 4 exemplar
                        .call("PATCH", "/items/1", body={"x": "a2"}, status=204)                # 5 no body
                        .call("PATCH", "/items/1", body={"y": "b2"},
                              response={"id": 1, "x": "a2", "y": "b2", "version": 1}))          # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    # call 6's before is read 2 brought forward by call 5's x: x did not change in call 6
    assert update.build_reason is None, summary(bundle)
    assert not [e for e in update.traces if e.outcome == "miss" and e.table == "update-consistency"]


def test_a_field_the_204_write_did_not_send_is_no_change_of_the_next_call():
    """Call 5 (another tool, answering 204) bumped version unseen: call 6 shows version 3 after
    read 2's 1. That is no increment by one of call 6, nor an unexplained change."""
    bundle = build_from(_items()                                                                 # 1-3
                        .call("PATCH", "/items/2", body={"y": "d2"},
                              response={"id": 2, "x": "c", "y": "d2", "version": 2})            # 4 exemplar
                        .call("PUT", "/items/1", body={"x": "a2", "y": "b"}, status=204)        # 5
                        .call("PATCH", "/items/1", body={"y": "b2"},
                              response={"id": 1, "x": "a2", "y": "b2", "version": 3}))          # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    rule = next(f for f in update.fields if f.field == "version")
    assert (rule.op, rule.params) == ("increment", {"by": 1})                # learned from call 4
    assert update.build_reason is None, summary(bundle)
    stale = _events(update, "update-consistency.before-stale")
    assert [(e.subject, e.outcome) for e in stale] == [("version @6", "match")]


def test_without_the_204_write_the_same_change_is_unexplained():
    """The control: nothing came between read 2 and call 5, so version 1 -> 3 contradicts the
    increment the exemplar learned."""
    bundle = build_from(_items()
                        .call("PATCH", "/items/2", body={"y": "d2"},
                              response={"id": 2, "x": "c", "y": "d2", "version": 2})            # 4
                        .call("PATCH", "/items/1", body={"y": "b2"},
                              response={"id": 1, "x": "a", "y": "b2", "version": 3}))           # 5
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.build_reason == "unexplained-change", summary(bundle)


def test_an_exemplar_after_a_204_write_learns_no_rule_from_a_stale_field():
    """The exemplar itself follows a 204 write: version 1 -> 3 may be both calls' work, so no
    increment is learned from it; a later call with a fresh before teaches it."""
    bundle = build_from(_items()                                                                 # 1-3
                        .call("PUT", "/items/1", body={"x": "a2", "y": "b"}, status=204)        # 4
                        .call("PATCH", "/items/1", body={"y": "b2"},
                              response={"id": 1, "x": "a2", "y": "b2", "version": 3})           # 5 exemplar
                        .call("PATCH", "/items/2", body={"y": "d2"},
                              response={"id": 2, "x": "c", "y": "d2", "version": 2}))           # 6
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.exemplar == 5
    rule = next(f for f in update.fields if f.field == "version")
    assert (rule.op, rule.evidence["ordinal"]) == ("increment", 6)
    assert update.build_reason is None, summary(bundle)

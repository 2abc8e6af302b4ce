"""A recorded write carrying a conditional header its plan leaves unchecked (write-effects, "The
gate": "Writes"; WritePlan.unchecked_headers): serving refuses such a call, so the gate counts it
as a call the plan does not explain. It brings its entity to the recorded outcome without
attribution, and its note says why."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan


def _updates(conditional: bool):
    headers = [("If-Match", '"7"')] if conditional else None
    return (items_app()
            .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})           # 4
            .call("GET", "/items/1", response={"id": 1, "title": "x"})                                  # 5
            .call("PATCH", "/items/2", body={"title": "y"}, response={"id": 2, "title": "y"},
                  headers=headers)                                                                       # 6
            .call("GET", "/items/2", response={"id": 2, "title": "y"}))                                 # 7


def test_a_plain_later_update_is_confirmed_by_its_read():
    update = plan(build_from(_updates(conditional=False)), "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (5, 7)


def test_an_update_sending_if_match_is_not_attributed_to_the_plan():
    update = plan(build_from(_updates(conditional=True)), "PATCH", "/items/{item_id}")
    assert update.unchecked_headers and "if-match" in update.unchecked_headers
    # read 7 shows the recorded outcome, which the plan did not make: it confirms nothing of it
    assert update.served and update.checked_record_ordinals == (5,)
    notes = [e for e in update.traces if e.table == "gate" and e.evidence.get("record") == 6]
    assert notes and "if-match" in notes[0].reason and "does not explain" in notes[0].reason


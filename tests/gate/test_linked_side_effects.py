"""A write whose later reads show another entity changed, linked to the write's entity by id, and
that the plan does not explain, is side-effect (DESIGN §6, seeds "Not modelled": side effects on
other entities): deleting a task lowers its project's counter (Label Studio's task and prediction
deletes), where a served delete would leave the project answering the old count."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

PROJECT = {"id": 1, "title": "reviews", "task_number": 2}
OTHER = {"id": 2, "title": "news", "task_number": 0}
TASK_1 = {"id": 1, "project": 1, "text": "a"}
TASK_2 = {"id": 2, "project": 1, "text": "b"}


def capture(*, project_after_delete: dict, batch_before_read: bool = False) -> HarBuilder:
    har = (HarBuilder()
            .call("GET", "/projects", response=[PROJECT, OTHER])                            # 1
            .call("GET", "/projects/1", response=PROJECT)                                   # 2
            .call("GET", "/projects/2", response=OTHER)                                     # 3
            .call("GET", "/tasks", response=[TASK_1, TASK_2])                               # 4
            .call("GET", "/tasks/1", response=TASK_1)                                       # 5
            .call("GET", "/tasks/2", response=TASK_2)                                       # 6
            .call("PATCH", "/tasks/1", body={"text": "a2"}, response={**TASK_1, "text": "a2"})  # 7
            .call("GET", "/tasks/1", response={**TASK_1, "text": "a2"})                     # 8
            .call("GET", "/projects/1", response=PROJECT)                                   # 9
            .call("DELETE", "/tasks/2", status=204, response=None)                          # 10
            .call("GET", "/tasks/2", status=404, response={"detail": "Not found."}))        # 11
    if batch_before_read:  # a call on no state type's path: its reach is unknown
        har.call("POST", "/rpc/batch", body={"requests": []}, response={"ok": True})
    return (har.call("GET", "/projects/1", response=project_after_delete)                   # 12 (13)
            .call("GET", "/projects/2", response=OTHER))                                    # 13 (14)


def test_a_delete_that_changes_the_entity_it_names_is_a_side_effect():
    bundle = build_from(capture(project_after_delete={**PROJECT, "task_number": 1}))
    delete = plan(bundle, "DELETE", "/tasks/{task_id}")
    assert (delete.served, delete.reason) == (False, "side-effect")
    assert delete.contradicted_by == 12
    notes = [e.reason for e in delete.traces if e.table == "gate" and "linked to it by id" in (e.reason or "")]
    assert notes and "projects '1' changed" in notes[0] and "record 10 (DELETE /tasks/2)" in notes[0]
    # the update, whose project read showed nothing changed, stays served
    assert plan(bundle, "PATCH", "/tasks/{task_id}").served


def test_a_delete_whose_linked_entity_stays_the_same_is_served():
    bundle = build_from(capture(project_after_delete=PROJECT))
    delete = plan(bundle, "DELETE", "/tasks/{task_id}")
    assert delete.served, delete.reason


def test_an_entity_the_write_does_not_name_is_not_blamed_on_it():
    """Project 2 changes, but task 2 names project 1 only (and no path relates them)."""
    har = capture(project_after_delete=PROJECT)
    har.entries[-1]["response"]["content"]["text"] = '{"id": 2, "title": "news", "task_number": 5}'
    bundle = build_from(har)
    assert plan(bundle, "DELETE", "/tasks/{task_id}").served


def test_a_write_of_unknown_reach_between_does_not_excuse_the_linked_delete():
    """A batch call on no type's path ran between the delete and the project read: it may have
    changed the count, but does not show the delete did not (its note says so); the delete stays
    unproven, since serving would answer the project from the state."""
    bundle = build_from(capture(project_after_delete={**PROJECT, "task_number": 1}, batch_before_read=True))
    delete = plan(bundle, "DELETE", "/tasks/{task_id}")
    assert (delete.served, delete.reason, delete.contradicted_by) == (False, "side-effect", 13)
    notes = [e.reason for e in delete.traces if e.table == "gate" and "linked to it by id" in (e.reason or "")]
    assert notes and "record 12 (POST /rpc/batch)" in notes[0] and "unproven" in notes[0]

"""A count another type's creates and deletes moved does not blame a write that is none of them
(``gate/count_blame``, table ``gate-count-blame``; DESIGN §6, seeds "Not modelled"): a project's
``task_number`` drops after a task's delete; a task's text update in the same window, linked to the
project by ``project``, does not move the count, and stays served. The delete itself, which serving
would apply without moving the count, stays side-effect. A change the counted type's calls cannot
explain (another member, a count moved further than they could) still blames the update."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

PROJECT = {"id": 1, "title": "reviews", "task_number": 2}
OTHER = {"id": 2, "title": "news", "task_number": 0}
TASK_1 = {"id": 1, "project": 1, "text": "a"}
TASK_2 = {"id": 2, "project": 1, "text": "b"}


def capture(project_after: dict) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/projects", response=[PROJECT, OTHER])                                 # 1
            .call("GET", "/projects/1", response=PROJECT)                                        # 2
            .call("GET", "/projects/2", response=OTHER)                                          # 3
            .call("GET", "/tasks", response=[TASK_1, TASK_2])                                    # 4
            .call("GET", "/tasks/1", response=TASK_1)                                            # 5
            .call("GET", "/tasks/2", response=TASK_2)                                            # 6
            .call("PATCH", "/tasks/1", body={"text": "a2"}, response={**TASK_1, "text": "a2"})   # 7
            .call("GET", "/tasks/1", response={**TASK_1, "text": "a2"})                          # 8
            .call("PATCH", "/tasks/1", body={"text": "a3"}, response={**TASK_1, "text": "a3"})   # 9
            .call("GET", "/tasks/1", response={**TASK_1, "text": "a3"})                          # 10
            .call("DELETE", "/tasks/2", status=204, response=None)                               # 11
            .call("GET", "/tasks/2", status=404, response={"detail": "Not found."})              # 12
            .call("GET", "/projects/1", response=project_after))                                 # 13


def test_a_text_update_beside_a_delete_lowering_the_count_is_not_blamed():
    bundle = build_from(capture({**PROJECT, "task_number": 1}))
    update = plan(bundle, "PATCH", "/tasks/{task_id}")
    assert update.served, update.reason
    assert any(e.table == "gate" and "each a count" in (e.reason or "") and "record 13" in (e.reason or "")
               for e in update.traces)
    delete = plan(bundle, "DELETE", "/tasks/{task_id}")
    assert not delete.served and delete.reason in ("side-effect", "referrer-counted")


def test_another_member_changed_too_still_blames_the_update():
    bundle = build_from(capture({**PROJECT, "title": "renamed", "task_number": 1}))
    update = plan(bundle, "PATCH", "/tasks/{task_id}")
    assert (update.served, update.reason, update.contradicted_by) == (False, "side-effect", 13)


def test_a_count_moved_further_than_the_deletes_still_blames_the_update():
    bundle = build_from(capture({**PROJECT, "task_number": 5}))
    update = plan(bundle, "PATCH", "/tasks/{task_id}")
    assert (update.served, update.reason, update.contradicted_by) == (False, "side-effect", 13)


# ``count-blame.left-by-deletes``: a classroom names its coaches (users) and counts its learners; a
# lesson of the classroom is updated, then two users are deleted (the coach, a learner). The
# classroom read after shows the coach gone from ``coaches`` and ``learner_count`` one lower: the
# users' deletes removed them, the lesson's update (linked to the classroom by ``classroom``) did not.
COACH = {"id": 7, "username": "pia"}
CLASSROOM = {"id": 1, "name": "Blue", "learner_count": 2, "coaches": [COACH]}
OTHER_ROOM = {"id": 2, "name": "Red", "learner_count": 0, "coaches": []}
USERS = [COACH, {"id": 8, "username": "lena"}, {"id": 9, "username": "omar"}]
LESSON = {"id": 1, "classroom": 1, "title": "Leaves"}
OTHER_LESSON = {"id": 2, "classroom": 2, "title": "Roots"}


def classroom_capture(classroom_after: dict) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/classrooms", response=[CLASSROOM, OTHER_ROOM])
            .call("GET", "/classrooms/1", response=CLASSROOM)
            .call("GET", "/classrooms/2", response=OTHER_ROOM)
            .call("GET", "/users", response=USERS)
            .call("GET", "/users/7", response=USERS[0])
            .call("GET", "/users/8", response=USERS[1])
            .call("GET", "/lessons", response=[LESSON, OTHER_LESSON])
            .call("GET", "/lessons/1", response=LESSON)
            .call("GET", "/lessons/2", response=OTHER_LESSON)
            .call("PATCH", "/lessons/1", body={"title": "Trees"}, response={**LESSON, "title": "Trees"})
            .call("GET", "/lessons/1", response={**LESSON, "title": "Trees"})
            .call("DELETE", "/users/7", status=204, response=None)
            .call("GET", "/users/7", status=404, response={"detail": "Not found."})
            .call("DELETE", "/users/8", status=204, response=None)
            .call("GET", "/users/8", status=404, response={"detail": "Not found."})
            .call("GET", "/classrooms/1", response=classroom_after))


def test_an_update_beside_deletes_that_left_a_parent_is_not_blamed():
    bundle = build_from(classroom_capture({**CLASSROOM, "learner_count": 1, "coaches": []}))
    update = plan(bundle, "PATCH", "/lessons/{lesson_id}")
    assert update.served, update.reason
    assert any(e.table == "gate-count-blame" and e.rule_id == "count-blame.left-by-deletes" for e in update.traces
               ) or any("left-by-deletes" in str(e.rule_id) for e in bundle.view.traces)


def test_a_parent_that_gained_or_changed_otherwise_still_blames_the_update():
    for after in ({**CLASSROOM, "learner_count": 1, "coaches": [{"id": 9, "username": "omar"}]},
                  {**CLASSROOM, "learner_count": 3, "coaches": []}):
        update = plan(build_from(classroom_capture(after)), "PATCH", "/lessons/{lesson_id}")
        assert (update.served, update.reason) == (False, "side-effect"), after

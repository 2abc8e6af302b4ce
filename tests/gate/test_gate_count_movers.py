"""A create or delete whose change a read of another entity shows, linked to it or not, is blamed
(``gate/count_movers``, table ``gate-count-movers``; seeds "Not modelled": side effects on
counters, relations and copies of entities in other collections).

A classroom lists its coaches by bare id and counts its learners; two users are deleted, each read
back absent, and the classroom read after shows the coach's id gone and one learner fewer. No read
of the classroom falls between the deletes, so no cascade sighting holds one call alone, and a short
id under ``coaches`` names no type, so nothing links the deletes to the classroom. Serving a user
delete would leave the classroom naming the deleted coach and counting the learner: a wrong answer
to every later read of it, and a state the grader reads that the application would not hold. The
change shows what the deletes did (the ids they removed, a count falling by no more than they
number), so they are blamed as side-effect; a change they cannot have made leaves them served.
"""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import served_over_http, send

USERS = [{"id": 7, "username": "pia"}, {"id": 8, "username": "lena"}, {"id": 9, "username": "omar"}]
ROOM = {"id": 1, "name": "Blue", "learner_count": 2, "coaches": [7]}
OTHER_ROOM = {"id": 2, "name": "Red", "learner_count": 0, "coaches": []}
DELETE = ("DELETE", "/users/{user_id}")


def capture(room: dict, room_after: dict) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/classrooms", response=[room, OTHER_ROOM])
           .call("GET", "/classrooms/1", response=room)
           .call("GET", "/classrooms/2", response=OTHER_ROOM)
           .call("GET", "/users", response=USERS))
    for user in USERS:
        har.call("GET", f"/users/{user['id']}", response=user)
    for deleted in (7, 8):
        har.call("DELETE", f"/users/{deleted}", status=204, response=None)
        har.call("GET", f"/users/{deleted}", status=404, response={"detail": "Not found."})
    return har.call("GET", "/classrooms/1", response=room_after)


def _moved_by(bundle, rule_id: str | None = None) -> bool:
    """A gate-count-movers decision blamed a write (of ``rule_id``, when given)."""
    traces = list(bundle.view.traces) + [e for w in bundle.view.writes for e in w.traces]
    return any(e.table == "gate-count-movers" and e.outcome == "match" and rule_id in (None, e.rule_id)
               for e in traces)


def test_an_id_list_that_lost_the_deleted_id_blames_the_delete():
    bundle = build_from(capture(ROOM, {**ROOM, "coaches": []}))
    delete = plan(bundle, *DELETE)
    assert (delete.served, delete.reason) == (False, "side-effect")
    assert _moved_by(bundle, "count-movers.lost-its-id")


def test_a_count_falling_with_the_deletes_blames_them():
    room = {**ROOM, "coaches": []}
    bundle = build_from(capture(room, {**room, "learner_count": 1}))
    delete = plan(bundle, *DELETE)
    assert (delete.served, delete.reason) == (False, "side-effect")
    assert _moved_by(bundle, "count-movers.count-moved-with-its-calls")


def test_a_served_delete_never_leaves_the_classroom_answering_stale():
    """Whatever the plan, after the capture's own deletes the classroom answers as the application
    did, or the deletes are refused."""
    for room, after in ((ROOM, {**ROOM, "coaches": []}),
                        ({**ROOM, "coaches": []}, {**ROOM, "coaches": [], "learner_count": 1})):
        bundle = build_from(capture(room, after))
        if not plan(bundle, *DELETE).served:
            continue
        with served_over_http(bundle) as serving:
            answers = [send(serving, "DELETE", f"/users/{n}")[0] for n in (7, 8)]
            if all(200 <= status < 300 for status in answers):
                assert send(serving, "GET", "/classrooms/1") == (200, after)


def test_another_member_changing_beside_does_not_excuse_the_deletes():
    delete = plan(build_from(capture(ROOM, {**ROOM, "coaches": [], "name": "Green"})), *DELETE)
    assert (delete.served, delete.reason) == (False, "side-effect")


def test_a_change_the_deletes_cannot_have_made_leaves_them_served():
    for room, after in ((ROOM, {**ROOM, "learner_count": 5}),                      # a count that rose
                        ({**ROOM, "coaches": [9]}, {**ROOM, "coaches": []})):        # lost an id none removed
        bundle = build_from(capture(room, after))
        delete = plan(bundle, *DELETE)
        assert not _moved_by(bundle), after
        assert delete.served, (after, delete.reason)
    unchanged = plan(build_from(capture(ROOM, ROOM)), *DELETE)
    assert unchanged.served, unchanged.reason

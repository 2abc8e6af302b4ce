"""A delete of an entity a held entity lists by bare short id in an array (a classroom's
``coaches: [7]``, beside ``[8, 9]``: three distinct values, each a user's id, no other type's) is
refused (``referrer.unexplained-ids``, ``min_array_values``): the application may drop the id from
the list with the user, as a many-to-many relation does, and serving would answer the classroom
naming a deleted user. A user nothing lists is deleted; an array of two small numbers is no
reference list (``sizes: [1, 2]``), and deletes stay served beside it."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import served_over_http, send

USERS = [{"id": 7, "username": "pia"}, {"id": 8, "username": "lena"}, {"id": 9, "username": "omar"},
         {"id": 10, "username": "ivo"}]


def capture(rooms: list[dict]) -> HarBuilder:
    har = HarBuilder().call("GET", "/classrooms", response=rooms)
    for room in rooms:
        har.call("GET", f"/classrooms/{room['id']}", response=room)
    har.call("GET", "/users", response=USERS)
    for user in USERS:
        har.call("GET", f"/users/{user['id']}", response=user)
    return (har.call("DELETE", "/users/10", status=204, response=None)
            .call("GET", "/users/10", status=404, response={"detail": "Not found."}))


def test_a_user_a_classroom_lists_by_short_id_is_not_deleted():
    rooms = [{"id": 1, "name": "Blue", "coaches": [7]}, {"id": 2, "name": "Red", "coaches": [8, 9]}]
    bundle = build_from(capture(rooms))
    assert plan(bundle, "DELETE", "/users/{user_id}").served
    with served_over_http(bundle) as serving:
        status, answer = send(serving, "DELETE", "/users/7")
        assert status == 400 and "classrooms 1 (coaches)" in answer["message"]
        assert send(serving, "GET", "/users/7")[0] == 200
        assert send(serving, "GET", "/classrooms/1") == (200, rooms[0])
        assert send(serving, "DELETE", "/users/10")[0] == 204


def test_two_small_numbers_are_no_reference_list():
    rooms = [{"id": 1, "name": "Blue", "sizes": [7]}, {"id": 2, "name": "Red", "sizes": [8]}]
    bundle = build_from(capture(rooms))
    with served_over_http(bundle) as serving:
        assert send(serving, "DELETE", "/users/7")[0] == 204

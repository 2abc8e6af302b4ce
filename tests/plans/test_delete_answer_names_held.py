"""A delete answered with a body naming other entities the state holds (the members a room
delete kicked) is body-unusable: serving gives the exemplar's answer for any entity, and that one
describes the state the recorded call met. A delete answering only a count stays served; one
answering its own id is no body-unusable either, but stays unserved as answer-names-call (the
recorded answer would name the exemplar's id for any entity deleted)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

MEMBERS = [{"id": "member-ann", "name": "Ann"}, {"id": "member-bo", "name": "Bo"}]
ROOMS = [{"id": "room-kitchen", "name": "Kitchen"}, {"id": "room-garden", "name": "Garden"}]
MISSING = {"error": "not found"}


def rooms_app(delete_answer: dict) -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/members", response=MEMBERS)
    for member in MEMBERS:
        har.call("GET", f"/members/{member['id']}", response=member)
    har.call("GET", "/rooms", response=ROOMS)
    for room in ROOMS:
        har.call("GET", f"/rooms/{room['id']}", response=room)
    har.call("DELETE", "/rooms/room-kitchen", response=delete_answer)
    har.call("GET", "/rooms/room-kitchen", status=404, response=MISSING)
    har.call("GET", "/rooms", response=ROOMS[1:])
    return har


def delete_plan(delete_answer: dict):
    bundle = build_from(rooms_app(delete_answer))
    return next(p for p in bundle.view.writes if p.method == "DELETE")


def test_a_delete_answering_the_members_it_removed_is_not_served():
    plan = delete_plan({"kicked": ["member-ann", "member-bo"], "failed": []})
    assert not plan.served and plan.reason == "body-unusable", (plan.served, plan.reason)


def test_a_delete_answering_a_count_stays_served_and_its_own_id_names_the_call():
    assert delete_plan({"removed": 2}).served
    own_id = delete_plan({"deleted": "room-kitchen"})
    assert (own_id.served, own_id.reason) == (False, "answer-names-call")

"""``{"data": [...], "meta": {...}}`` lists and ``{"data": {…}}`` items written with a
``{"data": {…}}`` body, with envelope members of every kind the ``view-list-members`` table
knows: a counter under another name that tracks the listing (count-tracking), a sum of a field
(sum-of-field), a sum of a same-named field that was always zero (sum-of-same-named-field), a
flag (constant-flag)."""

from __future__ import annotations

import json

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def note(n: int, stars: int) -> dict:
    return {"id": n, "title": f"n{n}", "stars": stars, "likes": 0}


def listing(notes: list) -> dict:
    return {"data": notes, "ok": True, "listed": len(notes),
            "meta": {"stars": sum(n["stars"] for n in notes), "likes": 0}}


def capture() -> HarBuilder:
    one, two, three = note(1, 2), note(2, 0), note(3, 5)
    return (HarBuilder()
            .call("GET", "/notes", response=listing([one, two]))                                   # 1
            .call("GET", "/notes/1", response={"data": one})                                       # 2
            .call("GET", "/notes/2", response={"data": two})                                       # 3
            .call("POST", "/notes", body={"data": {"title": "n3", "stars": 5, "likes": 0}}, status=201,
                  response={"data": three})                                                        # 4
            .call("GET", "/notes/3", response={"data": three})                                     # 5
            .call("GET", "/notes", response=listing([one, two, three])))                           # 6


def test_every_kind_of_member_is_read():
    bundle = build_from(capture())
    listed = bundle.view.view("get_notes")
    assert {m.pointer: (m.role, m.rule_id) for m in listed.envelope_members} == {
        "/ok": ("constant", "list-member.constant"),
        "/listed": ("count", "list-member.count-tracking"),
        "/meta/stars": ("sum", "list-member.sum-of-field"),
        "/meta/likes": ("sum", "list-member.sum-of-same-named-field")}
    item = bundle.view.view("get_notes_by_note_id")
    assert (item.kind, item.locator.member, item.state_backed) == ("item", "data", True)
    create = plan(bundle, "POST", "/notes")
    assert (create.served, create.body_envelope) == (True, "data"), create.reason


def test_served_creates_move_every_computed_member():
    runtime = EnvironmentRuntime(build_from(capture()))
    created = runtime.read("post_notes", {"body": {"data": {"title": "n9", "stars": 4, "likes": 3}}})
    assert created["body"]["data"]["title"] == "n9"
    body = runtime.read("get_notes")["body"]
    assert (body["ok"], body["listed"], body["meta"]) == (True, 3, {"stars": 6, "likes": 3})
    assert runtime.read("get_notes_by_note_id", {"note_id": str(created["body"]["data"]["id"])})["body"] == \
        created["body"]


def test_a_member_beside_the_envelope_is_refused_by_name():
    """Datasette answers ``{"update": …, "return": true}`` with the row where ``{"update": …}`` alone
    answers ``{"ok": true}``: a member beside the envelope of a plan that serves it alone is refused on the
    application's own paths too, and the refusal names it (the caller can drop it) instead of only
    restating the envelope."""
    runtime = EnvironmentRuntime(build_from(capture()))
    body = {"data": {"title": "n9", "stars": 4, "likes": 3}, "return": True}
    answer = runtime.http(HttpRequest("POST", "/notes", (), (("content-type", "application/json"),),
                                      json.dumps(body).encode()))
    message = json.loads(answer.body)["message"]
    assert answer.status == 400 and "'return'" in message and "{'data': {…the object…}} alone" in message, message
    assert len(runtime.read("get_notes")["body"]["data"]) == 2  # nothing written

"""Copies of a written entity held by another state type (``write-copies`` ``copy.identity-elsewhere``,
``kept`` by ``WritePlan.copy_holders``): a group's member list holding copies of its users (the same
id, members the user's own reads show alike). Serving cannot change those copies with the user
(seeds/write-effects.txt, Not modelled: copies of entities in other collections), so it refuses, per
call, an update of a user a held member list copies showing a member the update changes, and a delete
of one any copies, naming where the copy is held; it serves the rest, and the tool's description says
so. A delete whose copy lies below another entity's item path stays refused at the plan level (that
entity's own reads may count its members)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import send, served_over_http, state_of

from capenv.interpreter.bundle.models import WritePlan
from capenv.serving.runtime import EnvironmentRuntime

ALICE = {"id": "f1000000-0000-4000-8000-000000000001", "name": "Alice Ops", "login": "alice@example.test",
         "roles": ["ops"], "text": "on call"}
BOB = {"id": "f1000000-0000-4000-8000-000000000002", "name": "Bob Dev", "login": "bob@example.test",
       "roles": ["dev"], "text": "builds"}
CAROL = {"id": "f1000000-0000-4000-8000-000000000003", "name": "Carol Sec", "login": "carol@example.test",
         "roles": ["sec"], "text": "audits"}
ONCALL = {"id": "0a100000-0000-4000-8000-000000000001", "name": "oncall", "text": "on-call rota"}
DBA = {"id": "0a100000-0000-4000-8000-000000000002", "name": "dba", "text": "databases"}


def member(user: dict) -> dict:
    """A member list's copy of a user: a projection of what the user's own reads show."""
    return {"id": user["id"], "name": user["name"], "login": user["login"]}


def groups_capture() -> HarBuilder:
    """Users and groups; oncall's member list holds alice (read before any write, so the state holds
    it), dba's none. Bob is renamed while in no group, then added to dba (a write no plan models), and
    dba's member list shows his copy: the capture's only sighting of a written user's copy."""
    users = [ALICE, BOB, CAROL]
    har = HarBuilder().call("GET", "/users", response={"users": users, "total": 3})
    for user in users:
        har.call("GET", f"/user/{user['id']}", response={"user": user})
    har.call("GET", "/groups", response={"groups": [ONCALL, DBA], "total": 2})
    for group in (ONCALL, DBA):
        har.call("GET", f"/group/{group['id']}", response={"group": group})
    har.call("GET", f"/group/{ONCALL['id']}/users", response={"users": [member(ALICE)], "total": 1})
    har.call("GET", f"/group/{DBA['id']}/users", response={"users": [], "total": 0})
    renamed = {**BOB, "name": "Bob Builder", "text": "builds things"}
    har.call("PUT", f"/user/{BOB['id']}", body={"name": "Bob Builder", "text": "builds things"},
             response={"status": "ok"})
    har.call("GET", f"/user/{BOB['id']}", response={"user": renamed})
    har.call("GET", "/users", response={"users": [ALICE, renamed, CAROL], "total": 3})
    har.call("PUT", f"/group/{DBA['id']}/user/{BOB['id']}", response={"status": "ok"})
    return har.call("GET", f"/group/{DBA['id']}/users", response={"users": [member(renamed)], "total": 1})


@pytest.fixture(scope="module")
def groups(tmp_path_factory):
    return build_from(groups_capture(), tmp_path_factory.mktemp("groups") / "capture.har")


def _update(bundle) -> WritePlan:
    return plan(bundle, "PUT", "/user/{user_id}")


def test_an_update_whose_copy_another_type_holds_is_served_refused_per_call(groups) -> None:
    update = _update(groups)
    assert update.served, update.reason
    assert update.copy_holders == ("group_users",), update.copy_holders
    decided = next(e for e in update.traces if e.rule_id == "copy.identity-elsewhere")
    assert decided.outcome == "miss" and "group_users" in decided.reason, decided


def test_a_held_copy_of_another_type_refuses_the_update_naming_it(groups) -> None:
    with served_over_http(groups) as serving:
        before = state_of(serving)
        status, answer = send(serving, "PUT", f"/user/{ALICE['id']}", {"name": "Alice Ops Lead", "text": "leads"})
        assert status == 400 and f"/group/{ONCALL['id']}/users" in answer["message"], answer
        assert '"name"' in answer["message"], answer
        assert state_of(serving) == before
        # the member list answers the copy as the user still is
        status, listing = send(serving, "GET", f"/group/{ONCALL['id']}/users")
        assert status == 200 and listing["users"] == [member(ALICE)], listing
        status, item = send(serving, "GET", f"/user/{ALICE['id']}")
        assert status == 200 and item["user"]["name"] == "Alice Ops", item


def test_an_update_the_copy_does_not_show_and_an_uncopied_entity_are_served(groups) -> None:
    with served_over_http(groups) as serving:
        status, _ = send(serving, "PUT", f"/user/{CAROL['id']}", {"name": "Carol Audit", "text": "audits all"})
        assert status == 200
        status, item = send(serving, "GET", f"/user/{CAROL['id']}")
        assert status == 200 and item["user"]["name"] == "Carol Audit", item
        # alice's copy shows id, name and login: a change of text alone leaves it right
        status, _ = send(serving, "PUT", f"/user/{ALICE['id']}", {"name": "Alice Ops", "text": "off call"})
        assert status == 200
        status, listing = send(serving, "GET", f"/group/{ONCALL['id']}/users")
        assert status == 200 and listing["users"] == [member(ALICE)], listing


def test_the_description_says_which_calls_are_refused(groups) -> None:
    runtime = EnvironmentRuntime(groups)
    try:
        description = next(s.description for s in runtime.tools() if s.name == _update(groups).tool)
    finally:
        runtime.close()
    assert 'a held "group_users" entity' in description, description

"""A create the application refuses for a name a held entity has (``CreateKey`` on its conflict
branch, a recorded 409) is refused alike when served; but a name differing from a held one only in
letter case (``Later`` beside ``later``) the capture never shows: a case-insensitive collation or
constraint would refuse it too, a case-sensitive one make a second entity. Before, serving made it
(201, a second "later"); now it is refused saying why, for creates and for updates renaming an
entity, and a name no held entity has in any letter case is made as before."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import send, served_over_http

TAGS = [{"id": 1, "name": "urgent"}, {"id": 2, "name": "later"}]


@pytest.fixture(scope="module")
def serving(tmp_path_factory):
    har = HarBuilder().call("GET", "/tags", response=TAGS)
    for tag in TAGS:
        har.call("GET", f"/tags/{tag['id']}", response=tag)
    home, work = {"id": 3, "name": "home"}, {"id": 4, "name": "work"}
    har.call("POST", "/tags", body={"name": "home"}, status=201, response=home).call("GET", "/tags", response=TAGS + [home])
    har.call("POST", "/tags", body={"name": "urgent"}, status=409, response={"error": "name already exists"})
    har.call("POST", "/tags", body={"name": "work"}, status=201, response=work)
    har.call("GET", "/tags", response=TAGS + [home, work])
    renamed = {**home, "name": "house"}
    har.call("PATCH", "/tags/3", body={"name": "house"}, response=renamed).call("GET", "/tags/3", response=renamed)
    bundle = build_from(har, tmp_path_factory.mktemp("keys") / "capture.har")
    assert plan(bundle, "POST", "/tags").served and plan(bundle, "PATCH", "/tags/{tag_id}").served
    with served_over_http(bundle) as server:
        yield server


def test_a_held_name_is_a_conflict(serving):
    status, answer = send(serving, "POST", "/tags", {"name": "later"})
    assert status == 409 and "is held" in answer["message"], answer


@pytest.mark.parametrize("name", ["Later", "LATER"])
def test_a_held_name_in_another_letter_case_is_refused(serving, name):
    status, answer = send(serving, "POST", "/tags", {"name": name})
    assert status == 400 and "another letter case" in answer["message"], answer
    status, tags = send(serving, "GET", "/tags")
    assert [t["name"] for t in tags].count("later") == 1 and name not in [t["name"] for t in tags]


def test_an_update_to_a_held_name_in_another_letter_case_is_refused(serving):
    status, answer = send(serving, "PATCH", "/tags/1", {"name": "LATER"})
    assert status == 400 and "another letter case" in answer["message"], answer
    assert send(serving, "GET", "/tags/1")[1]["name"] == "urgent"


def test_a_new_name_is_made(serving):
    status, made = send(serving, "POST", "/tags", {"name": "someday"})
    assert status == 201 and made["name"] == "someday", made

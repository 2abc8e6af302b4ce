"""A create storing a member as sent is proven by the gate for the values its recorded calls sent.
Where every value the held entities have in it and every value those calls sent is distinct text
(names, addresses), a create or update repeating one another held entity has is refused with the
state unchanged, saying what is accepted: the application may refuse it as taken (Strapi answers
400 "This attribute must be unique" to a second category named History), which the capture cannot
show. A capture showing a repeat taken serves it."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import sent_beside_the_state


SEED = [{"id": 1, "name": "History", "position": 1}, {"id": 2, "name": "Science", "position": 1}]


def categories_capture(*names: str) -> HarBuilder:
    """Categories created by POST /categories, each read back and listed, and one renamed."""
    har = HarBuilder()
    held = [dict(e) for e in SEED]
    har.call("GET", "/categories", response=list(held))
    for entity in SEED:
        har.call("GET", f"/categories/{entity['id']}", response=entity)
    for index, name in enumerate(names):
        entity = {"id": 3 + index, "name": name, "position": 2}
        held.append(entity)
        har.call("POST", "/categories", body={"name": name, "position": 2}, status=201, response=entity)
        har.call("GET", f"/categories/{entity['id']}", response=entity)
        har.call("GET", "/categories", response=list(held))
    renamed = {**held[0], "name": "World history"}
    har.call("PATCH", "/categories/1", body={"name": "World history"}, response=renamed)
    har.call("GET", "/categories/1", response=renamed)
    return har


@pytest.fixture(scope="module")
def distinct(tmp_path_factory):
    return build_from(categories_capture("Music", "Maths"), tmp_path_factory.mktemp("d") / "capture.har")


def call(bundle, path: str, body: dict, method: str = "POST") -> tuple[int, dict, bytes, bytes]:
    return sent_beside_the_state(bundle, method, path, body)


def test_the_plans_name_the_members_never_repeated(distinct) -> None:
    create, update = plan(distinct, "POST", "/categories"), plan(distinct, "PATCH", "/categories/{category_id}")
    assert create.served and update.served, (create.reason, update.reason)
    assert [d.member for d in create.distinct_members] == ["name"]  # position repeats: not distinct
    assert [d.member for d in update.distinct_members] == ["name"]


def test_a_new_value_is_served(distinct) -> None:
    status, answer, _, _ = call(distinct, "/categories", {"name": "Poetry", "position": 2})
    assert status == 201 and answer["name"] == "Poetry", answer


def test_a_held_value_is_refused_with_the_state_unchanged(distinct) -> None:
    status, answer, before, after = call(distinct, "/categories", {"name": "Science", "position": 2})
    assert status == 400, answer
    assert "'name'" in answer["message"] and "'Science'" in answer["message"] and "is accepted" in answer["message"]
    assert after == before


def test_a_held_value_in_other_letter_case_is_refused(distinct) -> None:
    status, answer, before, after = call(distinct, "/categories", {"name": "sCIENCE", "position": 2})
    assert status == 400 and "'Science'" in answer["message"] and "letter case" in answer["message"], answer
    assert after == before


def test_an_update_may_keep_its_own_value_but_not_take_another(distinct) -> None:
    status, answer, _, _ = call(distinct, "/categories/2", {"name": "Science"}, method="PATCH")
    assert status == 200 and answer["name"] == "Science", answer
    status, answer, before, after = call(distinct, "/categories/2", {"name": "History"}, method="PATCH")
    assert status == 400 and "'History'" in answer["message"], answer
    assert after == before


def test_a_capture_showing_a_repeat_taken_serves_it(tmp_path) -> None:
    bundle = build_from(categories_capture("Music", "History"), tmp_path / "capture.har")
    assert plan(bundle, "POST", "/categories").distinct_members == ()
    status, answer, _, _ = call(bundle, "/categories", {"name": "Science", "position": 2})
    assert status == 201 and answer["name"] == "Science", answer


def renames_capture() -> HarBuilder:
    """Categories read and one renamed by PATCH, with no create recorded: the update alone shows the names."""
    har = HarBuilder()
    har.call("GET", "/categories", response=SEED)
    for entity in SEED:
        har.call("GET", f"/categories/{entity['id']}", response=entity)
    renamed = {**SEED[0], "name": "World history"}
    har.call("PATCH", "/categories/1", body={"name": "World history"}, response=renamed)
    har.call("GET", "/categories/1", response=renamed)
    har.call("GET", "/categories", response=[renamed, SEED[1]])
    return har


def test_an_update_no_create_decides_is_judged_on_its_own_calls(tmp_path) -> None:
    bundle = build_from(renames_capture(), tmp_path / "capture.har")
    update = plan(bundle, "PATCH", "/categories/{category_id}")
    assert update.served, update.reason
    assert [d.member for d in update.distinct_members] == ["name"]
    status, answer, before, after = call(bundle, "/categories/2", {"name": "History"}, method="PATCH")
    assert status == 400 and "'History'" in answer["message"], answer
    assert after == before
    status, answer, _, _ = call(bundle, "/categories/2", {"name": "Physics"}, method="PATCH")
    assert status == 200 and answer["name"] == "Physics", answer

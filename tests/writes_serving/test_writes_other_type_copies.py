"""One search hit ``{id, title, score}`` is an entity of a type of its own (the search line), holding
the item it found under the same id: a rename of that item through ``PATCH /items/1`` would leave the
hit answering the old title. Two or more such entities make the types copies at build time
(``copies.named-overlap``); one alone cannot be told from a coincidence there, so serving refuses the
call that would leave it stale: an update changing a text that names the item (``copy_name_characters``
long, no other item holding it), or a delete of a top-level entity (a delete below another entity, a
group's member, removes a link, not the entity another type shows). Before, both were served and the search went on answering
"Buy milk". An update of a member the hit does not show is served; so is a change of a value other
items share (a status), which names no entity."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan
from support.served_calls import send, served_over_http

ITEMS = [{"id": 1, "title": "Buy milk", "state": "open", "done": False},
         {"id": 2, "title": "Walk dog", "state": "open", "done": True}]


@pytest.fixture()
def serving(tmp_path):
    har = items_app(ITEMS)
    har.call("GET", "/search", query="q=milk",
             response={"hits": [{"id": 1, "title": "Buy milk", "state": "open", "score": 0.9}]})
    renamed = {**ITEMS[1], "title": "Walk cat", "state": "closed", "done": False}
    har.call("PATCH", "/items/2", body={"title": "Walk cat", "state": "closed", "done": False}, response=renamed)
    har.call("GET", "/items/2", response=renamed)
    har.call("DELETE", "/items/2", status=204, response=None).call("GET", "/items/2", status=404,
                                                                   response={"error": "not found"})
    bundle = build_from(har, tmp_path / "capture.har")
    assert plan(bundle, "PATCH", "/items/{item_id}").served and plan(bundle, "DELETE", "/items/{item_id}").served
    with served_over_http(bundle) as server:
        yield server


def test_a_rename_of_the_found_item_is_refused(serving):
    status, answer = send(serving, "PATCH", "/items/1", {"title": "Buy oat milk"})
    assert status == 400 and "search entity 1" in answer["message"], answer
    assert send(serving, "GET", "/search?q=milk")[1]["hits"][0]["title"] == "Buy milk"
    assert send(serving, "GET", "/items/1")[1]["title"] == "Buy milk"


def test_a_delete_of_the_found_item_is_refused(serving):
    status, answer = send(serving, "DELETE", "/items/1")
    assert status == 400 and "search entity 1" in answer["message"], answer


def test_members_the_hit_does_not_name_it_by_are_served(serving):
    assert send(serving, "PATCH", "/items/1", {"done": True})[0] == 200  # the hit does not show it
    assert send(serving, "PATCH", "/items/1", {"state": "closed"})[0] == 200  # "open" names no item


def test_an_item_no_hit_shows_is_renamed(serving):
    status, answer = send(serving, "PATCH", "/items/2", {"title": "Feed cat"})
    assert status == 200 and answer["title"] == "Feed cat", answer

"""An application listing some entities under an id drawn anew at each read (Alerta's configured
roles beside the stored ones): a later whole list shows the held entity, all else alike, under a new
id (the gate's ``reidentified``), so an item call naming the id an earlier read showed may find
nothing there. Before, serving answered ``GET /perm/<that id>`` 200 from the state where the
application answers 404, and served updates of it; now both are refused, saying why (``EntityType.
redrawn_ids``), while the list still answers them and the stored entities answer as before."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.served_calls import send, served_over_http

STORED = {"id": "e1000000-0000-4000-8000-000000000001", "match": "ops", "scopes": ["read", "write:alerts"]}


def builtin(drawn: str, match: str, scopes: list[str]) -> dict:
    return {"id": drawn, "match": match, "scopes": scopes}


@pytest.fixture(scope="module")
def serving(tmp_path_factory):
    first = [builtin("ea84fe46-d2cd-4ea7-bcd7-b7dde640ae06", "admin", ["admin", "read", "write"]),
             builtin("0d7594c7-7991-4ed9-a8f8-d65948808d99", "user", ["read", "write"]), STORED]
    made = {"id": "bb1c94ca-f4ae-44ec-8b9a-ea9874a18ca2", "match": "viewer", "scopes": ["read"]}
    later = [builtin("53abc458-5383-41de-8678-3f3c53a93825", "admin", ["admin", "read", "write"]),
             builtin("75a31266-a5a0-4a54-8e40-7c563200bcdc", "user", ["read", "write"]), STORED, made]
    har = (HarBuilder().call("GET", "/perms", response={"permissions": first, "total": 3})
           .call("GET", f"/perm/{STORED['id']}", response={"permission": STORED})
           .call("GET", f"/perm/{first[0]['id']}", response={"permission": first[0]})
           .call("POST", "/perm", body={"match": "viewer", "scopes": ["read"]}, status=201, response={"permission": made})
           .call("GET", f"/perm/{made['id']}", response={"permission": made})
           .call("GET", "/perms", response={"permissions": later, "total": 4})
           .call("PUT", f"/perm/{STORED['id']}", body={"scopes": ["read"]}, response={"permission": {**STORED, "scopes": ["read"]}})
           .call("GET", f"/perm/{STORED['id']}", response={"permission": {**STORED, "scopes": ["read"]}}))
    bundle = build_from(har, tmp_path_factory.mktemp("redrawn") / "capture.har")
    types = {t.name: t for t in bundle.view.types}
    assert set(next(t for t in types.values() if t.redrawn_ids).redrawn_ids) == {first[0]["id"], first[1]["id"]}
    with served_over_http(bundle) as server:
        yield server, first


def test_an_item_read_of_a_redrawn_id_is_refused(serving):
    server, first = serving
    status, answer = send(server, "GET", f"/perm/{first[0]['id']}")
    assert status == 501 and "names anew at each read" in answer["message"], answer


def test_a_stored_entity_answers_as_before(serving):
    server, _ = serving
    status, answer = send(server, "GET", f"/perm/{STORED['id']}")
    assert status == 200 and answer["permission"]["match"] == "ops", answer


def test_the_list_still_shows_the_redrawn_entities(serving):
    server, first = serving
    status, answer = send(server, "GET", "/perms")
    assert status == 200 and [p["match"] for p in answer["permissions"]][:2] == ["admin", "user"], answer


def test_an_update_of_a_redrawn_id_is_refused_and_of_a_stored_one_served(serving):
    server, first = serving
    status, answer = send(server, "PUT", f"/perm/{first[1]['id']}", {"scopes": ["read"]})
    assert status == 400 and "names anew at each read" in answer["message"], answer
    status, answer = send(server, "PUT", f"/perm/{STORED['id']}", {"scopes": ["write:alerts"]})
    assert status == 200 and answer["permission"]["scopes"] == ["write:alerts"], answer

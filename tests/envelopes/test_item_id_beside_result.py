"""Flask-AppBuilder's item answers, written generically: the entity under ``result`` beside its id
as a number at the top (``{"id": 2, "result": {"id": 2, …}, "show_title": …}``). The top-level id
is the path value as the integer it spells, rendered for the entity the call names, not the
base recording's."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

TEMPLATES = [{"id": 1, "name": "Dark", "css": "body {}"}, {"id": 2, "name": "Print", "css": "nav {}"},
             {"id": 3, "name": "Wide", "css": ".grid {}"}]


def item(entity: dict) -> dict:
    return {"id": entity["id"], "result": entity, "show_columns": ["id", "name", "css"], "show_title": "Show"}


def templates_app() -> HarBuilder:
    har = HarBuilder().call("GET", "/api/templates/", response={"count": 3, "ids": [1, 2, 3], "result": TEMPLATES})
    for entity in TEMPLATES[:2]:
        har = har.call("GET", f"/api/templates/{entity['id']}", response=item(entity))
    return har.call("GET", "/api/templates/42", status=404, response={"message": "Not found"})


def test_the_top_level_id_is_rendered_for_the_entity_read():
    bundle = build_from(templates_app())
    view = next(v for v in bundle.view.views if v.kind == "item")
    assert view.state_backed and [(m.member, m.form) for m in view.item_members] == [("id", "number")]
    answer = EnvironmentRuntime(bundle).http(HttpRequest("GET", "/api/templates/3", (), (), b""))
    assert answer.status == 200
    assert b'"id":3,' in answer.body and b'"name":"Wide"' in answer.body and b'"id":1,' not in answer.body


def test_the_id_beside_result_inside_an_envelope_is_rendered_there():
    # found by wrapping every answer of a capture in {"data": …}: the id beside result, learned at
    # the top only, was read as a recorded constant ({"data": {"id": 2, …}} differed at /data/id)
    # and the item read stayed on replay, its type's updates and deletes unserved
    har = HarBuilder().call("GET", "/api/templates/", response={"data": {"count": 3, "ids": [1, 2, 3],
                                                                         "result": TEMPLATES}})
    for entity in TEMPLATES[:2]:
        har = har.call("GET", f"/api/templates/{entity['id']}", response={"data": item(entity)})
    har = har.call("GET", "/api/templates/42", status=404, response={"message": "Not found"})
    bundle = build_from(har)
    view = next(v for v in bundle.view.views if v.kind == "item")
    assert view.state_backed, view.reason
    assert [(m.member, m.form, m.within) for m in view.item_members] == [("id", "number", ("data",))]
    answer = EnvironmentRuntime(bundle).http(HttpRequest("GET", "/api/templates/3", (), (), b""))
    assert answer.status == 200
    body = json.loads(answer.body)
    assert body["data"]["id"] == 3 and body["data"]["result"]["name"] == "Wide" and set(body) == {"data"}

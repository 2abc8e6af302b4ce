"""An item read the application refused for its id's shape (a 422 for a hex token where ids are
UUIDs: FastAPI's, Alertmanager's "must be of type uuid") says nothing of the state: the read gate
passes over it, held ids are answered from the state, that very call replays its recording, and
another id of a shape the type does not hold is refused (never the learned 404, never the 422
recorded for another id)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

HELD = "be8e7d45-e1c0-4843-a69e-ba749bfe90c1"
OTHER = "32efa508-4ca3-4ba7-ad8b-1c046af40483"
NEVER = "5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"
TOKEN = "198d9e67ef906be1"
MALFORMED = {"code": 601, "message": f'id in path must be of type uuid: "{TOKEN}"'}


def things(refused_id: str = TOKEN) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/api/things", response=[{"id": HELD, "name": "a"}, {"id": OTHER, "name": "b"}])
            .call("GET", f"/api/thing/{HELD}", response={"id": HELD, "name": "a"})
            .call("GET", f"/api/thing/{OTHER}", response={"id": OTHER, "name": "b"})
            .call("GET", f"/api/thing/{NEVER}", status=404, response={"message": "thing not found"})
            .call("GET", f"/api/thing/{refused_id}", status=422, response=MALFORMED))


def item_view(bundle):
    return next(v for v in bundle.view.views if v.kind == "item")


def get(bundle, path: str):
    return EnvironmentRuntime(bundle).http(HttpRequest("GET", path, (), (), b""))


def test_a_refusal_of_an_id_of_another_shape_does_not_contradict_the_item_view():
    view = item_view(build_from(things()))
    assert view.state_backed, view.reason
    assert len(view.malformed_id_records) == 1


def test_a_refusal_of_an_id_shaped_as_held_ones_still_contradicts_it():
    view = item_view(build_from(things(refused_id="00000000-0000-0000-0000-000000000001")))
    assert not view.state_backed and not view.malformed_id_records


def test_held_ids_answer_from_the_state_and_unknown_ones_the_learned_absence():
    bundle = build_from(things())
    held = get(bundle, f"/api/thing/{OTHER}")
    assert held.status == 200 and OTHER.encode() in held.body
    unknown = get(bundle, "/api/thing/11111111-2222-4333-8444-555555555555")
    assert unknown.status == 404 and b"thing not found" in unknown.body


def test_the_refused_call_itself_replays_its_recording():
    answer = get(build_from(things()), f"/api/thing/{TOKEN}")
    assert answer.status == 422 and b"must be of type uuid" in answer.body


def test_another_id_of_an_unheld_shape_is_refused_with_why():
    answer = get(build_from(things()), "/api/thing/0123456789abcdef")
    assert answer.status == 404 and b'"error":"not_found"' in answer.body
    assert b"thing not found" not in answer.body and TOKEN.encode() in answer.body and b"422" in answer.body
    assert b"must be of type uuid" not in answer.body

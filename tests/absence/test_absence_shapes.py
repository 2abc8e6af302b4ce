"""The learned absence answers ids shaped like those it was recorded for, when the application
answered an id of another shape otherwise (Alertmanager: an empty 404 for a UUID it does not
hold, a 422 for any other text): another shape's answer is not known, so it is refused."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

HELD = "6f0c1b52-1d55-4b7e-9a0e-3c2f1a7d9e01"
NEVER = "0b9a8c7d-2e3f-4a5b-8c6d-7e8f9a0b1c2d"
NOT_UUID = {"code": 601, "message": 'id in path must be of type uuid: "nope"'}


def things(refuses_other_shapes: bool) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/things", response=[{"id": HELD, "name": "a"}])
           .call("GET", f"/things/{HELD}", response={"id": HELD, "name": "a"})
           .call("GET", f"/things/{NEVER}", status=404, response={"message": "thing not found"}))
    if refuses_other_shapes:
        har = har.call("GET", "/things/nope", status=422, response=NOT_UUID)
    return har


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_an_id_of_the_absences_shape_answers_the_learned_absence():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=True))),
                 "/things/9b2f4c1e-6a7d-4e3f-8b5c-2d1e0f9a8b7c")
    assert answer.status == 404 and b"thing not found" in answer.body


def test_an_id_of_another_shape_is_refused_where_the_application_answered_that_shape_otherwise():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=True))), "/things/db2-thing")
    assert answer.status == 404 and b'"error":"not_found"' in answer.body
    assert b"422" in answer.body and b"thing not found" not in answer.body


def test_with_no_other_answer_recorded_the_absence_answers_any_id():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=False))), "/things/db2-thing")
    assert answer.status == 404 and b"thing not found" in answer.body

"""The learned absence answers ids shaped like those it was recorded for, when the application
answered an id of another shape otherwise (Alertmanager: an empty 404 for a UUID it does not
hold, a 422 for any other text): another shape's answer is not known, so it is refused. Ids here
are tokens, of no integer or UUID shape, which ``refuse_unshaped_id`` covers without evidence."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

HELD = "t6cu5l28akg4mky"  # 15 random lower-case letters and digits (ids of no integer or UUID shape)
NEVER = "k3j4h5g6f7d8s9a"
MALFORMED = {"code": 601, "message": 'id in path must be 15 letters and digits: "nope"'}


def things(refuses_other_shapes: bool) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/things", response=[{"id": HELD, "name": "a"}])
           .call("GET", f"/things/{HELD}", response={"id": HELD, "name": "a"})
           .call("GET", f"/things/{NEVER}", status=404, response={"message": "thing not found"}))
    if refuses_other_shapes:
        har = har.call("GET", "/things/nope", status=422, response=MALFORMED)
    return har


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_an_id_of_the_absences_shape_answers_the_learned_absence():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=True))),
                 "/things/q1w2e3r4t5y6u7i")
    assert answer.status == 404 and b"thing not found" in answer.body


def test_an_id_of_another_shape_is_refused_where_the_application_answered_that_shape_otherwise():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=True))), "/things/db2-thing")
    assert answer.status == 404 and b'"error":"not_found"' in answer.body
    assert b"422" in answer.body and b"thing not found" not in answer.body


def test_with_no_other_answer_recorded_the_absence_answers_any_id():
    answer = get(EnvironmentRuntime(build_from(things(refuses_other_shapes=False))), "/things/db2-thing")
    assert answer.status == 404 and b"thing not found" in answer.body

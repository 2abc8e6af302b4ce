"""A number the held ids skip is refused, not answered missing (``view-absence-sequence-gaps``,
docs/absence.md "A skipped number"): the application numbered an entity there that the capture
never shows (RT's hidden queue 2 between the listed queues 1 and 3). Numbers outside the held span,
absences recorded for the very call, contiguous ids and numbers a served write removed keep the
learned absence."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

MISSING = {"message": "Not Found"}


def queues_app(ids: tuple[int, ...]) -> HarBuilder:
    har = HarBuilder().call("GET", "/api/queues", response=[{"id": i, "name": f"q{i}"} for i in ids])
    for i in ids:
        har.call("GET", f"/api/queues/{i}", response={"id": i, "name": f"q{i}"})
    return (har.call("GET", "/api/queues/99", status=404, response=MISSING)
            .call("GET", "/api/queues/7", status=404, response=MISSING))


def http(runtime: EnvironmentRuntime, method: str, path: str):
    return runtime.http(HttpRequest(method, path, (), (), b""))


def test_a_skipped_number_is_refused_not_answered_missing():
    runtime = EnvironmentRuntime(build_from(queues_app((1, 3, 4, 9))))
    answer = http(runtime, "GET", "/api/queues/2")
    assert answer.status == 404 and b"Not Found" not in answer.body, answer.body
    assert b"run from 1 to 9 and skip 2" in answer.body, answer.body
    # the absence recorded for this very call (7, inside the span) still answers as recorded
    assert http(runtime, "GET", "/api/queues/7").body == b'{"message":"Not Found"}'
    # a number above the held ones keeps the learned absence
    assert http(runtime, "GET", "/api/queues/12").body == b'{"message":"Not Found"}'


def test_contiguous_ids_keep_the_absence():
    runtime = EnvironmentRuntime(build_from(queues_app((1, 2, 3, 4))))
    assert http(runtime, "GET", "/api/queues/5").body == b'{"message":"Not Found"}'
    assert http(runtime, "GET", "/api/queues/0").body == b'{"message":"Not Found"}'


def test_a_held_number_a_served_delete_removed_is_answered_missing():
    har = queues_app((1, 3, 4, 9))
    har.call("DELETE", "/api/queues/4", status=204).call("GET", "/api/queues/4", status=404, response=MISSING)
    runtime = EnvironmentRuntime(build_from(har))
    assert http(runtime, "DELETE", "/api/queues/3").status == 204
    assert http(runtime, "GET", "/api/queues/3").body == b'{"message":"Not Found"}'


def test_a_served_write_of_a_skipped_number_is_refused_not_answered_missing():
    har = queues_app((1, 3, 4, 9))
    har.call("DELETE", "/api/queues/4", status=204).call("GET", "/api/queues/4", status=404, response=MISSING)
    runtime = EnvironmentRuntime(build_from(har))
    answer = http(runtime, "DELETE", "/api/queues/2")
    assert answer.status == 404 and b"Not Found" not in answer.body and b"skip 2" in answer.body, answer.body
    assert http(runtime, "DELETE", "/api/queues/12").body == b'{"message":"Not Found"}'

"""An id shaped unlike every id the capture shows for the type is not given the learned absence:
where the ids are integers, ``abc`` may be refused as invalid (NocoDB answers 422
ERR_INVALID_PK_VALUE) and ``01`` read as row 1; where they are UUIDs, any other text may be a
validation error. The capture shows neither, so serving refuses instead of answering "missing"."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

UUIDS = ["3f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f", "7a2b9c1d-0e3f-4a5b-8c6d-1e2f3a4b5c6d"]


def items_app(ids: list, never: str) -> HarBuilder:
    har = HarBuilder().call("GET", "/items", response=[{"id": i, "title": f"item {n}"} for n, i in enumerate(ids)])
    for n, i in enumerate(ids):
        har = har.call("GET", f"/items/{i}", response={"id": i, "title": f"item {n}"})
    return har.call("GET", f"/items/{never}", status=404, response={"message": "Not found"})


def http_get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_integer_ids_answer_another_integer_missing_and_refuse_other_shapes():
    runtime = EnvironmentRuntime(build_from(items_app([1, 2, 3], "999")))
    assert json.loads(http_get(runtime, "/items/77").body) == {"message": "Not found"}
    for odd in ("abc", "01", "1.0", "%2B1"):
        answer = http_get(runtime, f"/items/{odd}")
        assert answer.status in (404, 409) and b"Not found" not in answer.body, odd
        # 01 spells a held id otherwise: refused naming it (serving/state/spellings)
        assert (b"the state holds no" in answer.body and b"integers" in answer.body) or (
            odd == "01" and b"leading zeros" in answer.body), answer.body
    assert json.loads(http_get(runtime, "/items/1").body) == {"id": 1, "title": "item 0"}


def test_uuid_ids_refuse_an_id_that_is_no_uuid():
    runtime = EnvironmentRuntime(build_from(items_app(UUIDS, "00000000-0000-4000-8000-00000000dead")))
    other = "11111111-2222-4333-8444-555555555555"
    assert json.loads(http_get(runtime, f"/items/{other}").body) == {"message": "Not found"}
    answer = http_get(runtime, "/items/not-a-uuid")
    assert answer.status == 404 and b"UUIDs" in answer.body


def test_ids_of_no_one_shape_keep_the_absence():
    runtime = EnvironmentRuntime(build_from(items_app(["k3j4h5g6", "a8s9d0f1"], "zzzzzzzz")))
    assert json.loads(http_get(runtime, "/items/q1w2e3r4").body) == {"message": "Not found"}


def test_a_replayed_item_read_refuses_an_id_of_another_shape_too():
    """Under --replay-only (and for an item read answered by replay), the learned absence is given
    by the replay's own path: the same ids are checked, those of the capture's initial state."""
    runtime = EnvironmentRuntime(build_from(items_app(UUIDS, "00000000-0000-4000-8000-00000000dead")), replay_only=True)
    assert json.loads(http_get(runtime, "/items/11111111-2222-4333-8444-555555555555").body) == {"message": "Not found"}
    answer = http_get(runtime, "/items/not-a-uuid")
    assert answer.status == 404 and b"UUIDs" in answer.body and b"Not found" not in answer.body


def test_an_integer_id_past_2_to_the_53_is_refused():
    """Every id the capture shows is an integer a JSON number holds exactly: a 23-digit id may be
    read as an inexact number (LoopBack answers "Entity not found: Todo with id 1e+23"), so the
    learned absence, which would name the id as sent, is not given."""
    runtime = EnvironmentRuntime(build_from(items_app([1, 2, 3], "999")))
    assert json.loads(http_get(runtime, "/items/9007199254740991").body) == {"message": "Not found"}
    answer = http_get(runtime, "/items/99999999999999999999999")
    assert answer.status == 404 and b"Not found" not in answer.body and b"2**53" in answer.body, answer.body

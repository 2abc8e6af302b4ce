"""Replay never answers a recording the capture's own writes may have shaped (serving/reads/
written_paths.py, written_values.py): a read recorded after a successful write at its path, beneath
it or above it, and a read showing a value a form body sent, are refused, not replayed; a read the
capture made before any such write, or at an unrelated path, still replays. A hierarchical key
store (etcd's v2 keys API is one) whose writes are unserved: replaying the later recordings answered
keys and directories this environment never made."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

FORM = "application/x-www-form-urlencoded"


def node(key: str, **members) -> dict:
    return {"action": "get", "node": {"key": key, **members}}


def key_store() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/store/app/name", response=node("/app/name", value="inventory"))
            .call("GET", "/about", response={"version": "3.4"})
            .call("PUT", "/store/app/region", body="value=eu-west", request_type=FORM, status=201,
                  response={"action": "set", "node": {"key": "/app/region", "value": "eu-west"}})
            .call("GET", "/store/app/region", response=node("/app/region", value="eu-west"))
            .call("PUT", "/store/staging", body="dir=true", request_type=FORM, status=201,
                  response={"action": "set", "node": {"key": "/staging", "dir": True}})
            .call("GET", "/store/staging", response=node("/staging", dir=True))
            .call("GET", "/store/app", response=node("/app", dir=True, nodes=[{"key": "/app/name"}, {"key": "/app/region"}]))
            .call("GET", "/release", response={"channel": "stable"})
            .call("GET", "/overview", response={"regions": ["eu-west"]}))


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_later_read_showing_a_value_a_form_body_sent_is_refused():
    runtime = EnvironmentRuntime(build_from(key_store()))
    for path in ("/store/app/region", "/overview"):
        answer = get(runtime, path)
        assert answer.status == 409 and b"not modelled over the current state" in answer.body, (path, answer.body)
    assert b"shows a value one of them sent" in get(runtime, "/overview").body


def test_a_later_read_of_the_place_a_write_made_is_refused_though_it_shows_nothing_sent():
    answer = get(EnvironmentRuntime(build_from(key_store())), "/store/staging")
    assert answer.status == 409 and b"write at its place (record" in answer.body, answer.body


def test_a_later_read_above_a_write_is_refused():
    answer = get(EnvironmentRuntime(build_from(key_store())), "/store/app")
    assert answer.status == 409, answer.body


def test_reads_before_any_write_or_of_unrelated_places_still_replay():
    runtime = EnvironmentRuntime(build_from(key_store()))
    assert get(runtime, "/about").status == 200
    released = get(runtime, "/release")
    assert released.status == 200 and b"stable" in released.body, released.body


def counted_store() -> HarBuilder:
    """Every error body holds the store's write count: 3 before any write, 4 after one."""
    missing = lambda key, index: {"errorCode": 100, "message": "Key not found", "cause": key, "index": index}
    return (HarBuilder()
            .call("GET", "/store/a", status=404, response=missing("/a", 3))
            .call("GET", "/store/b", status=404, response=missing("/b", 3))
            .call("GET", "/store/c", status=404, response=missing("/c", 3))
            .call("PUT", "/store/d", body="value=1", request_type=FORM, status=201,
                  response={"action": "set", "node": {"key": "/d", "value": "1"}})
            .call("GET", "/other/e", status=404, response=missing("/e", 4))
            .call("GET", "/other/f", status=404, response=missing("/f", 3)))


def test_a_later_answer_holding_a_counter_the_writes_moved_is_refused():
    runtime = EnvironmentRuntime(build_from(counted_store()))
    moved = get(runtime, "/other/e")
    assert moved.status == 409 and b"a counter those writes moved" in moved.body, moved.body
    kept = get(runtime, "/other/f")  # the count as the capture began: nothing moved it for this answer
    assert kept.status == 404 and b'"index":3' in kept.body.replace(b" ", b""), kept.body

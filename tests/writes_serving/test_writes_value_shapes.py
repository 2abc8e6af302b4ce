"""A create whose recorded refusals show the application validating an integer member by shape (a
negative count, an expiry of 4 digits where 13 were sent), while its successful values are each
the client's own: serving takes values shaped like the successful ones and refuses the
others, state unchanged, where storing them would answer 200 to what the application refuses."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

SEED = {"token": "seed-invite", "uses": 3, "expiry": None}


def tokens_app() -> HarBuilder:
    made = {"token": "welcome-2027", "uses": 5, "expiry": 1830297600000}
    invalid = {"error": "invalid"}
    return (HarBuilder()
            .call("GET", "/tokens", response={"tokens": [SEED]})
            .call("GET", "/tokens/seed-invite", response=SEED)
            .call("POST", "/tokens/new", body={"token": "welcome-2027", "uses": 5, "expiry": 1830297600000},
                  response=made)
            .call("GET", "/tokens/welcome-2027", response=made)
            .call("GET", "/tokens", response={"tokens": [SEED, made]})
            .call("POST", "/tokens/new", body={"token": "has space", "uses": 5, "expiry": 1830297600000},
                  status=400, response=invalid)
            .call("POST", "/tokens/new", body={"token": "welcome-2027", "uses": -1, "expiry": 1830297600000},
                  status=400, response=invalid)
            .call("POST", "/tokens/new", body={"token": "welcome-2027", "uses": 5, "expiry": 1000},
                  status=400, response=invalid))


def post(runtime: EnvironmentRuntime, body: dict):
    answer = runtime.http(HttpRequest("POST", "/tokens/new", (), (("content-type", "application/json"),),
                                      json.dumps(body).encode()))
    return answer.status, json.loads(answer.body)


def test_values_shaped_like_the_successful_ones_are_created():
    runtime = EnvironmentRuntime(build_from(tokens_app()))
    status, made = post(runtime, {"token": "probe-token", "uses": 2, "expiry": 1830297600001})
    assert status == 200 and made["token"] == "probe-token", made


def test_values_shaped_like_a_refused_one_are_refused_with_the_state_unchanged():
    runtime = EnvironmentRuntime(build_from(tokens_app()))
    before = runtime.data_get()
    for body in ({"token": "probe-neg", "uses": -5, "expiry": 1830297600001},
                 {"token": "probe-old", "uses": 2, "expiry": 1234}):
        status, answer = post(runtime, body)
        assert status >= 400 and "shaped like" in json.dumps(answer), (body, answer)
    assert runtime.data_get() == before

"""The agent's tool list never shows a password a recorded call sent (serving/catalog/withheld).

A login call records its body, password included; a body example, a recorded value listed as an
example or the OpenAPI document's example would hand the agent under test that credential. Each
shows the credential member named, its value withheld; other members keep their recorded values.
"""

from __future__ import annotations

import json

from capenv.serving.catalog.openapi import openapi_document
from capenv.serving.runtime import EnvironmentRuntime

from support.capture_runs import build_from
from support.har_builder import HarBuilder

PASSWORD = "s3cret-login-pass"
API_TOKEN = "tok-7f3a9c2e5b1d"


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("POST", "/auth/login", body={"username": "ana", "password": PASSWORD}, response={"key": "k1"})
            .call("POST", "/auth/login", body={"username": "bob", "password": PASSWORD + "2"}, status=400,
                  response={"detail": "bad credentials"})
            .call("GET", "/users", response=[{"id": 1, "username": "ana"}])
            .call("POST", "/users", body={"username": "cy", "password": PASSWORD + "3", "apiToken": API_TOKEN},
                  status=201, response={"id": 2, "username": "cy"})
            .call("GET", "/users/2", response={"id": 2, "username": "cy"})
            .call("POST", "/users", body={"username": "dee", "password": PASSWORD + "4", "apiToken": API_TOKEN + "x"},
                  status=201, response={"id": 3, "username": "dee"})
            .call("GET", "/users", response=[{"id": 1, "username": "ana"}, {"id": 2, "username": "cy"},
                                             {"id": 3, "username": "dee"}]))


def test_no_tool_shows_a_recorded_password_or_token():
    bundle = build_from(capture())
    runtime = EnvironmentRuntime(bundle)
    listed = json.dumps([(s.name, s.title, s.description, s.input_schema, s.output_schema) for s in runtime.catalog.specs()],
                        default=str)
    assert PASSWORD not in listed and API_TOKEN not in listed
    assert "<password>" in listed and '"username": "bob"' in listed  # the member named; the others as recorded
    document = json.dumps(openapi_document(bundle, runtime.catalog), default=str)
    assert PASSWORD not in document and API_TOKEN not in document

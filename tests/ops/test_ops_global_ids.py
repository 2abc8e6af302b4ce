"""Relay global ids (base64 of ``Type:n``, Arize Phoenix's ``UHJvamVjdDo1``): a create's identity of
this form, where every other id of the type encodes the same type name, is a sequence written
encoded, so serving answers the id the application would and reads the entity back by it."""

from __future__ import annotations

import base64
import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.global_ids import encode_global_id, global_id
from capenv.serving.ops.sequence_state import format_sequence, sequence_number
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def gid(number: int, prefix: str = "Project:") -> str:
    return base64.b64encode(f"{prefix}{number}".encode()).decode()


def test_a_global_id_spells_its_number_and_nothing_else_does():
    assert global_id(gid(5)) == ("Project:", "5") and sequence_number(gid(12)) == 12
    assert format_sequence(10, None, True, "Project:") == gid(10) == encode_global_id("Project:", 10)
    for other in (gid(10).rstrip("="), "UHJvamVjdDowNQ==", "aGVsbG8gd29ybGQ=", "testdata", "12ab", ""):
        assert global_id(other) is None, other  # unpadded, Project:05, hello world, no base64 text
    assert sequence_number("testdata") is None


def projects_app() -> HarBuilder:
    one, two = {"name": "one", "id": gid(1)}, {"name": "two", "id": gid(2)}
    har = HarBuilder()
    har.call("GET", "/projects", response={"data": [one, two]})
    har.call("GET", f"/projects/{gid(1)}", response={"data": one})
    har.call("POST", "/projects", body={"name": "three"}, response={"data": {"name": "three", "id": gid(3)}})
    har.call("GET", f"/projects/{gid(3)}", response={"data": {"name": "three", "id": gid(3)}})
    har.call("GET", "/projects", response={"data": [one, two, {"name": "three", "id": gid(3)}]})
    return har


def call(runtime: EnvironmentRuntime, method: str, path: str, body: dict | None = None):
    answer = runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),),
                                      json.dumps(body).encode() if body is not None else b""))
    return answer.status, json.loads(answer.body) if answer.body else None


def test_a_served_create_numbers_the_next_global_id_and_reads_it_back():
    bundle = build_from(projects_app())
    create = next(p for p in bundle.view.writes if p.method == "POST")
    assert create.served, create.reason
    rule = next(r for r in create.fields if r.field == "id")
    assert rule.params["format"] == "sequence" and rule.params["encoded_prefix"] == "Project:"
    runtime = EnvironmentRuntime(bundle)
    status, made = call(runtime, "POST", "/projects", {"name": "four"})
    assert status == 200 and made["data"]["id"] == gid(3)  # the state holds Project:1 and Project:2
    assert call(runtime, "GET", f"/projects/{gid(3)}") == (200, {"data": {"name": "four", "id": gid(3)}})
    assert call(runtime, "POST", "/projects", {"name": "five"})[1]["data"]["id"] == gid(4)
    runtime.data_reset()
    assert call(runtime, "POST", "/projects", {"name": "again"})[1]["data"]["id"] == gid(3)  # deterministic


def test_ids_of_two_type_names_are_no_one_sequence():
    har = projects_app()
    har.entries[0]["response"]["content"]["text"] = json.dumps(
        {"data": [{"name": "one", "id": gid(1)}, {"name": "two", "id": gid(2, "Span:")}]})
    bundle = build_from(har)
    create = next(p for p in bundle.view.writes if p.method == "POST")
    rule = next((r for r in create.fields if r.field == "id"), None)
    assert rule is None or rule.params.get("encoded_prefix") is None

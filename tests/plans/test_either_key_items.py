"""An item path whose one parameter takes either the identity or another key member (Prefect's
``/api/v2/concurrency_limits/{id_or_name}``), decided by ``view-either-keys``: served where the
capture reads both spellings and the identity's shape tells them apart; a value of that shape names
the identity, any other the member (the one entity holding it)."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ONE = {"id": "2f6c1e0a-9b7d-4c3e-8a1f-5d2b7c9e0a11", "name": "seed-one", "limit": 1}
TWO = {"id": "7a9d3b2c-1e4f-4a6b-9c8d-0e1f2a3b4c22", "name": "two", "limit": 2}
MISSING = {"detail": "Limit not found"}


def limits_app(by_name: bool = True) -> HarBuilder:
    har = HarBuilder()
    if by_name:
        har.call("GET", "/limits/seed-one", response=ONE)
    har.call("GET", f"/limits/{ONE['id']}", response=ONE)
    har.call("POST", "/limits", body={"name": "two", "limit": 2}, status=201, response=TWO)
    har.call("GET", f"/limits/{TWO['id']}", response=TWO)
    if by_name:
        har.call("GET", "/limits/two", response=TWO)
    har.call("PATCH", f"/limits/{ONE['id']}", body={"limit": 9}, status=204)
    har.call("GET", f"/limits/{ONE['id']}", response={**ONE, "limit": 9})
    har.call("PATCH", "/limits/two" if by_name else f"/limits/{TWO['id']}", body={"limit": 5}, status=204)
    har.call("GET", f"/limits/{TWO['id']}", response={**TWO, "limit": 5})
    har.call("DELETE", "/limits/two" if by_name else f"/limits/{TWO['id']}", status=204)
    har.call("GET", f"/limits/{TWO['id']}", status=404, response=MISSING)
    return har


def call(runtime: EnvironmentRuntime, method: str, path: str, body: dict | None = None):
    answer = runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),),
                                      json.dumps(body).encode() if body is not None else b""))
    return answer.status, json.loads(answer.body) if answer.body else None


def test_reads_by_identity_and_by_name_make_one_type_whose_path_takes_either():
    bundle = build_from(limits_app())
    limits = next(t for t in bundle.view.types if t.name == "limits")
    assert limits.id_field == "id" and limits.either_key is not None and limits.either_key.member == "name"
    assert limits.either_key.rule_id == "either-key.by-shape"
    served = {p.method: p for p in bundle.view.writes if p.served}
    assert set(served) == {"POST", "PATCH", "DELETE"}, [(p.tool, p.reason) for p in bundle.view.writes]


def test_serving_names_the_entity_by_identity_for_an_id_shaped_value_and_by_name_otherwise():
    runtime = EnvironmentRuntime(build_from(limits_app()))
    assert call(runtime, "GET", "/limits/seed-one") == (200, ONE)
    assert call(runtime, "GET", f"/limits/{ONE['id']}") == (200, ONE)
    assert call(runtime, "PATCH", "/limits/seed-one", {"limit": 3})[0] == 204
    assert call(runtime, "GET", f"/limits/{ONE['id']}")[1]["limit"] == 3
    status, made = call(runtime, "POST", "/limits", {"name": "three", "limit": 4})
    assert status == 201 and call(runtime, "GET", "/limits/three")[1]["id"] == made["id"]
    # a value shaped as an identity names no name, even one a limit holds as its name
    assert call(runtime, "GET", "/limits/0a0a0a0a-0000-4000-8000-000000000000")[0] == 404
    assert call(runtime, "PATCH", "/limits/nobody", {"limit": 1})[0] == 404
    assert call(runtime, "DELETE", "/limits/three")[0] == 204
    assert call(runtime, "GET", f"/limits/{made['id']}")[0] == 404


def test_two_entities_holding_the_name_are_refused_on_write():
    runtime = EnvironmentRuntime(build_from(limits_app()))
    assert call(runtime, "POST", "/limits", {"name": "other", "limit": 4})[0] == 201
    state = json.loads(runtime.data_get())
    for collection in state["collections"]:
        for entity in collection["entities"]:
            entity["value"]["name"] = "same"
    runtime.data_add(json.dumps(state).encode())
    before = runtime.data_get()
    status, body = call(runtime, "DELETE", "/limits/same")
    assert status >= 400 and "hold 'name' 'same'" in json.dumps(body)
    assert runtime.data_get() == before


def test_with_one_spelling_read_the_path_takes_the_identity_alone():
    bundle = build_from(limits_app(by_name=False))
    limits = next(t for t in bundle.view.types if t.name == "limits")
    assert limits.either_key is None

"""An item path taking either the identity or a key member (``EitherKey``; Phoenix's
``/v1/projects/{id_or_name}``), where the application words each absence after the key it looked up
("Project with ID <id> not found", "Project with name <name> not found"), and a create answering
its entity with the name before the id, then read by both:

- the create is linked by the id it returned, not by the name a later read named it by (a read by
  name names no id), so it is observed and served;
- an absence recorded for one spelling answers only a call naming its entity in that spelling,
  reads and writes alike: filled with a value of the other spelling it would say what the
  application never says.
"""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ONE = {"name": "seed-one", "limit": 1, "id": "2f6c1e0a-9b7d-4c3e-8a1f-5d2b7c9e0a11"}
TWO = {"name": "two", "limit": 2, "id": "7a9d3b2c-1e4f-4a6b-9c8d-0e1f2a3b4c22"}
GONE_ID = "0b0b0b0b-0000-4000-8000-000000000000"


def by_id(value: str) -> dict:
    return {"detail": f"Limit with ID {value} not found"}


def by_name(value: str) -> dict:
    return {"detail": f"Limit with name {value} not found"}


def limits_app(absence_by_name_last: bool) -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/limits", response={"data": [ONE]})
    har.call("GET", "/limits/seed-one", response={"data": ONE})
    har.call("GET", f"/limits/{ONE['id']}", response={"data": ONE})
    absences = [(f"/limits/{GONE_ID}", by_id(GONE_ID)), ("/limits/nowhere", by_name("nowhere"))]
    for path, body in absences if absence_by_name_last else absences[::-1]:
        har.call("GET", path, status=404, response=body)
    har.call("POST", "/limits", body={"name": "two", "limit": 2}, response={"data": TWO})
    har.call("GET", "/limits/two", response={"data": TWO})
    har.call("GET", f"/limits/{TWO['id']}", response={"data": TWO})
    har.call("GET", "/limits", response={"data": [ONE, TWO]})
    har.call("PUT", f"/limits/{ONE['id']}", body={"limit": 9}, response={"data": {**ONE, "limit": 9}})
    har.call("GET", f"/limits/{ONE['id']}", response={"data": {**ONE, "limit": 9}})
    har.call("PUT", "/limits/two", body={"limit": 5}, response={"data": {**TWO, "limit": 5}})
    har.call("GET", "/limits/two", response={"data": {**TWO, "limit": 5}})
    for path, body in absences if absence_by_name_last else absences[::-1]:
        har.call("PUT", path, body={"limit": 1}, status=404, response=body)
    return har


def call(runtime: EnvironmentRuntime, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
    answer = runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),),
                                      json.dumps(body).encode() if body is not None else b""))
    return answer.status, answer.body.decode() if answer.body else ""


def test_a_create_answering_name_before_id_is_linked_by_its_id_and_served():
    bundle = build_from(limits_app(absence_by_name_last=True))
    limits = next(t for t in bundle.view.types if t.name == "limits")
    assert limits.either_key is not None and limits.either_key.member == "name"
    served = {p.method: p for p in bundle.view.writes if p.served}
    assert set(served) == {"POST", "PUT"}, [(p.tool, p.reason) for p in bundle.view.writes]
    runtime = EnvironmentRuntime(bundle)
    status, text = call(runtime, "POST", "/limits", {"name": "three", "limit": 3})
    made = json.loads(text)["data"]
    assert status == 200 and made["id"] != "three"
    assert json.loads(call(runtime, "GET", "/limits/three")[1])["data"]["id"] == made["id"]
    assert json.loads(call(runtime, "GET", f"/limits/{made['id']}")[1])["data"]["name"] == "three"


def test_an_absence_answers_only_in_the_spelling_it_was_recorded_for():
    for by_name_last in (True, False):
        runtime = EnvironmentRuntime(build_from(limits_app(absence_by_name_last=by_name_last)))
        before = runtime.data_get()
        other_id = "0c0c0c0c-0000-4000-8000-000000000000"
        for method, body in (("GET", None), ("PUT", {"limit": 1})):
            status, text = call(runtime, method, f"/limits/{other_id}", body)
            assert status == 404 and "with name" not in text, (method, by_name_last, text)
            status, text = call(runtime, method, "/limits/elsewhere", body)
            assert status == 404 and "with ID" not in text, (method, by_name_last, text)
            # a call in the recorded spelling is answered with the application's own words
            said = [_json(call(runtime, method, f"/limits/{other_id}", body)[1]),
                    _json(call(runtime, method, "/limits/elsewhere", body)[1])]
            assert by_id(other_id) in said or by_name("elsewhere") in said, (method, by_name_last, said)
        assert runtime.data_get() == before


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text

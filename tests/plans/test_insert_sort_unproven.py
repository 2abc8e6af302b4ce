"""A collection keyed by names the client chooses, listed sorted by name, where every create the
capture lists afterwards sorts last by name too: the listings fit the order the entities were made
in as well as the order by name (``insert.id-ascending-unproven``). Serving places a create by
name, answers lists while it sits last (both orders agree), and refuses a list showing a create
the name sort puts elsewhere, where the application may list it last. A later listing that shows
a create placed by name apart from last proves the sort. Synthetic captures only."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def pool(name: str, slots: int = 1) -> dict:
    return {"name": name, "slots": slots}


def pools_app(held: list[str], created: list[str]) -> HarBuilder:
    builder = HarBuilder().call("GET", "/pools", response=[pool(n) for n in held])
    for name in held:
        builder = builder.call("GET", f"/pools/{name}", response=pool(name))
    listed = list(held)
    for name in created:
        builder = builder.call("POST", "/pools", body=pool(name), status=201, response=pool(name))
        builder = builder.call("GET", f"/pools/{name}", response=pool(name))
        listed = sorted([*listed, name])
        builder = builder.call("GET", "/pools", response=[pool(n) for n in listed])
    return builder


def create_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "POST")


def request(runtime: EnvironmentRuntime, method: str, path: str, body: dict | None = None):
    headers = (("content-type", "application/json"),) if body is not None else ()
    return runtime.http(HttpRequest(method, path, (), headers, dumps(body) if body is not None else b""))


def test_creates_listed_last_alike_leave_the_name_sort_unproven():
    bundle = build_from(pools_app(["alpha", "bravo"], ["charlie", "delta"]))
    plan = create_plan(bundle)
    assert plan.served, plan.reason
    assert plan.insert.kind == "sorted" and plan.insert.unproven and plan.insert.rule_id == "insert.id-ascending-unproven"
    runtime = EnvironmentRuntime(bundle)
    assert request(runtime, "POST", "/pools", pool("zulu")).status == 201
    listed = request(runtime, "GET", "/pools")
    assert listed.status == 200 and [p["name"] for p in loads(listed.body)] == ["alpha", "bravo", "zulu"]
    assert request(runtime, "POST", "/pools", pool("aardvark")).status == 201
    refused = request(runtime, "GET", "/pools")
    assert refused.status == 409 and b"aardvark" in refused.body, refused.body
    assert request(runtime, "GET", "/pools/aardvark").status == 200


def test_a_create_listed_by_name_apart_from_last_proves_the_sort():
    bundle = build_from(pools_app(["alpha", "delta"], ["charlie"]))
    plan = create_plan(bundle)
    assert plan.served, plan.reason
    assert plan.insert.kind == "sorted" and not plan.insert.unproven and plan.insert.rule_id == "insert.id-ascending"
    runtime = EnvironmentRuntime(bundle)
    assert request(runtime, "POST", "/pools", pool("aardvark")).status == 201
    listed = request(runtime, "GET", "/pools")
    assert listed.status == 200 and [p["name"] for p in loads(listed.body)] == ["aardvark", "alpha", "delta"]

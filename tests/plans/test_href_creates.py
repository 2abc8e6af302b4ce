"""A create of an entity identified by its own address (``EntityType.address``): the application draws
an id (a UUID here) and answers the address around it (``pulp_href: /api/guards/<uuid>/``) beside
other text around the same id (``prn: prn:core.guard:<uuid>``). Served, the create draws an id shaped
as the capture's and rebuilds the address (``field.identity`` with ``address_origin``) and every such
member (``field.template`` around ``{"segment_of": "pulp_href"}``) around it, the gate proving each
recorded create showed exactly that shape; anything else stays refused (a number inside the address,
a member keeping the recorded id as constant text)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

API = "/api/guards/"
SEEDED = ("019b0000-0000-7000-8000-000000000017", "019b0000-0000-7000-8000-000000000018")
MADE = ("01a24baf-ce59-7b57-a161-acb64df88c10", "01a24baf-d001-7c2e-9d0b-0f1e2d3c4b5a")


def guard(uuid: str, name: str, header: str, prn: str | None = None) -> dict:
    return {"pulp_href": f"{API}{uuid}/", "prn": prn or f"prn:core.guard:{uuid}", "name": name,
            "header_name": header, "description": None}


def app(made: tuple[dict, dict]) -> HarBuilder:
    seeded = [guard(SEEDED[0], "token", "X-Token"), guard(SEEDED[1], "other", "X-Other")]
    builder = (HarBuilder()
               .call("GET", API, response={"count": 2, "results": seeded})
               .call("GET", f"{API}{SEEDED[0]}/", response=seeded[0])
               .call("GET", f"{API}{SEEDED[1]}/", response=seeded[1]))
    listed = list(seeded)
    for entity, uuid in zip(made, MADE):
        body = {"name": entity["name"], "header_name": entity["header_name"]}
        listed = [entity, *listed]
        builder = (builder
                   .call("POST", API, body=body, status=201, response=entity)
                   .call("GET", f"{API}{uuid}/", response=entity)
                   .call("GET", API, response={"count": len(listed), "results": listed}))
    return builder


def made_alike() -> tuple[dict, dict]:
    return guard(MADE[0], "beta", "X-Beta"), guard(MADE[1], "gamma", "X-Gamma")


def http(runtime: EnvironmentRuntime, method: str, path: str, body=None):
    headers = (("content-type", "application/json"),) if body is not None else ()
    answer = runtime.http(HttpRequest(method, path, (), headers, dumps(body) if body is not None else b""))
    return answer.status, (loads(answer.body) if answer.body else None)


def test_a_served_create_draws_a_new_id_and_rebuilds_the_address_and_its_siblings_around_it():
    bundle = build_from(app(made_alike()))
    created = plan(bundle, "POST", API)
    rules = {f.field: f for f in created.fields}
    assert rules["pulp_href"].op == "identity" and rules["pulp_href"].params.get("address_origin") == ""
    assert rules["prn"].op == "template" and {"segment_of": "pulp_href"} in rules["prn"].params["parts"]
    assert created.served, (created.reason, created.contradicted_by)
    runtime = EnvironmentRuntime(bundle)
    status, body = http(runtime, "POST", API, {"name": "delta", "header_name": "X-Delta"})
    assert status == 201, body
    href = body["pulp_href"]
    assert href.startswith(API) and href.endswith("/")
    drawn = href[len(API):-1]
    assert drawn not in MADE + SEEDED and len(drawn) == 36
    assert body["prn"] == f"prn:core.guard:{drawn}"
    assert http(runtime, "GET", href) == (200, body)
    listed = http(runtime, "GET", API)[1]["results"]
    assert body in listed
    again = http(runtime, "POST", API, {"name": "epsilon", "header_name": "X-Eps"})[1]
    assert again["pulp_href"] != href


def test_a_recorded_create_whose_sibling_keeps_other_text_is_not_served():
    """The second create's prn names a UUID of its own, not the one in its href: no template
    rebuilds it, so the create is refused rather than answered with a made-up prn."""
    made = (guard(MADE[0], "beta", "X-Beta"),
            guard(MADE[1], "gamma", "X-Gamma", prn="prn:core.guard:01a24baf-0000-7000-8000-00000000beef"))
    created = plan(build_from(app(made)), "POST", API)
    assert not created.served


def test_a_number_inside_the_address_is_not_drawn():
    """Absolute addresses around integer ids: the create is refused (no served sequence around an
    address), where reads of those entities are answered from the state."""
    origin = "http://127.0.0.1:3000"
    def secret(n: int, name: str) -> dict:
        return {"secret_ref": f"{origin}/v1/secrets/{n}", "name": name}
    seeded = [secret(3, "alpha"), secret(7, "beta")]
    made = secret(8, "gamma")
    har = (HarBuilder(origin=origin)
           .call("GET", "/v1/secrets", response={"secrets": seeded})
           .call("GET", "/v1/secrets/3", response=seeded[0])
           .call("GET", "/v1/secrets/7", response=seeded[1])
           .call("POST", "/v1/secrets", body={"name": "gamma"}, status=201, response=made)
           .call("GET", "/v1/secrets/8", response=made)
           .call("GET", "/v1/secrets", response={"secrets": [*seeded, made]}))
    created = plan(build_from(har), "POST", "/v1/secrets")
    assert created.effect == "create"
    assert not created.served and created.reason == "unexplained-change", created.reason

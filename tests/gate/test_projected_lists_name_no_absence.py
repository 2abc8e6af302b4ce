"""A whole list read answered under a projection that leaves the identity out (``?fields=name``)
names no entity as absent: the gate cannot tell which held entity a member without its identity is,
so such a read blames no write for a side effect. Found on captures/pulp: once the repositories'
create was modelled, the projected list ``?fields=name,pulp_labels`` after it showed no pulp_href, the
gate took every held repository for gone and blamed the users' and groups' served writes before it
(side-effect), which were served before and are again."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

API = "/api/things/"


def thing(n: int, name: str) -> dict:
    return {"id": n, "name": name, "color": "red"}


def test_a_projected_list_without_identities_blames_no_write():
    held = [thing(1, "alpha"), thing(2, "beta")]
    made = thing(3, "gamma")
    names = lambda entities: [{"name": e["name"]} for e in entities]  # noqa: E731
    har = (HarBuilder()
           .call("GET", API, response=held)
           .call("GET", API, query="fields=name", response=names(held))
           .call("GET", f"{API}1/", response=held[0])
           .call("GET", f"{API}2/", response=held[1])
           .call("POST", API, body={"name": "gamma", "color": "red"}, status=201, response=made)
           .call("GET", f"{API}3/", response=made)
           .call("GET", API, query="fields=name", response=names([*held, made]))
           .call("GET", API, response=[*held, made]))
    created = plan(build_from(har), "POST", API)
    assert created.effect == "create"
    assert created.reason != "side-effect", (created.reason, created.contradicted_by)
    assert created.served, (created.reason, created.contradicted_by)

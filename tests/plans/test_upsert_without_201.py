"""A PUT that makes the entity its path names when none is held and replaces it otherwise, answering
200 both times (no 201 to say so): the capture shows it making one, since the entity was absent just
before the call (an item read answered 404) and is read after it (``effect.upsert-absent-before``).
Served as an update, a PUT of a new id would answer the item read's 404 where the application
creates; the tool is an upsert, which no plan models, and stays replayed. A PUT whose every call
named a held entity is still an update."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

A = {"name": "alpha", "size": 1}
B = {"name": "beta", "size": 2}


def app(*, makes_one: bool, before: HarBuilder | None = None) -> HarBuilder:
    har = ((before or HarBuilder())
           .call("GET", "/volumes", response=[A])
           .call("GET", "/volumes/alpha", response=A)
           .call("GET", "/volumes/beta", status=404, response={"error": "no such volume"})
           .call("PUT", "/volumes/alpha", body={"size": 5}, response={**A, "size": 5})
           .call("GET", "/volumes/alpha", response={**A, "size": 5}))
    if makes_one:
        har = (har.call("PUT", "/volumes/beta", body={"size": 2}, response=B)
                  .call("GET", "/volumes/beta", response=B))
    return har.call("GET", "/volumes", response=[{**A, "size": 5}] + ([B] if makes_one else []))


def test_a_put_that_made_an_entity_answering_200_is_an_upsert_and_not_served():
    bundle = build_from(app(makes_one=True))
    put = plan(bundle, "PUT", "/volumes/{volume_id}")
    assert not put.served and put.build_reason == "upsert", put.build_reason
    assert any(e.rule_id == "effect.upsert-absent-before" and e.outcome == "match" for e in put.traces)
    runtime = EnvironmentRuntime(bundle)
    assert runtime.call_tool("put_volumes_by_volume_id", {"volume_id": "gamma", "body": {"size": 3}}).is_error
    answer = runtime.http(HttpRequest("PUT", "/volumes/gamma", (("content-type", "application/json"),), (),
                                      b'{"size": 3}'))
    assert answer.status == 405 and b"not served" in answer.body  # never the item read's 404


def test_a_put_of_held_entities_only_is_still_an_update():
    put = plan(build_from(app(makes_one=False)), "PUT", "/volumes/{volume_id}")
    assert put.effect == "update" and put.served, put.build_reason


def never_shown_app() -> HarBuilder:
    """A PUT that made ``beta``, which no read showed absent first (nothing listed the volumes
    before it), answering 200 as its update of ``alpha`` does."""
    return (HarBuilder()
            .call("GET", "/volumes/alpha", response=A)
            .call("GET", "/volumes/zeta", status=404, response={"error": "no such volume"})
            .call("PUT", "/volumes/alpha", body={"size": 5}, response={**A, "size": 5})
            .call("GET", "/volumes/alpha", response={**A, "size": 5})
            .call("PUT", "/volumes/beta", body={"size": 2}, response=B)
            .call("GET", "/volumes/beta", response=B)
            .call("GET", "/volumes", response=[{**A, "size": 5}, B]))


def test_a_put_of_an_entity_never_shown_before_refuses_a_missing_one_rather_than_answer_404():
    bundle = build_from(never_shown_app())
    put = plan(bundle, "PUT", "/volumes/{volume_id}")
    assert any(e.rule_id == "effect.update-of-unheld-put" and e.outcome == "match" for e in put.traces)
    runtime = EnvironmentRuntime(bundle)
    assert put.served, put.build_reason
    answer = runtime.call_tool("put_volumes_by_volume_id", {"volume_id": "gamma", "body": {"size": 3}})
    assert answer.is_error and answer.structured.get("status") != 404, answer.structured
    assert not runtime.call_tool("put_volumes_by_volume_id", {"volume_id": "alpha", "body": {"size": 7}}).is_error
    read = runtime.call_tool("get_volumes_by_volume_id", {"volume_id": "gamma"})
    assert read.structured.get("status") == 404  # reads keep the recorded absence


def beside_an_upsert_answering_200() -> HarBuilder:
    """The volumes PUT made ``beta``, shown absent just before it, answering 200 (an upsert, no 201
    to say so); the pools PUT only ever named a held pool, and a missing pool's read answered 404."""
    pool = {"name": "deep", "tier": 1}
    har = app(makes_one=True, before=HarBuilder()
              .call("GET", "/pools", response=[pool])
              .call("GET", "/pools/deep", response=pool)
              .call("GET", "/pools/shallow", status=404, response={"error": "no such pool"}))
    return (har.call("PUT", "/pools/deep", body={"tier": 2}, response={**pool, "tier": 2})
            .call("GET", "/pools/deep", response={**pool, "tier": 2}))


def test_a_put_beside_an_upsert_answering_200_refuses_a_missing_entity_rather_than_answer_404():
    """The application's PUT makes what its path names elsewhere (effect.update-beside-upsert holds
    whatever the making call answered): a PUT of a pool the state does not hold may make it, which
    the capture never tried, so it is refused, never answered the item read's 404."""
    bundle = build_from(beside_an_upsert_answering_200())
    put = plan(bundle, "PUT", "/pools/{pool_id}")
    match = next(e for e in put.traces if e.rule_id == "effect.update-beside-upsert" and e.outcome == "match")
    assert match.evidence["upserts"] == ["put_volumes_by_volume_id"]
    assert put.effect == "update" and put.served, put.build_reason
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.call_tool("put_pools_by_pool_id", {"pool_id": "mid", "body": {"tier": 3}})
    assert answer.is_error and answer.structured.get("status") != 404, answer.structured
    assert not runtime.call_tool("put_pools_by_pool_id", {"pool_id": "deep", "body": {"tier": 4}}).is_error


def post_upsert_app() -> HarBuilder:
    """A POST at the item path that makes the entity its path names (201) and replaces a held one (200),
    the same path and method both times (Home Assistant's /api/states/{entity_id})."""
    return (HarBuilder()
            .call("GET", "/states", response=[{"entity_id": "sensor.a", "state": "1"}])
            .call("GET", "/states/sensor.a", response={"entity_id": "sensor.a", "state": "1"})
            .call("GET", "/states/sensor.b", status=404, response={"message": "Entity not found."})
            .call("POST", "/states/sensor.b", body={"state": "7"}, status=201,
                  response={"entity_id": "sensor.b", "state": "7"})
            .call("GET", "/states/sensor.b", response={"entity_id": "sensor.b", "state": "7"})
            .call("POST", "/states/sensor.a", body={"state": "2"}, response={"entity_id": "sensor.a", "state": "2"})
            .call("GET", "/states/sensor.a", response={"entity_id": "sensor.a", "state": "2"})
            .call("GET", "/states", response=[{"entity_id": "sensor.a", "state": "2"},
                                              {"entity_id": "sensor.b", "state": "7"}]))


def test_a_post_at_the_item_path_answering_201_and_200_is_an_upsert_and_not_served():
    """Served as an update (effect.update), a POST of a new id would answer the item read's 404 where the
    application creates; served as a create, a POST of a held id would answer a conflict where it replaces."""
    bundle = build_from(post_upsert_app())
    post = plan(bundle, "POST", "/states/{state_id}")
    assert not post.served and post.build_reason == "upsert", (post.effect, post.build_reason)
    assert any(e.rule_id == "effect.upsert-at-item" and e.outcome == "match" for e in post.traces)
    runtime = EnvironmentRuntime(bundle)
    for name in ("sensor.c", "sensor.a"):
        answer = runtime.http(HttpRequest("POST", f"/states/{name}", (("content-type", "application/json"),), (),
                                          b'{"state": "3"}'))
        assert answer.status == 405 and b"not served" in answer.body, (name, answer.status, answer.body)
    read = runtime.http(HttpRequest("GET", "/states/sensor.a", (), (), b""))
    assert read.status == 200 and b'"state":"1"' in read.body, read.body  # the initial state, unchanged

"""A member holding an HTTP entity tag (``"\\"<40 hex>\\""``, Mailman's ``http_etag``) that a write
renews is a version token: an update renews it (``change.unique``) and a create draws a fresh one
(``field.unique``), the quotes kept in place, instead of leaving the update unexplained or giving
every new entity the recorded entity's tag."""

from __future__ import annotations

import re

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.io import write_bundle
from capenv.interpreter.bundle.jsonvalue import loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

TAGS = ['"7106cc88c028ed2bcb0873a98bb1a91528fe149e"', '"176d72792ff81c091d113c17800aa7e2c6d6c5da"',
        '"0c36bfd862cedca7eae54e5b92190dd4cad5a932"', '"ee4402372e300d3e9a520b2db9434c44ac834341"']
TAG = re.compile(r'^"[0-9a-z]{40}"$')  # the recorded tags' length, letters and digits


def domain(host: str, description: str, tag: str) -> dict:
    return {"mail_host": host, "description": description, "http_etag": tag}


def domains_app() -> HarBuilder:
    one, two = domain("one.example", "One", TAGS[0]), domain("two.example", "Two", TAGS[1])
    patched = domain("one.example", "One, renamed", TAGS[2])
    return (HarBuilder()
            .call("GET", "/domains", response=[one, two])
            .call("GET", "/domains/one.example", response=one)
            .call("GET", "/domains/two.example", response=two)
            .call("PATCH", "/domains/one.example", body={"description": "One, renamed"}, response=patched)
            .call("GET", "/domains/one.example", response=patched)
            .call("GET", "/domains", response=[patched, two]))


def test_an_update_renewing_an_entity_tag_is_served_and_renews_it_in_shape(tmp_path):
    bundle = build_from(domains_app())
    plan = next(p for p in bundle.view.writes if p.method == "PATCH")
    assert plan.served, plan.reason
    rule = next(f for f in plan.fields if f.field == "http_etag")
    assert rule.op == "unique" and rule.params["separators"] == {"0": '"', "41": '"'}
    write_bundle(tmp_path / "bundle", bundle)  # the separators' positions are written as JSON keys
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.call_tool(plan.tool, {"domain_id": "two.example", "body": {"description": "Two, renamed"}})
    assert not answer.is_error, answer.structured
    read = runtime.http(HttpRequest("GET", "/domains/two.example", (), (), b""))
    renewed = loads(read.body)["http_etag"]
    assert TAG.match(renewed) and renewed not in TAGS

"""A word whose own read lists the entities its sibling segments name (``/ports/detail`` beside
``/ports/{uuid}`` and a port read by its name ``/ports/eth1``) is a view of their collection, not
one of them: it stays a literal tool of its own (``segment.sibling-listing``) however it is spelled
beside a name-like identity, so the item path is the type's item template and its writes are item
writes. A word listing none of its siblings beside names still joins them (``segment.identity-sibling``)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

A = {"uuid": "f068d39e-4587-5160-b473-687e81909399", "name": "eth0", "address": "52:54:00:00:01:01"}
B = {"uuid": "00c2a10b-7a1e-50ee-83eb-2b434da0f93d", "name": "eth1", "address": "52:54:00:00:02:01"}


def capture(detail_lists: bool) -> HarBuilder:
    detail = {"ports": [A, B]} if detail_lists else {"ports": []}
    return (HarBuilder().call("GET", "/v1/ports", response={"ports": [A, B]})
            .call("GET", "/v1/ports/detail", response=detail)
            .call("GET", f"/v1/ports/{A['uuid']}", response=A)
            .call("GET", f"/v1/ports/{B['uuid']}", response=B)
            .call("GET", "/v1/ports/eth1", response=B)
            .call("DELETE", f"/v1/ports/{A['uuid']}", status=204, response=None)
            .call("GET", f"/v1/ports/{A['uuid']}", status=404, response={"error": "not found"})
            .call("GET", "/v1/ports", response={"ports": [B]}))


def test_a_word_listing_its_siblings_stays_a_literal_tool():
    bundle = build_from(capture(detail_lists=True))
    templates = {(t.method, t.template) for t in bundle.manifest.tools}
    assert ("GET", "/v1/ports/detail") in templates and ("GET", "/v1/ports/{port_id}") in templates
    why = {e.subject: e for e in bundle.manifest.traces if e.rule_id == "segment.sibling-listing"}
    assert why["/v1/ports/detail"].outcome == "match"
    ports = next(t for t in bundle.view.types if t.collection_template == "/v1/ports")
    assert ports.item_template == "/v1/ports/{port_id}"
    assert plan(bundle, "DELETE", "/v1/ports/{port_id}").effect == "delete"


def test_a_word_listing_none_of_its_siblings_joins_the_names():
    bundle = build_from(capture(detail_lists=False))
    templates = {(t.method, t.template) for t in bundle.manifest.tools}
    assert ("GET", "/v1/ports/detail") not in templates

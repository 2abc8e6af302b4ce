"""A path spelling the application does not route, and a format suffix on a collection read only.

Synthetic wiki-like captures: pages addressed by a client-chosen title (no ``id`` member), a list
at ``/wiki/pages.json`` beside item reads at ``/wiki/pages/{title}``, and an item spelled with a
trailing slash that the application answers 404 while the plain spelling answers 200.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.pipeline import build_bundle
from capenv.interpreter.rules_engine import load_rules

ALPHA = {"title": "Alpha Page", "body": "first", "revision": 0}
BETA = {"title": "Beta/Notes", "body": "second", "revision": 0}


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def _wiki(slashed_status: int = 404) -> HarBuilder:
    builder = HarBuilder()
    builder.call("GET", "/wiki/pages.json", response=[ALPHA, BETA])
    builder.call("GET", "/wiki/pages/Alpha%20Page", response=ALPHA)
    builder.call("GET", "/wiki/pages/Beta%2FNotes", response=BETA)
    builder.call("GET", "/wiki/pages/Gamma", status=404, response="")
    builder.call("GET", "/wiki/pages/Alpha%20Page/", status=slashed_status,
                 response="" if slashed_status == 404 else ALPHA)
    builder.call("GET", "/wiki/pages.json", response=[ALPHA, BETA])
    return builder


def _views(tmp_path: Path, builder: HarBuilder) -> dict:
    bundle = build_bundle(builder.write(tmp_path / "capture.har"))
    return {v.tool: v for v in bundle.view.views}


def test_a_trailing_slash_answered_only_with_a_failure_is_not_routed(ruleset):
    manifest = build_manifest(parse_har_bytes(_wiki().bytes(), source="t.har"), ruleset)
    found = manifest.tool_for("GET", "/wiki/pages/Alpha%20Page")
    assert found is not None and not found[0].either_slash
    assert manifest.tool_for("GET", "/wiki/pages/Alpha%20Page/") is None


def test_a_trailing_slash_the_application_answered_stays_routed(ruleset):
    manifest = build_manifest(parse_har_bytes(_wiki(slashed_status=200).bytes(), source="t.har"), ruleset)
    item = manifest.tool_for("GET", "/wiki/pages/Alpha%20Page")[0]
    assert item.either_slash and manifest.tool_for("GET", "/wiki/pages/Alpha%20Page/")[0] is item


def test_the_unrouted_404_leaves_the_item_view_on_the_state(tmp_path):
    views = _views(tmp_path, _wiki())
    item = next(v for v in views.values() if v.kind == "item")
    assert item.state_backed, item.reason


def test_a_json_suffix_on_the_collection_read_beside_its_items_is_spelling(ruleset, tmp_path):
    manifest = build_manifest(parse_har_bytes(_wiki().bytes(), source="t.har"), ruleset)
    assert manifest.format_suffix == ".json"
    listing = manifest.tool_for("GET", "/wiki/pages")
    assert listing is not None and listing[0].format_suffix == ".json"
    # the list answers only spelled as recorded: the bare collection path routes nowhere
    assert manifest.route("GET", "/wiki/pages.json")[0] is listing[0]
    assert manifest.route("GET", "/wiki/pages") is None
    views = _views(tmp_path, _wiki())
    lists = [v for v in views.values() if v.kind == "list"]
    assert lists and lists[0].state_backed, lists[0].reason if lists else views


def test_a_json_file_with_no_item_reads_below_it_keeps_its_name(ruleset):
    builder = (HarBuilder().call("GET", "/files/report.json", response={"rows": 3})
               .call("GET", "/files/other.json", response={"rows": 4})
               .call("GET", "/files", response=[{"name": "a"}]))
    manifest = build_manifest(parse_har_bytes(builder.bytes(), source="t.har"), ruleset)
    assert not manifest.format_suffix

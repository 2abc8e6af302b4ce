"""The catalog: one tool per read tool, schemas, descriptions that say what a tool reads, and
the discovery budget (sampled down and reported, never cut mid-word)."""

from __future__ import annotations

import re

import pytest

from capenv.serving.catalog.budget import fit_budget
from capenv.serving.catalog.descriptions import Draft, Sample, cut_at_word
from capenv.serving.runtime import EnvironmentRuntime


def with_budgets(bundle, **budgets):
    view = bundle.view.model_copy(update={"budgets": bundle.view.budgets.model_copy(update=budgets)})
    return bundle.model_copy(update={"view": view})


@pytest.fixture(scope="module")
def runtime(json_server) -> EnvironmentRuntime:
    return EnvironmentRuntime(json_server)


def test_one_tool_per_read_tool(runtime, json_server) -> None:
    reads = [t.name for t in json_server.manifest.tools if t.method == "GET"]
    writes = [p.tool for p in json_server.view.writes if p.served]
    assert [spec.name for spec in runtime.tools()] == reads + writes


def test_input_schema_of_an_item_and_a_list(runtime) -> None:
    specs = {spec.name: spec for spec in runtime.tools()}
    item = specs["get_posts_by_post_id"].input_schema
    assert item["required"] == ["post_id"]
    assert item["properties"]["post_id"]["type"] == ["string", "integer"]  # recorded ids are integers' digits
    assert item["additionalProperties"] is False
    assert runtime.call_tool("get_posts_by_post_id", {"post_id": 1}).structured == \
        runtime.call_tool("get_posts_by_post_id", {"post_id": "1"}).structured
    listing = specs["get_posts"].input_schema
    assert "required" not in listing
    query = listing["properties"]["query"]["properties"]
    assert set(query) == {"_sort", "_order", "_page", "_limit", "q", "author", "views_gte", "_start", "_end"}
    assert all(q["type"] == "string" and "default" not in q for q in query.values())  # no call always sent one


def test_descriptions_say_what_each_tool_reads(runtime) -> None:
    described = {spec.name: spec.description for spec in runtime.tools()}
    item = described["get_posts_by_post_id"]
    assert 'Reads one "posts" entity by its "id" from the served state' in item
    assert "GET /posts/{post_id}" in item and "recorded 404" in item
    assert '"post_id"' in item and '"title"' in item and '"views"' in item
    assert described["get_posts"].startswith('Lists "posts" entities from the served state')
    assert '"_sort" (recorded "views", "title")' in described["get_posts"]
    assert described["get_profile"].startswith("Reads a document from the served state")
    assert '"theme"' in described["get_profile"]
    replayed = described["get_posts_comments"]
    assert "by replaying the capture" in replayed and "exact_match false" in replayed
    assert "no read in the initial window" in replayed


def test_report_without_hits_under_the_default_budget(runtime) -> None:
    report = runtime.catalog_report()
    served_writes = [p.tool for p in runtime.bundle.view.writes if p.served]
    assert report["writes"] == served_writes and len(served_writes) > 0
    assert report["tools"] == 9 + len(served_writes) and len(report["reads"]) == 9
    assert sum(1 for r in report["reads"] if r["source"] == "state") == 7 and report["hits"] == []
    assert report["characters"] == sum(len(spec.description) for spec in runtime.tools())
    assert report["characters"] <= report["budgets"]["discovery_characters"]


def test_a_tight_discovery_budget_samples_descriptions_and_reports_it(json_server) -> None:
    full = EnvironmentRuntime(json_server)
    total = full.catalog_report()["characters"]
    tight = EnvironmentRuntime(with_budgets(json_server, discovery_characters=total // 2))
    report = tight.catalog_report()
    assert report["characters"] <= total // 2
    assert report["hits"], report
    assert {hit["budget"] for hit in report["hits"]} == {"discovery_characters"}
    full_texts = {spec.name: spec.description for spec in full.tools()}
    for spec in tight.tools():
        assert len(spec.description) <= full.catalog_report()["budgets"]["tool_description_characters"]
        hit = next((h for h in report["hits"] if h["tool"] == spec.name), None)
        if hit is None:
            assert spec.description == full_texts[spec.name]
        else:
            assert hit["used"] == len(spec.description) < hit["wanted"] == len(full_texts[spec.name])
            assert "more" in spec.description or hit["effect"] != "sampled"  # says what was left out
    sampled = next(s.description for s in tight.tools() if s.name == "get_posts")
    assert sampled.startswith('Lists "posts" entities from the served state')  # the lead survives


def test_a_tight_tool_share_is_reported_as_such(json_server) -> None:
    tight = EnvironmentRuntime(with_budgets(json_server, tool_description_characters=200))
    report = tight.catalog_report()
    assert all(len(spec.description) <= 200 for spec in tight.tools())
    assert {hit["budget"] for hit in report["hits"]} == {"tool_description_characters"}


def test_descriptions_are_never_cut_mid_word(json_server) -> None:
    full = {s.name: s.description for s in EnvironmentRuntime(json_server).tools()}
    tiny = EnvironmentRuntime(with_budgets(json_server, tool_description_characters=60))
    for spec in tiny.tools():
        text = spec.description
        assert len(text) <= 60
        if text.endswith("…"):
            kept = text[:-1]
            words = re.findall(r"\S+", kept)
            assert full[spec.name].startswith(kept.rstrip(" ,;:")), (text, full[spec.name])
            boundary = full[spec.name][len(kept.rstrip(" ,;:"))]
            assert boundary in " ,;:" and words
    assert any(h["effect"] == "cut at a word boundary" for h in tiny.catalog_report()["hits"])


def test_sampling_drops_whole_items_and_counts_them() -> None:
    draft = Draft("t", ("Lead text.", Sample("Fields: ", ('"alpha"', '"beta"', '"gamma"', '"delta"'), ".", noun="fields")))
    assert draft.render() == 'Lead text. Fields: "alpha", "beta", "gamma", "delta".'
    assert draft.render(2) == 'Lead text. Fields: "alpha", "beta" and 2 more.'
    assert draft.render(0) == "Lead text. Fields: 4 fields."
    texts, hits = fit_budget([draft], per_tool=1000, total=40)
    assert len(texts[0]) <= 40 and hits[0]["effect"].startswith("sampled")
    assert cut_at_word("alpha beta gamma", 12) == "alpha beta…"
    assert cut_at_word("alphabetagamma", 5) == "…"

"""Template inference on small synthetic captures (DESIGN.md §4): which segments become
parameters, how they are named, how tools are named."""

from __future__ import annotations

import re

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.rules_engine import load_rules

U1 = "6f1c3a52-1d1a-4a57-9d7b-000000000001"
U2 = "6f1c3a52-1d1a-4a57-9d7b-000000000002"
TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def manifest_of(har: HarBuilder, ruleset):
    return build_manifest(parse_har_bytes(har.bytes(), source="t.har"), ruleset)


def templates(manifest) -> dict[tuple[str, str], tuple[int, ...]]:
    return {(t.method, t.template): t.record_ordinals for t in manifest.tools}


def test_varying_integer_becomes_a_parameter_named_after_the_collection(ruleset):
    har = (HarBuilder().call("GET", "/posts", response=[])
           .call("GET", "/posts/1", response={"id": 1})
           .call("GET", "/posts/2", response={"id": 2})
           .call("DELETE", "/posts/3", response={}))
    manifest = manifest_of(har, ruleset)
    assert templates(manifest) == {("GET", "/posts"): (1,), ("GET", "/posts/{post_id}"): (2, 3),
                                   ("DELETE", "/posts/{post_id}"): (4,)}
    tool = manifest.tool("get_posts_by_post_id")
    assert tool.params == ("post_id",) and not tool.changes_state
    assert manifest.tool("delete_posts_by_post_id").changes_state
    assert manifest.tool_for("GET", "/posts/99") == (tool, {"post_id": "99"})


def test_a_segment_seen_with_one_value_stays_literal(ruleset):
    har = HarBuilder().call("GET", "/posts", response=[]).call("GET", "/posts/1", response={"id": 1})
    assert set(templates(manifest_of(har, ruleset))) == {("GET", "/posts"), ("GET", "/posts/1")}


def test_the_same_value_twice_is_still_one_value(ruleset):
    har = (HarBuilder().call("GET", "/posts/7", response={}).call("PUT", "/posts/7", body={}, response={}))
    assert set(templates(manifest_of(har, ruleset))) == {("GET", "/posts/7"), ("PUT", "/posts/7")}


def test_values_merge_across_methods(ruleset):
    """One GET and one PATCH on two ids: the segment varies across the shape, not per method."""
    har = HarBuilder().call("GET", "/posts/1", response={}).call("PATCH", "/posts/2", body={}, response={})
    assert set(templates(manifest_of(har, ruleset))) == {("GET", "/posts/{post_id}"),
                                                         ("PATCH", "/posts/{post_id}")}


def test_words_beside_ids_stay_literal(ruleset):
    har = (HarBuilder().call("GET", "/api/flows/" + U1, response={"id": U1})
           .call("GET", "/api/flows/" + U2, response={"id": U2})
           .call("POST", "/api/flows/filter", body={}, response=[])
           .call("POST", "/api/flows/count", body={}, response=3)
           .call("GET", "/api/health", response={}))
    assert templates(manifest_of(har, ruleset)) == {
        ("GET", "/api/flows/{flow_id}"): (1, 2), ("POST", "/api/flows/filter"): (3,),
        ("POST", "/api/flows/count"): (4,), ("GET", "/api/health"): (5,)}


def test_word_like_values_merge_only_when_returned_as_identities(ruleset):
    def har(member: str) -> HarBuilder:
        return (HarBuilder().call("GET", "/tags", response=[{member: "alpha"}, {member: "beta"}])
                .call("GET", "/tags/alpha", response={}).call("GET", "/tags/beta", response={}))

    returned = manifest_of(har("name"), ruleset)
    assert templates(returned) == {("GET", "/tags"): (1,), ("GET", "/tags/{tag_id}"): (2, 3)}
    not_returned = manifest_of(har("label"), ruleset)  # `label` is no identity member
    assert set(templates(not_returned)) == {("GET", "/tags"), ("GET", "/tags/alpha"), ("GET", "/tags/beta")}


def test_a_returned_identity_percent_encoded_in_the_path_is_the_same_value(ruleset):
    """Matrix clients encode ``@ann:north.test`` as ``%40ann%3Anorth.test`` in a path segment: the
    encoded spelling names the identity its decoded one does, so both spellings make one parameter."""
    har = (HarBuilder().call("GET", "/users", response=[{"name": "@ann:north.test"}, {"name": "@bo:north.test"}])
           .call("GET", "/users/%40ann%3Anorth.test/rooms", response={"rooms": []})
           .call("GET", "/users/@bo:north.test/rooms", response={"rooms": []}))
    assert templates(manifest_of(har, ruleset)) == {("GET", "/users"): (1,), ("GET", "/users/{user_id}/rooms"): (2, 3)}


def test_identities_count_only_from_successful_answers(ruleset):
    har = (HarBuilder().call("GET", "/tags", status=500, response=[{"name": "alpha"}, {"name": "beta"}])
           .call("GET", "/tags/alpha", response={}).call("GET", "/tags/beta", response={}))
    assert ("GET", "/tags/alpha") in templates(manifest_of(har, ruleset))


def test_a_missing_name_spelled_like_returned_ones_joins_them_but_an_action_word_does_not(ruleset):
    har = (HarBuilder().call("GET", "/pools", response=[{"name": "pool-a1"}, {"name": "pool-b2"}])
           .call("GET", "/pools/pool-a1", response={})
           .call("GET", "/pools/no-such-pool", status=404, response={"detail": "not found"})
           .call("POST", "/pools/bulk_delete", body={}, response={})
           .call("GET", "/pools/pool-b2", response={}))
    assert templates(manifest_of(har, ruleset)) == {
        ("GET", "/pools"): (1,), ("GET", "/pools/{pool_id}"): (2, 3, 5), ("POST", "/pools/bulk_delete"): (4,)}


def test_nested_parameters_each_named_after_their_segment(ruleset):
    har = (HarBuilder().call("GET", "/posts/1/comments", response=[])
           .call("GET", "/posts/2/comments", response=[])
           .call("GET", "/posts/1/comments/10", response={})
           .call("GET", "/posts/2/comments/11", response={}))
    manifest = manifest_of(har, ruleset)
    assert set(templates(manifest)) == {("GET", "/posts/{post_id}/comments"),
                                        ("GET", "/posts/{post_id}/comments/{comment_id}")}
    assert manifest.tool_for("GET", "/posts/5/comments/6")[1] == {"post_id": "5", "comment_id": "6"}


@pytest.mark.parametrize(("collection", "param"), [
    ("categories", "category_id"), ("classes", "class_id"), ("status", "status_id"), ("profile", "profile_id"),
    ("name", "name"), ("records", "record_id"),
])
def test_parameter_naming_table(ruleset, collection, param):
    har = HarBuilder().call("GET", f"/{collection}/12", response={}).call("GET", f"/{collection}/13", response={})
    (tool,) = manifest_of(har, ruleset).tools
    assert tool.template == f"/{collection}/{{{param}}}"


def test_first_segment_parameter_is_id(ruleset):
    har = HarBuilder().call("GET", "/1", response={}).call("GET", "/2", response={}).call("GET", "/", response={})
    manifest = manifest_of(har, ruleset)
    assert set(templates(manifest)) == {("GET", "/{id}"), ("GET", "/")}
    assert manifest.tool_for("GET", "/")[0].name == "get_root"


def test_two_parameters_never_share_a_name(ruleset):
    har = (HarBuilder().call("GET", "/items/1/items/3", response={}).call("GET", "/items/2/items/4", response={}))
    (tool,) = manifest_of(har, ruleset).tools
    assert len(set(tool.params)) == 2 and tool.template == "/items/{item_id}/items/{item_id_2}"


def test_a_string_that_is_not_identifier_shaped_stays_literal_even_when_it_varies(ruleset):
    har = HarBuilder().call("GET", "/docs/intro", response={}).call("GET", "/docs/setup", response={})
    assert set(templates(manifest_of(har, ruleset))) == {("GET", "/docs/intro"), ("GET", "/docs/setup")}


def test_a_trailing_slash_is_spelling_and_both_spellings_recorded_make_one_tool(ruleset):
    har = (HarBuilder().call("GET", "/api/flows/", response=[]).call("GET", "/api/flows", response=[])
           .call("GET", "/api/flows/" + U1, response={}).call("GET", "/api/flows/" + U2, response={}))
    manifest = manifest_of(har, ruleset)
    assert set(templates(manifest)) == {("GET", "/api/flows/"), ("GET", "/api/flows/{flow_id}")}
    listing = manifest.tool_for("GET", "/api/flows")[0]
    assert listing.either_slash and manifest.tool_for("GET", "/api/flows/")[0] is listing
    item = manifest.tool_for("GET", "/api/flows/" + U1)[0]
    assert not item.either_slash and manifest.tool_for("GET", f"/api/flows/{U1}/") is None


# --- tool names ----------------------------------------------------------------------------

def test_tool_names_leave_out_the_shared_prefix_and_collect_query_names(ruleset):
    har = (HarBuilder().call("GET", "/api/v1/posts", query={"page": "1", "sort": "x"}, response=[])
           .call("GET", "/api/v1/posts/1", query=[("page", "2"), ("limit", "3")], response={})
           .call("GET", "/api/v1/posts/2", response={})
           .call("GET", "/api/v1/users", query={"page": "9"}, response=[]))
    manifest = manifest_of(har, ruleset)
    assert [t.name for t in manifest.tools] == ["get_posts", "get_posts_by_post_id", "get_users"]
    assert manifest.tool("get_posts").query_names == ("page", "sort")
    assert manifest.tool("get_posts_by_post_id").query_names == ("page", "limit")


def test_colliding_names_are_made_unique(ruleset):
    har = (HarBuilder().call("GET", "/a-b", response={}).call("GET", "/a_b", response={})
           .call("GET", "/a.b", response={}))
    names = [t.name for t in manifest_of(har, ruleset).tools]
    assert len(names) == 3 == len(set(names))
    assert all(TOOL_NAME.fullmatch(n) for n in names)


def test_long_names_are_cut_to_64_and_stay_unique(ruleset):
    stem = "/" + "/".join(f"averyveryverylongsegmentname{i}" for i in range(4))
    har = (HarBuilder().call("GET", stem + "/tail-one", response={}).call("GET", stem + "/tail-two", response={})
           .call("GET", "/short", response={}))
    names = [t.name for t in manifest_of(har, ruleset).tools]
    assert len(set(names)) == 3
    assert all(TOOL_NAME.fullmatch(n) for n in names), names


def test_only_primary_origin_records_make_tools(ruleset):
    har = (HarBuilder().call("GET", "/posts/1", response={}).call("GET", "/posts/2", response={})
           .call("GET", "/posts/3", response={})
           .call("GET", "/cdn/x.js", origin="http://cdn.example", response="x", response_type="text/javascript"))
    evidence = parse_har_bytes(har.bytes(), source="t.har")
    manifest = build_manifest(evidence, ruleset)
    assert [t.template for t in manifest.tools] == ["/posts/{post_id}"]
    assert manifest.primary_origin == "http://127.0.0.1:3000" and manifest.evidence_id == evidence.evidence_id
    assert manifest.rules_revision == ruleset.revision


def test_traces_name_the_segment_rule_and_its_location(ruleset):
    har = HarBuilder().call("GET", "/posts/1", response={}).call("GET", "/posts/2", response={})
    traces = manifest_of(har, ruleset).traces
    merged = [e for e in traces if e.table == "manifest-segments" and e.outcome == "match"]
    assert merged and merged[0].rule_id == "segment.integer"
    assert merged[0].location == ruleset.rule("segment.integer").location
    naming = [e for e in traces if e.table == "manifest-param-naming" and e.outcome == "match"]
    assert naming and naming[-1].rule_id == "param-name.plural-s"

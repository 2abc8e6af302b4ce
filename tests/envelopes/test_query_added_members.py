"""A member only reads sent with a query show (PocketBase's ``?expand=post`` puts the related
post under ``expand``) is the query's, not the entity's (``view-query-members``): the state leaves
it out, the item view stays answered from the state for reads without the query, a read with it
is replayed, and a served write answers the entity as the application does, without the member
(regression: a served PATCH answered with the ``expand`` member an earlier expanded read had
brought into the state, which the application never sends back)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

POST = {"id": "p1", "title": "Cards"}
C1 = {"id": "c1", "post": "p1", "body": "hi", "score": 5}
C2 = {"id": "c2", "post": "p1", "body": "yo", "score": 3}


def capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/comments", response={"items": [C1, C2]})
            .call("GET", "/comments/c1", response=C1)
            .call("GET", "/comments/c2", response=C2)
            .call("GET", "/comments/c1", query="expand=post", response={**C1, "expand": {"post": POST}})
            .call("GET", "/comments", query="expand=post",
                  response={"items": [{**C, "expand": {"post": POST}} for C in (C1, C2)]})
            .call("PATCH", "/comments/c2", body={"score": 4}, response={**C2, "score": 4})
            .call("GET", "/comments/c2", response={**C2, "score": 4})
            .call("GET", "/comments", response={"items": [C1, {**C2, "score": 4}]}))


def test_the_state_leaves_the_query_member_out():
    bundle = build_from(capture())
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities}
    assert held["c1"] == C1 and held["c2"] == C2
    item = bundle.view.view("get_comments_by_comment_id")
    assert item.state_backed, item.reason
    assert {o for o in item.other_shape_records}  # the expanded read: another shape, replayed
    why = [e for e in bundle.view.traces if e.rule_id == "query-member.added-by-query" and e.outcome == "match"]
    assert why and "'expand'" in why[0].subject


def test_a_served_update_answers_without_the_query_member():
    bundle = build_from(capture())
    patch = next(p for p in bundle.view.writes if p.tool == "patch_comments_by_comment_id")
    assert patch.served, patch.reason
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.call_tool("patch_comments_by_comment_id", {"comment_id": "c1", "body": {"score": 1}})
    assert answer.structured["body"] == {**C1, "score": 1}
    read = runtime.call_tool("get_comments_by_comment_id", {"comment_id": "c1"})
    assert read.structured["body"] == {**C1, "score": 1}
    expanded = runtime.call_tool("get_comments_by_comment_id", {"comment_id": "c1", "query": {"expand": "post"}})
    # the expanded recording shows the comment before the write: refused, never replayed
    assert expanded.is_error and "not modelled over the current state" in expanded.structured["message"]


def test_a_query_that_only_pages_adds_no_member():
    """A list read only with ``?limit=`` (every list read of the capture pages) shows members the
    item reads do not: they stay the entity's, and the list stays answered from the state."""
    listed = [{**C1, "tags": ["a"]}, {**C2, "tags": []}]
    har = (HarBuilder().call("GET", "/comments", query="limit=10", response={"items": listed})
           .call("GET", "/comments/c1", response=C1)
           .call("GET", "/comments/c2", response=C2))
    bundle = build_from(har)
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities}
    assert held["c1"]["tags"] == ["a"]
    assert not bundle.view.view("get_comments").other_shape_records


# A query that adds a member inside an object the entity's own reads show (a CMS's edit context:
# ``raw`` beside ``rendered``); regression: a plain item read answered ``title.raw`` an earlier
# ``?context=edit`` read had merged into the state, which the application shows only in that context.
ARTICLE = {"id": 7, "title": {"rendered": "Hello"}, "body": {"rendered": "<p>Hi</p>", "protected": False}}
EDITED = {"id": 7, "title": {"rendered": "Hello", "raw": "Hello"},
          "body": {"rendered": "<p>Hi</p>", "protected": False, "raw": "Hi"}, "password": ""}
OTHER = {"id": 8, "title": {"rendered": "Bye"}, "body": {"rendered": "<p>Ciao</p>", "protected": False}}


def edit_context_capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/articles", response=[ARTICLE, OTHER])
            .call("GET", "/articles/7", response=ARTICLE)
            .call("GET", "/articles/8", response=OTHER)
            .call("GET", "/articles/7", query="context=edit", response=EDITED)
            .call("GET", "/articles", query="context=edit", response=[EDITED]))


def test_a_member_a_query_nests_in_the_entitys_object_is_left_out_of_it():
    bundle = build_from(edit_context_capture())
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities}
    assert held[7] == ARTICLE
    runtime = EnvironmentRuntime(bundle)
    read = runtime.call_tool("get_articles_by_article_id", {"article_id": "7"})
    assert read.structured["body"] == ARTICLE, read.structured
    why = {e.subject for e in bundle.view.traces if e.rule_id == "query-member.added-by-query" and e.outcome == "match"}
    assert {"articles member 'title.raw'", "articles member 'body.raw'", "articles member 'password'"} <= why


def test_a_nested_member_plain_reads_show_stays_the_entitys():
    """A member inside the object that a read without the query shows too is the entity's own."""
    shown = {"id": 7, "title": {"rendered": "Hello", "raw": "Hello"}}
    har = (HarBuilder().call("GET", "/articles", response=[shown, OTHER])
           .call("GET", "/articles/7", query="context=edit", response=shown)
           .call("GET", "/articles/8", response=OTHER))
    bundle = build_from(har)
    held = {e.id: e.value for c in bundle.view.state.collections for e in c.entities}
    assert held[7]["title"] == {"rendered": "Hello", "raw": "Hello"}

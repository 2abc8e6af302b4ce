"""The row store of ``test_row_pages`` with every successful JSON answer wrapped as
``{"data": …}`` (an application answering each call in one envelope around its own). Two checks
looked at the answer's top only: the members one answer of a path carries its own value of
(``views._per_response``: a row page's ``query_ms``, now ``/data/query_ms``) and where a create's
answer shows the entity its body's one member wraps (``PlanContext.envelope_judge``: ``{"row": …}``
answered ``{"data": {"rows": [row]}}``). Before, every row page was refused ("differs at
/data/query_ms") and no insert was served (the body's ``row`` taken for a field)."""

from __future__ import annotations

import json

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from test_row_pages import row_store

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def wrapped(har: HarBuilder) -> HarBuilder:
    """Every successful JSON answer as ``{"data": answer}``."""
    for entry in har.entries:
        content = entry["response"]["content"]
        if 200 <= entry["response"]["status"] < 300 and content.get("text"):
            content["text"] = json.dumps({"data": json.loads(content["text"])})
            content["size"] = len(content["text"])
    return har


def test_the_row_page_is_read_through_the_envelope_beside_its_timing():
    bundle = build_from(wrapped(row_store()))
    item = bundle.view.view("get_posts_by_post_id")
    assert item.kind == "item" and item.locator.within == ("data",) and item.locator.member == "rows"
    assert item.state_backed, item.reason
    assert "/data/query_ms" in item.per_response_members
    assert [(m.member, m.form) for m in item.item_members] == [("primary_key_values", "singleton")]


def test_inserts_wrapped_in_one_member_are_served_when_answered_inside_an_envelope():
    bundle = build_from(wrapped(row_store()))
    insert = plan(bundle, "POST", "/db/posts/-/insert")
    assert (insert.effect, insert.body_envelope, insert.served) == ("create", "row", True), insert.build_reason
    runtime = EnvironmentRuntime(bundle)
    made = runtime.read("post_posts_insert", {"body": {"row": {"title": "new"}}})["body"]
    new_id = made["data"]["rows"][0]["id"]
    answer = runtime.http(HttpRequest("GET", f"/db/posts/{new_id}.json", (), (), b""))
    body = json.loads(answer.body)["data"]
    assert body["rows"][0]["title"] == "new" and body["primary_key_values"] == [str(new_id)]


def test_an_envelope_member_that_stays_the_same_is_still_compared():
    """Only a member two answers of one path showed otherwise is left out of comparisons: the
    row page's ``table`` (the same in every answer) is not."""
    item = build_from(wrapped(row_store())).view.view("get_posts_by_post_id")
    assert "/data/table" not in item.per_response_members and "table" not in item.per_response_members

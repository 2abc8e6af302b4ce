"""The numbers of the next and previous page beside a list (``list-member.next-page-number``,
``previous-page-number``: privacyIDEA's ``{"count", "next", "prev", "tokens"}`` with ``page`` and
``pagesize``): the page sent (1 where none was) plus one while the page size times the page is short
of the count, the page less one past the first; rendered from the state's count after a served
create (before, every page no recording asked was refused: "a value the state cannot compute")."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

TOKENS = [{"id": n, "serial": f"TOK-{n}", "active": True} for n in range(1, 5)]
NEW = {"id": 5, "serial": "TOK-5", "active": True}


def page(listed: list, count: int, next_page: int | None, prev: int | None) -> dict:
    return {"count": count, "next": next_page, "prev": prev, "tokens": listed}


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/tokens", response=page(TOKENS, 4, None, None))
            .call("GET", "/tokens/1", response=TOKENS[0])
            .call("GET", "/tokens/2", response=TOKENS[1])
            .call("GET", "/tokens", query="pagesize=2", response=page(TOKENS[:2], 4, 2, None))
            .call("GET", "/tokens", query="pagesize=2&page=2", response=page(TOKENS[2:], 4, None, 1))
            .call("GET", "/tokens", query="pagesize=3&page=2", response=page(TOKENS[3:], 4, None, 1))
            .call("POST", "/tokens", body={"serial": "TOK-5", "active": True}, status=201, response=NEW)
            .call("GET", "/tokens/5", response=NEW)
            .call("GET", "/tokens", response=page(TOKENS + [NEW], 5, None, None)))


@pytest.fixture(scope="module")
def bundle():
    return build_from(capture())


def test_the_page_numbers_are_learned(bundle):
    roles = {m.pointer: (m.role, m.field) for m in bundle.view.view("get_tokens").envelope_members}
    assert roles["/next"] == ("next-number", "page") and roles["/prev"] == ("previous-number", "page")
    assert plan(bundle, "POST", "/tokens").served


@pytest.mark.parametrize("query,expected", [
    ({"pagesize": "2", "page": "2"}, (5, 3, 1)),
    ({"pagesize": "1"}, (5, 2, None)),
    ({"pagesize": "1", "page": "5"}, (5, None, 4)),
    ({"pagesize": "4", "page": "2"}, (5, None, 1)),
])
def test_the_numbers_follow_a_served_create(bundle, query, expected):
    runtime = EnvironmentRuntime(bundle)
    runtime.read("post_tokens", {"body": {"serial": "TOK-6", "active": True}})
    body = runtime.read("get_tokens", {"query": query})["body"]
    assert (body["count"], body["next"], body["prev"]) == expected, body


def test_a_page_past_the_end_is_refused(bundle):
    answer = EnvironmentRuntime(bundle).call_tool("get_tokens", {"query": {"pagesize": "2", "page": "7"}})
    assert answer.is_error and "past the 4 entities" in answer.structured["message"], answer.structured

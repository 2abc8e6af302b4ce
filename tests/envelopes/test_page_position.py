"""A list's page position beside it, computed from the limit and offset a call sends (NocoDB's
``pageInfo: {totalRows, page, pageSize, isFirstPage, isLastPage}``; ``list-member.page-number``,
``first-page``, ``last-page``): a page no recording asked is answered over the state with its page
number and flags (a final page past the first only where a recording showed one: otherwise the flag
may mark a whole list); an offset that is no multiple of the limit (NocoDB then answers ``offset`` in place
of ``page``) or lies past the end (a last page or none: the capture shows neither) is refused. And an
echo of a query parameter some recording that sent it did not carry (NocoDB's ``offset``, shown only
beside an offset no multiple of the limit) is not added to an answer whose base lacks it."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ROWS = [{"Id": n, "Title": t} for n, t in enumerate(("Dune", "Emma", "Ulysses", "Beloved", "Walden", "Middlemarch",
                                                     "Persuasion", "Hamlet"), start=1)]


def page(items: list, limit: int = 25, offset: int = 0, total: int = 8) -> dict:
    info = {"totalRows": total, "page": offset // limit + 1, "pageSize": limit, "isFirstPage": offset == 0,
            "isLastPage": offset + limit >= total}
    if offset % limit:
        del info["page"]
        info["offset"] = offset
    return {"list": items, "pageInfo": info}


def capture(*extra: tuple[int, int]) -> HarBuilder:
    builder = HarBuilder().call("GET", "/records", response=page(ROWS)).call("GET", "/records/1", response=ROWS[0])
    for limit, offset in ((2, 0), (2, 2), (2, 4), (3, 3), (2, 1)) + extra:
        query = [("limit", str(limit))] + ([("offset", str(offset))] if offset else [])
        builder = builder.call("GET", "/records", query=query, response=page(ROWS[offset:offset + limit], limit, offset))
    return builder


def info(runtime: EnvironmentRuntime, query: dict) -> dict:
    result = runtime.call_tool("get_records", {"query": query})
    assert not result.is_error, result.structured
    return result.structured["body"]["pageInfo"]


def test_the_page_position_members_are_learned():
    roles = {m.pointer: (m.role, m.echo_added) for m in build_from(capture()).view.view("get_records").envelope_members}
    assert roles["/pageInfo/page"][0] == "page-number"
    assert roles["/pageInfo/isFirstPage"][0] == "first-page"
    # no recording shows a final page past the first true: the flag may mark a whole list instead
    assert roles["/pageInfo/isLastPage"][0] == "last-page-unless-final"
    assert roles["/pageInfo/offset"] == ("query-echo", False)  # offset=2 and offset=4 were answered without it
    proven = {m.pointer: m.role for m in build_from(capture((2, 6))).view.view("get_records").envelope_members}
    assert proven["/pageInfo/isLastPage"] == "last-page"


@pytest.mark.parametrize("query,expected", [
    ({"limit": "1", "offset": "3"}, {"totalRows": 8, "page": 4, "pageSize": 1, "isFirstPage": False, "isLastPage": False}),
    ({"limit": "3"}, {"totalRows": 8, "page": 1, "pageSize": 3, "isFirstPage": True, "isLastPage": False}),
    ({"limit": "8"}, {"totalRows": 8, "page": 1, "pageSize": 8, "isFirstPage": True, "isLastPage": True}),
])
def test_a_page_no_recording_asked_is_answered_over_the_state(query, expected):
    assert info(EnvironmentRuntime(build_from(capture())), query) == expected


def test_a_final_page_past_the_first_is_answered_only_where_a_recording_showed_one():
    final = {"limit": "2", "offset": "6"}
    refused = EnvironmentRuntime(build_from(capture())).call_tool("get_records", {"query": final})
    assert refused.is_error and "isLastPage" in refused.structured["message"], refused.structured
    assert info(EnvironmentRuntime(build_from(capture((2, 6)))), {"limit": "4", "offset": "4"}) == {
        "totalRows": 8, "page": 2, "pageSize": 4, "isFirstPage": False, "isLastPage": True}


@pytest.mark.parametrize("query", [{"limit": "2", "offset": "3"}, {"limit": "2", "offset": "10"}, {"offset": "2"}])
def test_an_offset_off_the_pages_or_past_the_end_is_refused(query):
    result = EnvironmentRuntime(build_from(capture())).call_tool("get_records", {"query": query})
    assert result.is_error and "pageInfo" in result.structured["message"], result.structured

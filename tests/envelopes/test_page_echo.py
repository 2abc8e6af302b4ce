"""An envelope that echoes the page asked (PocketBase's ``{"page", "perPage", "totalItems",
"totalPages", "items"}``): ``page`` and ``perPage`` equal the query's values where the call sent
them and one default elsewhere (``list-member.query-echo``), ``totalPages`` is the number of pages
of that size the selection fills (``list-member.page-count-word``), on a page too. After a served
create every page renders them from the call and the state."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

R = [{"id": i, "title": t} for i, t in (("t6cu5l28akg4mky", "a"), ("cagzde72kg0rlkj", "b"), ("matavwrwme382xr", "c"))]
NEW = {"id": "ruo4rq8e0nzally", "title": "d"}


def envelope(items: list, *, page: int = 1, per_page: int = 30, total: int = 3) -> dict:
    return {"page": page, "perPage": per_page, "totalItems": total, "totalPages": -(-total // per_page), "items": items}


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/records", response=envelope(R))
            .call("GET", f"/records/{R[0]['id']}", response=R[0])
            .call("GET", "/records", query="perPage=2", response=envelope(R[:2], per_page=2))
            .call("GET", "/records", query="page=2&perPage=2", response=envelope(R[2:], page=2, per_page=2))
            .call("POST", "/records", body={"title": "d"}, response=NEW)
            .call("GET", f"/records/{NEW['id']}", response=NEW)
            .call("GET", "/records", response=envelope(R + [NEW], total=4)))


def test_page_members_echo_the_query_and_count_pages():
    bundle = build_from(capture())
    roles = {m.pointer: (m.role, m.field) for m in bundle.view.view("get_records").envelope_members}
    assert roles == {"/page": ("query-echo", "page"), "/perPage": ("query-echo", "perPage"),
                     "/totalItems": ("count", None), "/totalPages": ("page-count", "/perPage")}
    runtime = EnvironmentRuntime(bundle)
    runtime.read("post_records", {"body": {"title": "e"}})
    second = runtime.read("get_records", {"query": {"page": "2", "perPage": "2"}})["body"]
    assert {k: v for k, v in second.items() if k != "items"} == {"page": 2, "perPage": 2, "totalItems": 4,
                                                                 "totalPages": 2}
    assert [r["title"] for r in second["items"]] == ["c", "e"]
    third = runtime.read("get_records", {"query": {"page": "3", "perPage": "1"}})["body"]  # never recorded
    assert (third["page"], third["perPage"], third["totalPages"], [r["title"] for r in third["items"]]) == (3, 1, 4, ["c"])
    whole = runtime.read("get_records")["body"]
    assert (whole["page"], whole["perPage"], whole["totalItems"], whole["totalPages"]) == (1, 30, 4, 1)


def test_a_page_size_no_answer_carries_exactly_is_refused_not_echoed():
    """A perPage past 2**53 (a JavaScript server echoes it rounded), past 64 bits (no JSON answer
    here could carry it; the MCP answer failed as an internal error) or of 5,000 digits, or written
    with another script's digits, is not echoed: the call is refused with the reason."""
    runtime = EnvironmentRuntime(build_from(capture()))
    for size in (str(2**53 + 1), "9" * 20, "9" * 5000, "\u0663", "\u00b2"):
        answer = runtime.call_tool("get_records", {"query": {"perPage": size}})
        assert answer.is_error and answer.structured["error"] == "refused", size
    assert runtime.read("get_records", {"query": {"perPage": str(2**53)}})["body"]["perPage"] == 2**53


def test_a_member_equal_to_two_sent_values_echoes_the_one_named_as_it():
    """``limit=1&offset=1`` answered ``"offset": 1, "limit": 1``: each member equals both values
    sent, so each echoes the parameter of its own name (Redmine's lists), never the first in
    name order (which answered ``"offset": 2`` to ``limit=2``); a member named as neither echoes none."""
    def listing(items: list, offset: int = 0, limit: int = 25, skip: int = 0) -> dict:
        return {"things": items, "total_count": 3, "offset": offset, "limit": limit, "skip": skip}

    things = [{"id": n, "name": name} for n, name in ((1, "a"), (2, "b"), (3, "c"))]
    bundle = build_from(HarBuilder()
                        .call("GET", "/things", response=listing(things))
                        .call("GET", "/things/1", response=things[0])
                        .call("GET", "/things", query="limit=1&offset=1", response=listing(things[1:2], 1, 1, 1)))
    roles = {m.pointer: (m.role, m.field) for m in bundle.view.view("get_things").envelope_members}
    assert roles["/offset"] == ("query-echo", "offset") and roles["/limit"] == ("query-echo", "limit")
    assert roles["/skip"][0] != "query-echo"
    page = EnvironmentRuntime(bundle).call_tool("get_things", {"query": {"limit": "2"}})
    assert page.is_error or (page.structured["body"]["offset"], page.structured["body"]["limit"]) == (0, 2)


def test_a_member_equal_to_another_parameter_once_echoes_nothing():
    """Mailman's ``start`` is the index of a page's first member: 1 for ``count=1&page=2`` equals
    ``count`` by chance (it is 4 for ``count=2&page=3``), so one such recording proves no echo."""
    def listing(items: list, start: int = 0) -> dict:
        return {"start": start, "total_size": 3, "entries": items}

    things = [{"id": n, "name": name} for n, name in (("a.example", "a"), ("b.example", "b"), ("c.example", "c"))]
    bundle = build_from(HarBuilder()
                        .call("GET", "/things", response=listing(things))
                        .call("GET", "/things/a.example", response=things[0])
                        .call("GET", "/things", query="count=1&page=2", response=listing(things[1:2], 1)))
    roles = {m.pointer: (m.role, m.field) for m in bundle.view.view("get_things").envelope_members}
    assert roles["/start"][0] != "query-echo"

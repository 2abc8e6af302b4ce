"""Links to the next and previous page (``list-member.next-page-link``, ``previous-page-link``): DRF's
``{"count","next","previous","results"}`` with ``limit`` and ``offset`` (its LimitOffsetPagination:
the request's URL with the start moved one page, the parameters written sorted by name, the start
left out of a link back to the first page). Learned from the recordings, rendered from the state's
count after a served create, at the origin the call reached (over HTTP, its Host; over MCP, the
recorded one); a page no recording proves how the application links (a spelling it may encode
otherwise, a page past the end) is refused saying why."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ORIGIN = "http://127.0.0.1:3000"
D1, D2, D3, D4 = ({"id": n, "name": name} for n, name in ((1, "edge"), (2, "core"), (3, "leaf"), (4, "spine")))


def drf(results: list, count: int, next_link: str | None = None, previous: str | None = None) -> dict:
    return {"count": count, "next": next_link, "previous": previous, "results": results}


def link(query: str) -> str:
    return f"{ORIGIN}/devices?{query}" if query else f"{ORIGIN}/devices"


def capture() -> HarBuilder:
    return (HarBuilder(origin=ORIGIN)
            .call("GET", "/devices", response=drf([D1, D2, D3], 3))
            .call("GET", "/devices/1", response=D1)
            .call("GET", "/devices/2", response=D2)
            # sent offset first, linked sorted: the order is proven
            .call("GET", "/devices", query="offset=0&limit=2", response=drf([D1, D2], 3, link("limit=2&offset=2")))
            .call("GET", "/devices", query="limit=2&offset=2", response=drf([D3], 3, None, link("limit=2")))
            .call("GET", "/devices", query="limit=1&offset=1",
                  response=drf([D2], 3, link("limit=1&offset=2"), link("limit=1")))
            .call("POST", "/devices", body={"name": "spine"}, status=201, response=D4)
            .call("GET", "/devices/4", response=D4)
            .call("GET", "/devices", response=drf([D1, D2, D3, D4], 4)))


@pytest.fixture(scope="module")
def bundle():
    return build_from(capture())


def test_the_links_are_learned(bundle):
    members = {m.pointer: m for m in bundle.view.view("get_devices").envelope_members}
    assert (members["/next"].role, members["/next"].field, members["/next"].link_sorted) == ("next-link", "offset", True)
    previous = members["/previous"]
    assert (previous.role, previous.link_first_dropped, previous.link_origin) == ("previous-link", True, ORIGIN)
    assert plan(bundle, "POST", "/devices").served


def test_the_links_follow_a_served_create(bundle):
    runtime = EnvironmentRuntime(bundle)
    runtime.read("post_devices", {"body": {"name": "rack"}})
    assert runtime.read("get_devices", {"query": {"offset": "1", "limit": "1"}})["body"] == drf(
        [D2], 4, link("limit=1&offset=2"), link("limit=1"))
    assert runtime.read("get_devices", {"query": {"limit": "2", "offset": "2"}})["body"] == drf(
        [D3, {"id": 4, "name": "rack"}], 4, None, link("limit=2"))  # the last page now: no next
    assert runtime.read("get_devices", {"query": {"limit": "3", "offset": "0"}})["body"]["next"] == link(
        "limit=3&offset=3")


def test_over_http_the_links_name_the_origin_the_call_reached(bundle):
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.http(HttpRequest("GET", "/devices", (("offset", "1"), ("limit", "1")), (), b"",
                                      origin="http://env.test:8080/i/abc"))
    body = json.loads(answer.body)
    assert (body["next"], body["previous"]) == ("http://env.test:8080/i/abc/devices?limit=1&offset=2",
                                                "http://env.test:8080/i/abc/devices?limit=1"), body


@pytest.mark.parametrize("query,why", [
    ({"limit": "1", "offset": "5"}, "past the 3 entities"),
])
def test_a_page_no_recording_proves_is_refused_saying_why(bundle, query, why):
    answer = EnvironmentRuntime(bundle).call_tool("get_devices", {"query": query})
    assert answer.is_error and why in answer.structured["message"], answer.structured


def test_a_link_is_not_learned_where_a_recording_shows_another_url():
    built = build_from(capture().call("GET", "/devices", query="limit=1&offset=0",
                                      response=drf([D1], 4, f"{ORIGIN}/devices?cursor=abc")))
    roles = {m.pointer: m.role for m in built.view.view("get_devices").envelope_members}
    assert roles["/next"] != "next-link"


def last_page_only() -> HarBuilder:
    """Barbican's style: a link left out where there is no such page, the list recorded whole and at
    its last page only (``previous`` learned, ``next`` never seen)."""
    def page(items: list, count: int, previous: str | None = None) -> dict:
        return {"devices": items, "total": count, **({"previous": previous} if previous else {})}
    return (HarBuilder(origin=ORIGIN)
            .call("GET", "/devices", response=page([D1, D2], 2))
            .call("GET", "/devices/1", response=D1)
            .call("GET", "/devices/2", response=D2)
            .call("GET", "/devices", query="limit=1&offset=1", response=page([D2], 2, link("limit=1&offset=0"))))


def test_a_page_with_a_next_page_no_recording_linked_is_refused():
    # answered before from the whole listing's recording, without the next link the application sends
    runtime = EnvironmentRuntime(build_from(last_page_only()))
    first = runtime.call_tool("get_devices", {"query": {"limit": "1"}})
    assert first.is_error and "has a next page" in first.structured["message"], first.structured
    assert runtime.read("get_devices", {"query": {"limit": "5"}})["body"] == {"devices": [D1, D2], "total": 2}

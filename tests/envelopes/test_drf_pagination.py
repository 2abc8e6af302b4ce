"""DRF pagination (issue 16, "Envelopes and list shapes"): ``{"count","next","previous","results"}``
with absolute ``next`` links. The list is answered from the state with ``count`` computed from
what it lists; a page's ``next`` link is the request's own URL with the page moved on
(list-member.next-page-link), rendered from the state's count after a served create; ``previous``,
null on every recorded (first) page, is kept on a first page and refused past it
(list-member.null-on-first-pages)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ORIGIN = "http://127.0.0.1:3000"
P1, P2, P3 = ({"id": n, "title": t} for n, t in ((1, "alpha"), (2, "beta"), (3, "gamma")))


def drf(results: list, *, count: int | None = None, next_link: str | None = None) -> dict:
    return {"count": len(results) if count is None else count, "next": next_link, "previous": None,
            "results": results}


def capture() -> HarBuilder:
    return (HarBuilder(origin=ORIGIN)
            .call("GET", "/projects", response=drf([P1, P2]))                                          # 1
            .call("GET", "/projects/1", response=P1)                                                   # 2
            .call("GET", "/projects/2", response=P2)                                                   # 3
            .call("GET", "/projects", query="page=1&page_size=1",
                  response=drf([P1], count=2, next_link=f"{ORIGIN}/projects?page=2&page_size=1"))      # 4
            .call("POST", "/projects", body={"title": "gamma"}, status=201, response=P3)               # 5
            .call("GET", "/projects/3", response=P3)                                                   # 6
            .call("GET", "/projects", response=drf([P1, P2, P3])))                                     # 7


def roles(bundle, tool: str) -> dict:
    view = bundle.view.view(tool)
    return {m.pointer: (m.role, m.rule_id) for m in view.envelope_members}


def test_the_envelope_members_are_read_from_the_recordings():
    bundle = build_from(capture())
    assert roles(bundle, "get_projects") == {
        "/count": ("count", "list-member.count-word"),
        "/next": ("next-link", "list-member.next-page-link"),
        "/previous": ("first-page-constant", "list-member.null-on-first-pages")}
    view = bundle.view.view("get_projects")
    assert view.state_backed and view.locator.member == "results"
    assert "count" not in view.per_response_members  # compared: the gate checks the counter


def test_the_create_is_served_and_confirmed_by_the_counted_list():
    create = plan(build_from(capture()), "POST", "/projects")
    assert create.served, create.reason
    assert 7 in create.checked_record_ordinals


def test_a_served_create_is_counted():
    runtime = EnvironmentRuntime(build_from(capture()))
    assert runtime.read("get_projects")["body"] == drf([P1, P2])
    runtime.read("post_projects", {"body": {"title": "delta"}})
    listed = runtime.read("get_projects")
    assert listed["body"]["count"] == 3 and [p["title"] for p in listed["body"]["results"]] == [
        "alpha", "beta", "delta"]


def test_a_page_follows_the_collection_after_a_served_create():
    runtime = EnvironmentRuntime(build_from(capture()))
    page = {"query": {"page": "1", "page_size": "1"}}
    assert runtime.read("get_projects", page)["body"] == drf([P1], count=2,
                                                              next_link=f"{ORIGIN}/projects?page=2&page_size=1")
    runtime.read("post_projects", {"body": {"title": "delta"}})
    assert runtime.read("get_projects", page)["body"] == drf([P1], count=3,
                                                              next_link=f"{ORIGIN}/projects?page=2&page_size=1")
    # no recording asked a page past the first: what previous holds there (DRF: a link back) is not
    # shown, so page 2 is refused rather than answered null
    answer = runtime.call_tool("get_projects", {"query": {"page": "2", "page_size": "1"}})
    assert answer.is_error and "/previous" in answer.structured["message"], answer.structured
    assert "past the first" in answer.structured["message"], answer.structured
    assert runtime.read("get_projects")["body"]["count"] == 3  # the whole list still answers


def filtered() -> HarBuilder:
    return (HarBuilder(origin=ORIGIN)
            .call("GET", "/projects", response=drf([P1, P2]))                                          # 1
            .call("GET", "/projects/1", response=P1)                                                   # 2
            .call("GET", "/projects", query="title=beta", response=drf([P2]))                          # 3
            .call("POST", "/projects", body={"title": "beta"}, status=201, response=P3 | {"title": "beta"})
            .call("GET", "/projects/3", response=P3 | {"title": "beta"})                               # 5
            .call("GET", "/projects", response=drf([P1, P2, P3 | {"title": "beta"}])))                # 6


def test_a_learned_filter_counts_what_it_selects():
    bundle = build_from(filtered())
    view = bundle.view.view("get_projects")
    assert [(q.param, q.kind) for q in view.learned_queries] == [("title", "equals")]
    runtime = EnvironmentRuntime(bundle)
    runtime.read("post_projects", {"body": {"title": "beta"}})
    answer = runtime.read("get_projects", {"query": {"title": "beta"}})
    assert answer["body"]["count"] == 2 and [p["id"] for p in answer["body"]["results"]] == [2, 3]

"""``{"<plural>": [{…}], "meta": {"pagination": …}}`` (Ghost's admin API): lists under the
collection's own word with a pagination block, single entities as one-element arrays in answers
and in request bodies; and ``{"data": {…}}`` items written with a ``{"data": {…}}`` body."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def page(posts: list) -> dict:
    return {"posts": posts, "meta": {"pagination": {"page": 1, "limit": 15, "pages": 1, "total": len(posts),
                                                    "next": None, "prev": None}}}


A, B = {"id": "a1b2c3d4e5f6a1b2c3d4e5f6", "title": "A"}, {"id": "b1b2c3d4e5f6a1b2c3d4e5f6", "title": "B"}
C = {"id": "c1b2c3d4e5f6a1b2c3d4e5f6", "title": "C"}


def ghost() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/posts", response=page([A, B]))                                          # 1
            .call("GET", f"/posts/{A['id']}", response={"posts": [A]})                             # 2
            .call("GET", f"/posts/{B['id']}", response={"posts": [B]})                             # 3
            .call("POST", "/posts", body={"posts": [{"title": "C"}]}, status=201,
                  response={"posts": [C]})                                                         # 4
            .call("GET", f"/posts/{C['id']}", response={"posts": [C]})                             # 5
            .call("PUT", f"/posts/{A['id']}", body={"posts": [{"title": "A2"}]},
                  response={"posts": [{**A, "title": "A2"}]})                                      # 6
            .call("GET", f"/posts/{A['id']}", response={"posts": [{**A, "title": "A2"}]})         # 7
            .call("GET", "/posts", response=page([{**A, "title": "A2"}, B, C])))                  # 8


def test_plural_lists_items_and_bodies():
    bundle = build_from(ghost())
    listed, item = bundle.view.view("get_posts"), bundle.view.view("get_posts_by_post_id")
    assert (listed.kind, listed.locator.member, listed.state_backed) == ("list", "posts", True)
    assert (item.kind, item.locator.kind, item.locator.member, item.state_backed) == ("item", "singleton", "posts", True)
    assert {m.pointer: m.role for m in listed.envelope_members}["/meta/pagination/total"] == "count"
    create, update = plan(bundle, "POST", "/posts"), plan(bundle, "PUT", "/posts/{post_id}")
    assert (create.served, create.body_envelope) == (True, "posts"), create.reason
    assert update.served, update.reason


def test_served_writes_answer_and_list_in_the_plural_envelope():
    runtime = EnvironmentRuntime(build_from(ghost()))
    created = runtime.read("post_posts", {"body": {"posts": [{"title": "D"}]}})
    (post,) = created["body"]["posts"]
    assert post["title"] == "D"
    listed = runtime.read("get_posts")["body"]
    assert [p["title"] for p in listed["posts"]] == ["A", "B", "D"]
    assert listed["meta"]["pagination"]["total"] == 3 and listed["meta"]["pagination"]["next"] is None
    refused = runtime.call_tool("post_posts", {"body": {"title": "bare"}})
    assert refused.is_error  # the application takes the entity wrapped, as recorded

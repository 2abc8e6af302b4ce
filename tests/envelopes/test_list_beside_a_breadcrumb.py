"""A list one level down beside an array of the body's own that is no list: Misago answers a page of
a thread's posts as the thread itself, whose ``path`` (its category breadcrumb, an array of
objects) sits beside ``post_set: {"results": [...], "page": 2, "pages": 3, ...}``. The breadcrumb,
the body's only array of objects, was taken for the read's list (``envelope.sole-object-array``):
the state held categories as posts and ``post_set.page`` became the sum of the breadcrumb's
``level``s, so the recorded ``?page=2`` was answered ``page: 1`` (found by autoprobe on
captures/misago). An array beside an object holding a list named as envelopes commonly are is no
envelope (``envelope.array-beside-nested-list``) and that object holds the list
(``envelope.object-holding-named-list``).
"""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.models import Locator
from capenv.interpreter.rules_engine import load_rules
from capenv.interpreter.view.shapes import ShapeReader
from capenv.serving.runtime import EnvironmentRuntime

ROOT = {"id": 2, "name": "Threads", "level": 0}
GENERAL = {"id": 3, "name": "General", "level": 1}


def post(n: int, text: str) -> dict:
    return {"id": n, "content": f"<p>{text}</p>", "poster_name": "admin"}


def page(thread: int, title: str, posts: list, number: int, pages: int) -> dict:
    return {"id": thread, "title": title, "path": [ROOT, GENERAL],
            "post_set": {"results": posts, "page": number, "pages": pages,
                         "previous": number - 1 if number > 1 else None,
                         "next": number + 1 if number < pages else None}}


def app() -> HarBuilder:
    a, b, c, d = post(1, "hello"), post(2, "hi"), post(3, "welcome"), post(4, "bye")
    return (HarBuilder()
            .call("GET", "/threads/1/posts", response=page(1, "Intro", [a, b], 1, 2))
            .call("GET", "/threads/1/posts", query={"page": "2"}, response=page(1, "Intro", [b, c], 2, 2))
            .call("GET", "/threads/5/posts", response=page(5, "Editors", [d], 1, 1)))


def test_the_posts_are_the_list_not_the_breadcrumb():
    bundle = build_from(app())
    view = bundle.view.view("get_threads_posts")
    assert view.kind == "list"
    assert view.locator == Locator(kind="member", member="results", within=("post_set",))


def test_the_recorded_second_page_is_answered_as_the_second_page():
    runtime = EnvironmentRuntime(build_from(app()))
    answer = runtime.read("get_threads_posts", {"thread_id": "1", "query": {"page": "2"}})
    assert answer["body"]["post_set"]["page"] == 2
    assert [p["id"] for p in answer["body"]["post_set"]["results"]] == [2, 3]


def test_a_sole_array_beside_objects_holding_no_named_list_is_still_the_list():
    reader = ShapeReader(load_rules())
    body = {"path": [ROOT, GENERAL], "starter": {"id": 1, "avatars": [{"size": 100}]}}
    assert reader.list_locator(body, "posts")[0] == Locator(kind="member", member="path")
    nested = {"path": [ROOT, GENERAL], "post_set": {"results": [post(1, "a")], "page": 1}}
    assert reader.list_locator(nested, "posts")[0] == Locator(kind="member", member="results", within=("post_set",))
    two = {"path": [ROOT], "post_set": {"results": [post(1, "a")]}, "likes": {"results": [{"id": 9}]}}
    assert reader.list_locator(two, "posts") is None

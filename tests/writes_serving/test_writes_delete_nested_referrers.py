"""A delete of an entity another held entity names below its top level: a JSON:API resource's
``relationships: {author: {data: {type, id}}}``, an object inside an object (``meta: {owner:
{id, name}}``) or an id under a reference-named member inside one (``context: {post_id}``). Such a
reference is a reference all the same: the application may delete the referring entity along,
clear it or refuse, none of which a delete models, so serving refuses the delete of an entity a
held entity names that deep, and serves the delete of one nothing names.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

PEOPLE = [{"type": "people", "id": str(n), "attributes": {"name": name, "age": 30 + n}}
          for n, name in enumerate(["Ada", "Grace", "Edsger", "Barbara"], start=1)]
ARTICLES = [{"type": "articles", "id": "1", "attributes": {"title": "Engines"},
             "relationships": {"author": {"data": {"type": "people", "id": "1"}}}},
            {"type": "articles", "id": "2", "attributes": {"title": "Compilers"},
             "relationships": {"author": {"data": {"type": "people", "id": "1"}}}}]


def jsonapi() -> HarBuilder:
    """People and articles as JSON:API documents; articles name person 1 under
    relationships.author.data; person 4, whom nothing names, is deleted and read back."""
    har = HarBuilder()
    har.call("GET", "/people", response={"data": PEOPLE})
    for person in PEOPLE:
        har.call("GET", f"/people/{person['id']}", response={"data": person})
    har.call("GET", "/articles", response={"data": ARTICLES})
    har.call("DELETE", "/people/4", status=204)
    har.call("GET", "/people/4", status=404, response={"errors": [{"status": "404", "title": "Not Found"}]})
    har.call("GET", "/people", response={"data": PEOPLE[:3]})
    return har


POSTS = [{"id": n, "title": title, "views": n * 10}
         for n, title in enumerate(["Cards", "Relays", "Tapes", "Drums"], start=1)]
NOTES = [{"id": 1, "text": "see", "meta": {"subject": {"id": 1, "title": "Cards"}, "pinned": True}},
         {"id": 2, "text": "also", "context": {"post_id": 2, "line": 4}}]


def plain() -> HarBuilder:
    """Posts, and notes naming post 1 by an object inside an object and post 2 by a suffixed id
    inside one; post 4, whom nothing names, is deleted and read back."""
    har = HarBuilder()
    har.call("GET", "/posts", response=POSTS)
    for post in POSTS:
        har.call("GET", f"/posts/{post['id']}", response=post)
    har.call("GET", "/notes", response=NOTES)
    har.call("DELETE", "/posts/4", status=204)
    har.call("GET", "/posts/4", status=404, response={"error": "not found"})
    har.call("GET", "/posts", response=POSTS[:3])
    return har


@pytest.fixture(scope="module")
def jsonapi_bundle(tmp_path_factory):
    return build_from(jsonapi(), tmp_path_factory.mktemp("nested-jsonapi") / "capture.har")


@pytest.fixture(scope="module")
def plain_bundle(tmp_path_factory):
    return build_from(plain(), tmp_path_factory.mktemp("nested-plain") / "capture.har")


def test_a_jsonapi_relationship_is_a_referrer(jsonapi_bundle) -> None:
    delete = plan(jsonapi_bundle, "DELETE", "/people/{people_id}")
    assert delete.served, delete.reason
    assert [(r.type, r.within, r.member, r.id_member) for r in delete.referrers] == [
        ("articles", ("relationships", "author"), "data", "id")]


def test_a_person_an_article_names_is_not_deleted(jsonapi_bundle) -> None:
    runtime = EnvironmentRuntime(jsonapi_bundle)
    with http_in_thread(runtime) as serving:
        status, answer = send_json(serving, "/people/1", None, method="DELETE")
        assert status == 400 and "articles '1' (relationships.author.data)" in answer["message"], answer
        assert send_json(serving, "/people/1", None, method="GET")[0] == 200  # the state is unchanged
        assert send_json(serving, "/people/2", None, method="DELETE")[0] == 204  # nothing names person 2
        assert send_json(serving, "/people/2", None, method="GET")[0] == 404


def test_objects_and_ids_inside_objects_are_referrers(plain_bundle) -> None:
    delete = plan(plain_bundle, "DELETE", "/posts/{post_id}")
    assert delete.served, delete.reason
    assert {(r.type, r.within, r.member, r.id_member) for r in delete.referrers} == {
        ("notes", ("meta",), "subject", "id"), ("notes", ("context",), "post_id", None)}
    runtime = EnvironmentRuntime(plain_bundle)
    with http_in_thread(runtime) as serving:
        status, answer = send_json(serving, "/posts/1", None, method="DELETE")
        assert status == 400 and "notes 1 (meta.subject)" in answer["message"], answer
        status, answer = send_json(serving, "/posts/2", None, method="DELETE")
        assert status == 400 and "notes 2 (context.post_id)" in answer["message"], answer
        assert send_json(serving, "/posts/3", None, method="DELETE")[0] == 204

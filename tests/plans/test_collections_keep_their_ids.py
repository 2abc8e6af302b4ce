"""Ids repeat across a type's collections (posts numbered per user: ann's post 2 beside bob's post 2),
so a write's entity is looked up in the collection its call names: a create into bob's posts answered
with id 2 is linked and observed by the read of bob's post 2, whatever ann's post 2 shows or held
before; and a read of ann's post is no sighting of bob's when the gate weighs what removed it."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ANN = [{"id": 1, "title": "a1", "body": "x"}, {"id": 2, "title": "a2", "body": "y"}]
BOB = [{"id": 1, "title": "b1", "body": "z"}]


def posts_app(bob: list[dict] = BOB, users: list[dict] | None = None) -> HarBuilder:
    """Two users' posts, each numbered from 1, every list and item read once (records 1-6 by
    default; with ``users``, each user's item read after the list)."""
    users = users or [{"name": "ann"}, {"name": "bob"}]
    app = HarBuilder(start="2026-01-06T09:00:00Z").call("GET", "/users", response=users)
    if len(users[0]) > 1:
        for user in users:
            app.call("GET", f"/users/{user['name']}", response=user)
    for user, posts in (("ann", ANN), ("bob", bob)):
        app.call("GET", f"/users/{user}/posts", response=posts)
        for post in posts:
            app.call("GET", f"/users/{user}/posts/{post['id']}", response=post)
    return app


def created_app(other_read_first: bool) -> HarBuilder:
    """Bob's second post made (record 7, answered with id 2, the id ann's second post holds; with
    ``other_read_first`` with that id alone), then read back and listed; with ``other_read_first``,
    ann's post 2 read (unchanged) between the create and that read."""
    app = posts_app()
    made = {"id": 2, "title": "b2", "body": "w"}
    app.call("POST", "/users/bob/posts", body={"title": "b2", "body": "w"}, status=201,
             response={"id": 2} if other_read_first else made)
    if other_read_first:
        app.call("GET", "/users/ann/posts/2", response=ANN[1])
    app.call("GET", "/users/bob/posts/2", response=made)
    return app.call("GET", "/users/bob/posts", response=[*BOB, made])


def http(runtime: EnvironmentRuntime, method: str, path: str, body: object = None):
    sent = b"" if body is None else json.dumps(body).encode()
    return runtime.http(HttpRequest(method, path, (), (("content-type", "application/json"),), sent))


def _plan(bundle, method: str):
    return next(p for p in bundle.view.writes if p.method == method)


def test_a_create_is_observed_in_its_own_collection_though_another_holds_its_id():
    bundle = build_from(created_app(other_read_first=False))
    created = _plan(bundle, "POST")
    assert created.build_reason is None, created.build_reason
    assert created.served, created.reason
    runtime = EnvironmentRuntime(bundle)
    made = http(runtime, "POST", "/users/bob/posts", {"title": "b3", "body": "v"})
    assert made.status == 201, made.body
    made_id = json.loads(made.body)["id"]
    assert json.loads(http(runtime, "GET", f"/users/bob/posts/{made_id}").body)["title"] == "b3"
    assert http(runtime, "GET", "/users/ann/posts/2").body == json.dumps(ANN[1]).encode() \
        or json.loads(http(runtime, "GET", "/users/ann/posts/2").body) == ANN[1]


def test_another_collections_entity_read_first_is_no_observation_of_the_create():
    """Ann's post 2, read right after bob's post 2 was made (answered with its id alone), is not what
    the create made: the plan observes bob's read (record 9), not ann's (record 8, a title never sent)."""
    bundle = build_from(created_app(other_read_first=True))
    created = _plan(bundle, "POST")
    assert created.build_reason is None, created.build_reason
    assert created.observation == 9, created.observation
    assert created.served, created.reason


def removed_app(other_read_between: bool) -> HarBuilder:
    """Ann's post 2 renamed (answered with it, read back); bob's post 1 then answers 404, though no
    write named it: the rename removed it, a side effect its plan does not model. With
    ``other_read_between``, ann's post 1 is read after the rename and before bob's 404."""
    app = posts_app()
    renamed = {**ANN[1], "title": "a2 renamed"}
    app.call("PATCH", "/users/ann/posts/2", body={"title": "a2 renamed"}, response=renamed)
    app.call("GET", "/users/ann/posts/2", response=renamed)
    if other_read_between:
        app.call("GET", "/users/ann/posts/1", response=ANN[0])
    return app.call("GET", "/users/bob/posts/1", status=404, response={"error": "not found"})


def test_another_collections_read_does_not_hide_a_removal_from_the_write_before_it():
    plain = _plan(build_from(removed_app(other_read_between=False)), "PATCH")
    assert not plain.served and plain.reason == "side-effect", plain.reason
    crossed = _plan(build_from(removed_app(other_read_between=True)), "PATCH")
    assert not crossed.served and crossed.reason == "side-effect", crossed.reason


def changed_app(other_read_between: bool) -> HarBuilder:
    """Bob renamed (answered with him, read back); bob's post 1 then shows the new name as its
    author, though no write named it: a side effect on a path below the write's that its plan does
    not model. With ``other_read_between``, ann's post 1 is read after the rename and before bob's
    post 1."""
    users = [{"name": "ann", "display": "Ann"}, {"name": "bob", "display": "Bob"}]
    bob = [{**BOB[0], "author": "Bob"}]
    app = posts_app(bob, users)
    renamed = {**users[1], "display": "Robert"}
    app.call("PATCH", "/users/bob", body={"display": "Robert"}, response=renamed)
    app.call("GET", "/users/bob", response=renamed)
    if other_read_between:
        app.call("GET", "/users/ann/posts/1", response=ANN[0])
    return app.call("GET", "/users/bob/posts/1", response={**bob[0], "author": "Robert"})


def test_another_collections_read_does_not_hide_a_change_from_the_write_before_it():
    plain = _plan(build_from(changed_app(other_read_between=False)), "PATCH")
    assert not plain.served and plain.reason == "side-effect", plain.reason
    crossed = _plan(build_from(changed_app(other_read_between=True)), "PATCH")
    assert not crossed.served and crossed.reason == "side-effect", crossed.reason


def unanswered_update_app(users: tuple[str, ...]) -> HarBuilder:
    """Ann's post 1 retitled, answered 204 with no body, then each of ``users``' post 1 read (bob's
    unchanged, ann's retitled), then ann's posts listed."""
    app = posts_app()
    app.call("PATCH", "/users/ann/posts/1", body={"title": "c"}, status=204)
    for user in users:
        app.call("GET", f"/users/{user}/posts/1", response={**ANN[0], "title": "c"} if user == "ann" else BOB[0])
    return app.call("GET", "/users/ann/posts", response=[{**ANN[0], "title": "c"}, ANN[1]])


def test_an_update_answered_with_nothing_is_observed_in_its_own_collection():
    """Bob's post 1, read first after ann's post 1 was retitled, is not what the update wrote: the
    gate observes ann's read after it, and serving retitles ann's post alone."""
    own = _plan(build_from(unanswered_update_app(("ann",))), "PATCH")
    assert own.served, own.reason
    crossed = _plan(build_from(unanswered_update_app(("bob", "ann"))), "PATCH")
    assert crossed.served and crossed.observation == own.observation + 1, (crossed.reason, crossed.observation)
    runtime = EnvironmentRuntime(build_from(unanswered_update_app(("bob", "ann"))))
    assert http(runtime, "PATCH", "/users/ann/posts/2", {"title": "d"}).status == 204
    assert json.loads(http(runtime, "GET", "/users/ann/posts/2").body)["title"] == "d"
    assert json.loads(http(runtime, "GET", "/users/bob/posts/1").body) == BOB[0]


def deleted_app() -> HarBuilder:
    """Bob's post 1 deleted (204) and read missing after; then a delete of bob's post 2, which only
    ann holds, answered 404: no entity the call named was held."""
    app = posts_app()
    app.call("DELETE", "/users/bob/posts/1", status=204)
    app.call("GET", "/users/bob/posts/1", status=404, response={"error": "not found"})
    app.call("GET", "/users/bob/posts", response=[])
    app.call("DELETE", "/users/bob/posts/2", status=404, response={"error": "not found"})
    return app.call("GET", "/users/ann/posts/2", response=ANN[1])


def test_a_delete_refused_for_an_id_only_another_collection_holds_was_not_refused_while_held():
    deleted = _plan(build_from(deleted_app()), "DELETE")
    assert deleted.served, deleted.reason

"""A write whose recorded calls changed state its plan does not write (``write-cascades``).

A json-server-like application deletes a post's likes and comments with it. Where the state holds
the likes (read in the initial window, naming the post by its title, so no check of entities linked
by id reaches them), the like list reading differently around the delete keeps the delete unserved
(``verdict.cascade``): serving would go on listing the likes. Where the
comments are only ever read after the capture's writes (answered by replay), the delete stays
served, and the comments' replay goes stale with it: serving refuses to replay them once a served
write has changed the posts, rather than answer the comments of a deleted post.
"""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

POSTS = [{"id": n, "title": title} for n, title in enumerate(["Cards", "Relays", "Tapes"], start=1)]
COMMENTS = [{"id": 1, "postId": 1, "body": "first"}, {"id": 2, "postId": 1, "body": "second"},
            {"id": 3, "postId": 2, "body": "third"}]
# a side collection naming the post by its title, not its id: the gate's check of entities linked
# by id to a written one does not reach it
LIKES = [{"id": "l-1", "on": "Cards", "by": "ada"}, {"id": "l-2", "on": "Cards", "by": "alan"},
         {"id": "l-3", "on": "Relays", "by": "ada"}]
MISSING = {"error": "not found"}


def _posts(har: HarBuilder) -> HarBuilder:
    har.call("GET", "/posts", response=POSTS)
    for post in POSTS:
        har.call("GET", f"/posts/{post['id']}", response=post)
    return har


def likes_held() -> HarBuilder:
    """The likes read with the posts, then changed by an import no plan models (the gate then checks
    their list no more, as Gnocchi's metrics after metrics made from a map); deleting post 1 takes
    its two likes out of the list."""
    har = _posts(HarBuilder())
    har.call("GET", "/likes", response=LIKES)
    for like in LIKES:
        har.call("GET", f"/likes/{like['id']}", response=like)
    imported = {"id": "l-4", "on": "Tapes", "by": "grace"}
    har.call("POST", "/likes/import", body=[{"on": "Tapes", "by": "grace"}], status=204)
    har.call("GET", "/likes", response=[*LIKES, imported])
    har.call("DELETE", "/posts/1", response={})
    har.call("GET", "/posts/1", status=404, response=MISSING)
    har.call("GET", "/posts", response=POSTS[1:])
    har.call("GET", "/likes", response=[LIKES[2], imported])
    har.call("DELETE", "/posts/3", response={})
    har.call("GET", "/posts/3", status=404, response=MISSING)
    return har.call("GET", "/posts", response=POSTS[1:2])


def comments_read_after_writes() -> HarBuilder:
    """A create first, so every comment read comes after the capture's first write; post 1's
    comments read before and after its delete."""
    har = _posts(HarBuilder())
    made = {"id": 4, "title": "Drums"}
    har.call("POST", "/posts", body={"title": "Drums"}, status=201, response=made)
    har.call("GET", "/posts/4", response=made)
    har.call("GET", "/posts", response=[*POSTS, made])
    har.call("GET", "/comments", query=[("postId", "1")], response=COMMENTS[:2])
    har.call("DELETE", "/posts/1", response={})
    har.call("GET", "/posts/1", status=404, response=MISSING)
    har.call("GET", "/posts", response=[*POSTS[1:], made])
    return har.call("GET", "/comments", query=[("postId", "1")], response=[])


def test_a_delete_emptying_a_held_side_collection_is_not_served(tmp_path) -> None:
    bundle = build_from(likes_held(), tmp_path / "capture.har")
    assert any(c.type == "likes" for c in bundle.view.state.collections), "the state holds the likes"
    delete = plan(bundle, "DELETE", "/posts/{post_id}")
    assert (delete.served, delete.reason) == (False, "side-effect")
    cascade = next(e for e in delete.traces if e.table == "write-cascades" and e.outcome == "match")
    assert cascade.rule_id == "cascade.other-line-changed"
    assert cascade.evidence["line"] == "GET /likes"
    assert delete.contradicted_by == cascade.evidence["after"]
    verdict = next(e for e in delete.traces if e.rule_id == "verdict.cascade" and e.outcome == "match")
    assert "GET /likes read differently" in verdict.evidence["shown"]


def test_a_replayed_side_collection_goes_stale_after_a_served_delete(tmp_path) -> None:
    bundle = build_from(comments_read_after_writes(), tmp_path / "capture.har")
    delete = plan(bundle, "DELETE", "/posts/{post_id}")
    assert delete.served, delete.reason
    comments = next(v for v in bundle.view.views if v.tool.startswith("get_comments"))
    assert not comments.state_backed, "the comments are answered by replay"
    assert "posts" in bundle.replay.reads_types.get(comments.tool, ())
    assert any(e.rule_id == "cascade.replayed-line-changed" and e.outcome == "match" for e in bundle.view.traces)
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        assert send_json(serving, "/posts/1", None, method="DELETE")[0] == 200
        status, answer = send_json(serving, "/comments?postId=1", None, method="GET")
    # the recording lists post 1's comments as they were before the delete: a wrong answer now
    assert status == 409, (status, answer)
    assert "not modelled over the current state" in answer["message"]


def comments_held_by_item_reads() -> HarBuilder:
    """The comments read one by one in the initial window (the state answers them), their list only
    after the capture's first write (answered by replay); deleting post 1 takes its comments out of
    that list, which no item read of them shows after it."""
    har = _posts(HarBuilder())
    for comment in COMMENTS:
        har.call("GET", f"/comments/{comment['id']}", response=comment)
    made = {"id": 4, "title": "Drums"}
    har.call("POST", "/posts", body={"title": "Drums"}, status=201, response=made)
    har.call("GET", "/posts/4", response=made)
    har.call("GET", "/comments", response=COMMENTS)
    har.call("DELETE", "/posts/1", response={})
    har.call("GET", "/posts/1", status=404, response=MISSING)
    har.call("GET", "/posts", response=[*POSTS[1:], made])
    return har.call("GET", "/comments", response=COMMENTS[2:])


def test_a_delete_changing_a_replayed_list_of_a_type_the_state_answers_is_not_served(tmp_path) -> None:
    # served, the delete would leave comments 1 and 2 in the state, and their item reads (answered
    # from the state) would show comments the application deleted with the post
    bundle = build_from(comments_held_by_item_reads(), tmp_path / "capture.har")
    items = next(v for v in bundle.view.views if v.tool == "get_comments_by_comment_id")
    listing = next(v for v in bundle.view.views if v.tool == "get_comments")
    assert items.state_backed and not listing.state_backed, (items.reason, listing.reason)
    delete = plan(bundle, "DELETE", "/posts/{post_id}")
    assert (delete.served, delete.reason) == (False, "side-effect")
    cascade = next(e for e in delete.traces if e.table == "write-cascades" and e.outcome == "match")
    assert cascade.rule_id == "cascade.replayed-line-of-held-type"
    assert cascade.evidence["line"] == "GET /comments"


TAGS = [{"id": "5b7e1c0a-0000-4000-8000-000000000001", "name": "old"}]
MADE_TAG = "5b7e1c0a-9d3f-4e21-8c44-7a1b2c3d4e5f"


def tags_made_by_a_create() -> HarBuilder:
    """A post create whose body names a tag by name: the answer names the tag it made by a fresh id,
    which the tag list shows later, after another write (so no pair of tag reads around the create
    shows it)."""
    har = _posts(HarBuilder())
    har.call("GET", "/tags", response=TAGS)
    har.call("GET", f"/tags/{TAGS[0]['id']}", response=TAGS[0])
    made = {"id": 4, "title": "Drums", "tag": {"drums": MADE_TAG}}
    har.call("POST", "/posts", body={"title": "Drums"}, status=201, response=made)
    har.call("GET", "/posts/4", response=made)
    har.call("GET", "/posts", response=[*POSTS, made])
    har.call("DELETE", "/posts/2", response={})
    har.call("GET", "/posts/2", status=404, response=MISSING)
    return har.call("GET", "/tags", response=[*TAGS, {"id": MADE_TAG, "name": "drums"}])


def test_a_create_whose_answer_names_an_entity_made_elsewhere_is_not_served(tmp_path) -> None:
    bundle = build_from(tags_made_by_a_create(), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/posts")
    assert (create.served, create.reason) == (False, "side-effect")
    cascade = next(e for e in create.traces if e.table == "write-cascades" and e.outcome == "match")
    assert cascade.rule_id == "cascade.answer-names-new-entity"
    assert (cascade.evidence["value"], cascade.evidence["type"]) == (MADE_TAG, "tags")
    assert create.contradicted_by == cascade.evidence["read"]


def test_an_answer_showing_its_id_as_an_array_builds() -> None:
    """An update answering its entity's id as an array (a value no id takes) names no entity of its
    own: the cascade search looks at its other values and the build goes on (it raised TypeError)."""
    bundle = build_from(items_app().call("PATCH", "/items/1", body={"title": "u"}, response={"id": [1], "title": "u"})
                        .call("GET", "/items"))
    assert [p.tool for p in bundle.view.writes] == ["patch_items_by_item_id"]


def count_read_across_writes() -> HarBuilder:
    """A count beside the posts' path (``/posts_count``, a bare number: no view of a type, answered by
    replay) read before any write, then again only after a title change and a delete: it changed
    across both, and no read of it brackets the delete alone."""
    har = _posts(HarBuilder())
    har.call("GET", "/posts_count", response=3)
    har.call("PATCH", "/posts/2", body={"title": "Relays II"}, response={"id": 2, "title": "Relays II"})
    har.call("GET", "/posts/2", response={"id": 2, "title": "Relays II"})
    har.call("DELETE", "/posts/1", response={})
    har.call("GET", "/posts/1", status=404, response=MISSING)
    har.call("GET", "/posts", response=[{"id": 2, "title": "Relays II"}, POSTS[2]])
    return har.call("GET", "/posts_count", response=2)


def test_a_replayed_count_changed_across_several_writes_goes_stale_after_a_served_delete(tmp_path) -> None:
    bundle = build_from(count_read_across_writes(), tmp_path / "capture.har")
    delete = plan(bundle, "DELETE", "/posts/{post_id}")
    assert delete.served, delete.reason
    count = next(v for v in bundle.view.views if v.tool.startswith("get_posts_count"))
    assert not count.state_backed, "the count is answered by replay"
    assert "posts" in bundle.replay.reads_types.get(count.tool, ())
    assert any(e.rule_id == "cascade.replayed-line-changed-across-writes" and e.outcome == "match"
               for e in bundle.view.traces)
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        assert send_json(serving, "/posts_count", None, method="GET") == (200, 3)  # the state as recorded
        assert send_json(serving, "/posts/3", None, method="DELETE")[0] == 200
        status, answer = send_json(serving, "/posts_count", None, method="GET")
    # the recording counts three posts where the state now holds two: a wrong answer
    assert status == 409, (status, answer)
    assert "not modelled over the current state" in answer["message"]


USERS = [{"id": 1, "username": "ada", "email": "ada@example.com", "joined": "2026-01-05T09:00:00Z", "active": True},
         {"id": 2, "username": "bob", "email": "bob@example.com", "joined": "2026-01-06T10:30:00Z", "active": True}]


def users_deleted(listed_after: list[dict]) -> HarBuilder:
    """Users keyed by username, read one by one in the initial window (the state answers them), their
    list only after the delete (answered by replay): bob deleted, his item 404 after, then the list."""
    har = HarBuilder()
    for user in USERS:
        har.call("GET", f"/users/{user['username']}", response=user)
    har.call("GET", "/users/nobody", status=404, response=MISSING)
    har.call("DELETE", "/users/bob", status=204)
    har.call("GET", "/users/bob", status=404, response=MISSING)
    return har.call("GET", "/users", response=listed_after)


def test_a_delete_whose_entity_the_next_replayed_list_keeps_renamed_is_not_served(tmp_path) -> None:
    # a soft delete: bob is listed on as deleted-2 under his number and joining clock; served, the
    # delete would take from the state an account the application still lists
    kept = {"id": 2, "username": "deleted-2", "email": "noreply+2@example.com", "joined": "2026-01-06T10:30:00Z",
            "active": False}
    bundle = build_from(users_deleted([USERS[0], kept]), tmp_path / "capture.har")
    listing = next(v for v in bundle.view.views if v.tool == "get_users")
    assert not listing.state_backed, listing.reason
    delete = plan(bundle, "DELETE", "/users/{user_id}")
    assert (delete.served, delete.reason, delete.contradicted_by) == (False, "side-effect", 6), delete.traces
    cascade = next(e for e in delete.traces if e.table == "write-cascades" and e.outcome == "match")
    assert cascade.rule_id == "cascade.delete-kept-listed"
    assert cascade.evidence["members"] == ["id", "joined"]


def test_a_delete_whose_entity_the_next_replayed_list_leaves_out_stays_served(tmp_path) -> None:
    bundle = build_from(users_deleted([USERS[0]]), tmp_path / "capture.har")
    delete = plan(bundle, "DELETE", "/users/{user_id}")
    assert delete.served, delete.reason


def test_a_delete_whose_next_replayed_list_shows_an_entity_read_before_it_alike_stays_served(tmp_path) -> None:
    # ada shares bob's team and role, but the reads showed her before the delete: she was there beside
    # him all along, and the list shows nothing of bob
    team = {"team": "core", "role": "editor"}
    ada, bob = {**USERS[0], **team}, {**USERS[1], **team}
    har = HarBuilder()
    for user in (ada, bob):
        har.call("GET", f"/users/{user['username']}", response=user)
    har.call("GET", "/users/nobody", status=404, response=MISSING)
    har.call("DELETE", "/users/bob", status=204)
    har.call("GET", "/users/bob", status=404, response=MISSING)
    bundle = build_from(har.call("GET", "/users", response=[ada]), tmp_path / "capture.har")
    delete = plan(bundle, "DELETE", "/users/{user_id}")
    assert delete.served, delete.reason

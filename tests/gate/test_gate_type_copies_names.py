"""A member list showing each user as ``{id, username}`` (a group's members), or search hits showing
items as ``{id, title, score}``, holds copies of the entities it lists (type-copies
``copies.named-overlap``): a rename through ``PATCH /users/{id}`` changes what the list answers,
which serving would not do, so it is not served. Before, one member besides the identity was never
a copy (``copies.projection`` asks two, and members of the copy's own, a score, none): the rename
was served and the list went on answering the old name. Where the list shows ids beside a flag, a
text too short to name anything, or one every entity shares, nothing is a copy and the rename
stays served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime

USERS = [{"id": 1, "username": "alice", "email": "alice@example.com", "active": True},
         {"id": 2, "username": "bob", "email": "bob@example.com", "active": True},
         {"id": 3, "username": "carol", "email": "carol@example.com", "active": False}]


def capture(shown, users=USERS) -> HarBuilder:
    """Users and groups; each group's members as ``shown(user)``; a recorded rename of the second user."""
    har = HarBuilder().call("GET", "/users", response=users)
    for user in users:
        har.call("GET", f"/users/{user['id']}", response=user)
    har.call("GET", "/groups", response=[{"id": 1, "name": "editors"}, {"id": 2, "name": "admins"}])
    har.call("GET", "/groups/1/members", response=[shown(users[1]), shown(users[2])])
    har.call("GET", "/groups/2/members", response=[shown(users[0])])
    renamed = {**users[1], "username": "bobby"}
    return (har.call("PATCH", "/users/2", body={"username": "bobby"}, response=renamed)
            .call("GET", "/users/2", response=renamed)
            .call("GET", "/users", response=[users[0], renamed, users[2]]))


def test_a_rename_is_not_served_while_member_lists_show_the_name(tmp_path):
    bundle = build_from(capture(lambda u: {"id": u["id"], "username": u["username"]}), tmp_path / "capture.har")
    rename = plan(bundle, "PATCH", "/users/{user_id}")
    assert not rename.served and rename.reason == "side-effect", rename
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, _ = send(serving, "PATCH", "/users/3", {"username": "caroline"})
            assert status != 200
            status, members = send(serving, "GET", "/groups/1/members")
            assert status == 200 and [m["username"] for m in members] == ["bob", "carol"]
    finally:
        runtime.close()


def test_a_list_showing_a_flag_beside_the_id_copies_nothing(tmp_path):
    bundle = build_from(capture(lambda u: {"id": u["id"], "active": u["active"]}), tmp_path / "capture.har")
    assert plan(bundle, "PATCH", "/users/{user_id}").served


def test_texts_too_short_to_name_copy_nothing(tmp_path):
    """Users named by two letters: "al" beside id 1 in another list may agree by chance."""
    users = [{**user, "username": user["username"][:2]} for user in USERS]
    bundle = build_from(capture(lambda u: {"id": u["id"], "username": u["username"]}, users),
                        tmp_path / "capture.har")
    assert plan(bundle, "PATCH", "/users/{user_id}").served


def test_search_hits_showing_item_titles_hold_copies(tmp_path):
    items = [{"id": 1, "title": "Buy milk", "done": False}, {"id": 2, "title": "Walk dog", "done": True}]
    har = HarBuilder().call("GET", "/items", response=items)
    for item in items:
        har.call("GET", f"/items/{item['id']}", response=item)
    har.call("GET", "/search", query="q=a", response={"hits": [{"id": 1, "title": "Buy milk", "score": 0.9},
                                                                {"id": 2, "title": "Walk dog", "score": 0.4}]})
    renamed = {**items[0], "title": "Buy soy milk"}
    har.call("PATCH", "/items/1", body={"title": "Buy soy milk"}, response=renamed).call("GET", "/items/1", response=renamed)
    bundle = build_from(har, tmp_path / "capture.har")
    rename = plan(bundle, "PATCH", "/items/{item_id}")
    assert not rename.served and rename.reason == "side-effect", rename


def test_an_owner_every_entity_shows_copies_nothing(tmp_path):
    """Every user and every member shows the one owner's name: it names no entity."""
    users = [{**user, "owner": "administrator"} for user in USERS]
    bundle = build_from(capture(lambda u: {"id": u["id"], "owner": u["owner"], "role": "member"}, users),
                        tmp_path / "capture.har")
    assert plan(bundle, "PATCH", "/users/{user_id}").served

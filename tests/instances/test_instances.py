"""Instances of one bundle in one process (issue 14): each one an environment of its own, all
sharing one frozen base; on every store."""

from __future__ import annotations

import json

import pytest
from support.fleets import STORES, open_fleet_store

from capenv.serving.instances.fleet import InstanceFleet, UnknownInstance

pytestmark = pytest.mark.parametrize("store_url", STORES, indirect=True)

POST = {"title": "t", "author": "a", "views": 1, "published": True, "tags": ["x"]}


def posts(document: bytes) -> list[dict]:
    return next(c for c in json.loads(document)["collections"] if c["path"] == "/posts")["entities"]


def comment_ids(document: bytes) -> list:
    return [e["id"] for e in next(c for c in json.loads(document)["collections"] if c["path"] == "/comments")["entities"]]


def episode(runtime, title: str) -> list[dict]:
    """Creates, updates and deletes; the structured answers."""
    answers = [runtime.call_tool("post_posts", {"body": {**POST, "title": title}}).structured]
    new_id = str(answers[0]["body"]["id"])
    answers.append(runtime.call_tool("patch_posts_by_post_id", {"post_id": new_id, "body": {"views": 9}}).structured)
    answers.append(runtime.call_tool("delete_comments_by_comment_id", {"comment_id": "2"}).structured)
    answers.append(runtime.call_tool("post_comments", {"body": {"body": title, "postId": 1}}).structured)
    return answers


def test_a_new_instance_is_the_initial_state(fleet, template) -> None:
    first, second = fleet.create(), fleet.create()
    assert first != second and len(first) >= 20
    assert fleet.runtime(first).data_get() == fleet.runtime(second).data_get() == template.data_get()


def test_the_same_calls_on_two_fresh_instances_give_byte_identical_states(fleet, template) -> None:
    one, two, idle = fleet.create(), fleet.create(), fleet.create()
    answers_one = episode(fleet.runtime(one), "same")
    answers_two = episode(fleet.runtime(two), "same")
    assert answers_one == answers_two
    assert [a["status"] for a in answers_one] == [201, 200, 200, 201]
    assert fleet.runtime(one).data_get() == fleet.runtime(two).data_get() != template.data_get()
    assert fleet.runtime(idle).data_get() == template.data_get()  # the base was not changed through them


def test_an_instance_sees_only_its_own_writes(fleet, template) -> None:
    ids = [fleet.create() for _ in range(5)]
    for n, instance in enumerate(ids):
        episode(fleet.runtime(instance), f"mine-{n}")
    for n, instance in enumerate(ids):
        document = fleet.runtime(instance).data_get()
        titles = [p["value"]["title"] for p in posts(document)]
        assert [t for t in titles if t.startswith("mine-")] == [f"mine-{n}"]
        assert 2 not in comment_ids(document)
        listed = fleet.runtime(instance).call_tool("get_posts", {}).structured["body"]
        assert [p["title"] for p in listed if p["title"].startswith("mine-")] == [f"mine-{n}"]
    assert 2 in comment_ids(template.data_get())


def test_each_instance_keeps_its_own_idempotency_keys(fleet) -> None:
    one, two = fleet.create(), fleet.create()
    first = fleet.runtime(one).call_tool("post_posts", {"body": POST}, idempotency_key="k-1")
    other = fleet.runtime(two).call_tool("post_posts", {"body": {**POST, "title": "other"}}, idempotency_key="k-1")
    assert not first.is_error and not other.is_error  # the same key on another instance is another request
    again = fleet.runtime(one).call_tool("post_posts", {"body": POST}, idempotency_key="k-1")
    assert again.structured == first.structured
    assert len(posts(fleet.runtime(one).data_get())) == len(posts(fleet.runtime(two).data_get()))
    refused = fleet.runtime(one).call_tool("post_posts", {"body": {**POST, "title": "x"}}, idempotency_key="k-1")
    assert refused.is_error and "k-1" in refused.structured["message"]


def test_a_snapshot_gives_a_byte_identical_new_instance(fleet) -> None:
    source = fleet.create()
    episode(fleet.runtime(source), "snapped")
    taken = fleet.runtime(source).data_get()
    snapshot = fleet.snapshot(source)
    episode(fleet.runtime(source), "after")  # later writes to the source do not reach the snapshot
    copy = fleet.create(from_snapshot=snapshot)
    assert fleet.runtime(copy).data_get() == taken
    assert fleet.runtime(copy).data_get() != fleet.runtime(source).data_get()


def test_a_deleted_snapshot_is_gone_with_its_storage(fleet) -> None:
    snapshot = fleet.snapshot(fleet.create())
    fleet.delete_snapshot(snapshot)
    with pytest.raises(UnknownInstance, match="no snapshot"):
        fleet.create(from_snapshot=snapshot)
    with pytest.raises(UnknownInstance):
        fleet.delete_snapshot(snapshot)
    assert fleet.store.snapshot([fleet.registry.snapshot_type]) == {}
    assert fleet.store.history(fleet.registry.snapshot_type, snapshot) == []


def test_reset_brings_an_instance_back_to_the_initial_state_and_clock(fleet, template) -> None:
    instance, fresh = fleet.create(), fleet.create()
    runtime = fleet.runtime(instance)
    episode(runtime, "before")
    runtime.data_reset()
    assert runtime.data_get() == template.data_get()
    assert episode(runtime, "again") == episode(fleet.runtime(fresh), "again")


def test_reset_and_add_on_an_instance_that_never_wrote(fleet, template) -> None:
    instance, source = fleet.create(), fleet.create()
    episode(fleet.runtime(source), "added")
    document = fleet.runtime(source).data_get()
    runtime = fleet.runtime(instance)
    runtime.data_reset()
    runtime.prepare_reset()()  # the data plane's two steps
    assert runtime.data_get() == template.data_get()
    runtime.data_add(document)
    assert runtime.data_get() == document
    runtime.data_reset()
    assert runtime.data_get() == template.data_get()
    assert episode(runtime, "after") == episode(fleet.runtime(fleet.create()), "after")


def test_a_deleted_base_entity_stays_deleted(fleet) -> None:
    instance = fleet.create()
    runtime = fleet.runtime(instance)
    assert runtime.call_tool("delete_comments_by_comment_id", {"comment_id": "1"}).structured["status"] == 200
    assert 1 not in comment_ids(runtime.data_get())
    again = runtime.call_tool("get_comments_by_comment_id", {"comment_id": "1"}).structured
    assert again.get("status") != 200
    runtime.data_reset()
    assert 1 in comment_ids(runtime.data_get())


def test_delete_frees_the_instance_storage(fleet, template) -> None:
    keep, gone = fleet.create(), fleet.create()
    for instance in (keep, gone):
        episode(fleet.runtime(instance), "stored")
    own_types = fleet.instance_subjects(gone).all_types()
    assert fleet.store.snapshot(own_types)  # the instance's writes are held
    fleet.delete(gone)
    assert fleet.store.snapshot(own_types) == {}
    assert all(fleet.store.history(t, "meta") == [] for t in own_types)
    assert [i["id"] for i in fleet.instances()] == [keep]
    assert posts(fleet.runtime(keep).data_get())[-1]["value"]["title"] == "stored"
    with pytest.raises(UnknownInstance):
        fleet.runtime(gone)


def test_unknown_ids_are_refused_with_a_message(fleet) -> None:
    with pytest.raises(UnknownInstance, match="no instance 'nope'"):
        fleet.runtime("nope")
    with pytest.raises(UnknownInstance):
        fleet.snapshot("nope")
    with pytest.raises(UnknownInstance):
        fleet.delete("nope")
    with pytest.raises(UnknownInstance, match="no snapshot"):
        fleet.create(from_snapshot="nope")
    assert fleet.instances() == []


def test_an_idle_instance_expires(template, store_url) -> None:
    now = [1000.0]
    fleet = InstanceFleet(template, open_fleet_store(store_url), idle_seconds=60, clock=lambda: now[0])
    try:
        idle, busy = fleet.create(), fleet.create()
        episode(fleet.runtime(idle), "idle")
        now[0] += 45
        fleet.runtime(busy)
        now[0] += 30
        assert fleet.expire_idle() == [idle]
        assert [i["id"] for i in fleet.instances()] == [busy]
        assert fleet.store.snapshot(fleet.instance_subjects(idle).all_types()) == {}
    finally:
        fleet.close()

"""A collection's caches for calls naming ids it does not hold, and for copies nested in its
entities (``HeldCollection.key_facts``, ``HeldCollection.nesting``): kept by every edit, they must
stay what a fresh look at the collection says across creates, updates, deletes, data/reset and
data/add on either store, and the refusals they serve must be those a walk of the state gives."""

from __future__ import annotations


import pytest

from capenv.serving.runtime import EnvironmentRuntime
from support.installed_state import install_entities
from capenv.serving.state.edits import facts_of, hold_entity, insert_entity, nesting_keys, remove_entity
from capenv.serving.state.index import HeldCollection
from capenv.serving.state.key_facts import KeyFacts, id_shape


def assert_caches_right(runtime: EnvironmentRuntime) -> None:
    for collection in runtime._holder.working().collections.values():
        facts = facts_of(collection)
        fresh = KeyFacts.of(collection.ids, collection.order)
        assert facts.shapes == fresh.shapes, collection.path
        assert {k: set(v) for k, v in facts.by_spelling.items()} == {k: set(v) for k, v in fresh.by_spelling.items()}
        recount = HeldCollection(collection.path, collection.type, {}, entities=collection.entities)
        assert nesting_keys(collection) == nesting_keys(recount), collection.path


def store_url(kind: str, tmp_path) -> str | None:
    return f"sqlite:{tmp_path / 'state.db'}" if kind == "sqlite" else None


@pytest.mark.parametrize("kind", ["default", "sqlite"])
def test_the_caches_stay_right_across_writes_reset_and_data_add(json_server, tmp_path, kind) -> None:
    runtime = EnvironmentRuntime(json_server, store=store_url(kind, tmp_path))
    assert_caches_right(runtime)
    created = runtime.read("post_comments", {"body": {"body": "fresh words", "postId": 1}})
    assert created["status"] == 201, created
    assert runtime.read("delete_comments_by_comment_id", {"comment_id": "2"})["status"] < 300
    assert_caches_right(runtime)
    runtime.data_reset()
    assert_caches_right(runtime)
    install_entities(runtime, "/comments", [{"id": 1, "body": "a", "postId": 1, "meta": {"id": 5}},
                               {"id": 7, "body": "b", "postId": 1}])
    assert_caches_right(runtime)
    runtime.close()


def test_edits_keep_the_shapes_and_spellings() -> None:
    collection = HeldCollection("/things", "thing", {})
    insert_entity(collection, 1, {"id": 1}, 0)
    facts_of(collection)  # made now: every later edit keeps it
    nesting_keys(collection)
    insert_entity(collection, "AB-cd", {"id": "AB-cd", "tags": [{"id": 3}]}, 1)
    insert_entity(collection, 2 ** 60, {"id": 2 ** 60}, 2)
    hold_entity(collection, "1", {"id": 1, "owner": {"id": 9}})
    assert facts_of(collection).shapes == {"integer": 1, "other": 1, "inexact integer": 1}
    assert set(facts_of(collection).by_spelling["abcd"]) == {"AB-cd"}
    assert nesting_keys(collection) == {"AB-cd", "1"}
    remove_entity(collection, "AB-cd")
    hold_entity(collection, "1", {"id": 1})
    assert facts_of(collection).shapes == {"integer": 1, "inexact integer": 1}
    assert "abcd" not in facts_of(collection).by_spelling
    assert nesting_keys(collection) == set()


@pytest.mark.parametrize(("value", "shape"), [
    (7, "integer"), ("-12", "integer"), ("007", "other"), (2 ** 53, "inexact integer"),
    ("3f000000-0000-4000-8000-000000000004", "uuid"), (None, None), (True, None), ("1.0", "other")])
def test_id_shapes(value, shape) -> None:
    assert id_shape(value) == shape


@pytest.mark.parametrize("kind", ["default", "sqlite"])
def test_other_spellings_and_shapes_are_refused_after_writes(json_server, tmp_path, kind) -> None:
    runtime = EnvironmentRuntime(json_server, store=store_url(kind, tmp_path))
    created = runtime.read("post_comments", {"body": {"body": "more words", "postId": 1}})
    new_id = created["body"]["id"]
    spelled = runtime.read("get_comments_by_comment_id", {"comment_id": f"0{new_id}"})
    assert spelled.get("error") == "refused" and f'"{new_id}"' in spelled["message"], spelled
    assert runtime.read("delete_comments_by_comment_id", {"comment_id": str(new_id)})["status"] < 300
    gone = runtime.read("get_comments_by_comment_id", {"comment_id": f"0{new_id}"})
    assert f'"{new_id}" is' not in gone.get("message", ""), gone  # the deleted id no longer spells it
    unshaped = runtime.read("get_comments_by_comment_id", {"comment_id": "abc"})
    assert unshaped.get("error") == "refused" and "integers" in unshaped["message"], unshaped
    runtime.close()


def test_a_copy_nested_in_an_entity_written_since_is_found(json_server) -> None:
    runtime = EnvironmentRuntime(json_server)
    install_entities(runtime, "/comments", [{"id": 1, "body": "a", "postId": 1}, {"id": 2, "body": "b", "postId": 1}])
    working = runtime._holder.working()
    nesting_keys(working.collections["/comments"])  # made before the copy is held
    install_entities(runtime, "/comments", [{"id": 1, "body": "a", "postId": 1},
                               {"id": 2, "body": "b", "postId": 1, "reply_to": {"id": 1, "body": "a"}}])
    refused = runtime.read("patch_comments_by_comment_id", {"comment_id": "1", "body": {"body": "changed"}})
    assert refused.get("error") == "refused" and "copy" in refused["message"], refused
    served = runtime.read("patch_comments_by_comment_id", {"comment_id": "2", "body": {"body": "changed"}})
    assert served["status"] == 200, served
    runtime.close()


def test_inserting_a_held_key_moves_it_rather_than_listing_it_twice() -> None:
    # the gate's copy takes a read's entity with insert_entity when the read named it by another key
    # member than its id: listed twice, a later delete left it in the order without its entity
    collection = HeldCollection("/limits", "limits", {})
    for key in ("a", "b", "c"):
        insert_entity(collection, key, {"id": key}, len(collection.order))
    insert_entity(collection, "a", {"id": "a", "seen": True}, len(collection.order))
    assert collection.order == ["b", "c", "a"] and collection.entities["a"]["seen"]
    remove_entity(collection, "a")
    assert collection.order == ["b", "c"] and "a" not in collection.entities

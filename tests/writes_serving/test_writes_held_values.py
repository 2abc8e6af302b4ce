"""The values a generated UUID skips (write-effects "Clock and generators"): each collection
keeps an index of the values its entities hold per field (``HeldCollection.held_values``),
which every edit keeps right — creates, updates, deletes, data/reset, data/add and another
process's writes caught up — so a create draws exactly what a walk of the whole state would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.capture_runs import build_from, items_app
from write_calls import accepted, document

from capenv.serving.ops.generated_ids import derive_uuid
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.state.edits import values_held
from capenv.serving.state.index import HeldCollection

A, B = "1b4e28ba-2fa1-41d2-883f-0016d3cca427", "6f1c2d3e-1111-4000-8000-000000000002"
NEW = "9c5b94b1-35ad-49bb-b118-8e8fc24abf80"
ITEMS = [{"id": A, "title": "t1"}, {"id": B, "title": "t1"}]  # a title held twice: creates may repeat one


@pytest.fixture(scope="module")
def bundle():
    """Items with UUID ids: a create draws the id; an update changes the title; a delete."""
    return build_from(items_app(ITEMS)
                      .call("POST", "/items", body={"title": "n"}, status=201, response={"id": NEW, "title": "n"})
                      .call("GET", f"/items/{NEW}", response={"id": NEW, "title": "n"})
                      .call("PATCH", f"/items/{A}", body={"title": "u"}, response={"id": A, "title": "u"})
                      .call("GET", f"/items/{A}", response={"id": A, "title": "u"})
                      .call("DELETE", f"/items/{B}", status=204)
                      .call("GET", f"/items/{B}", status=404, response={"error": "not found"})
                      .call("GET", "/items", response=[{"id": A, "title": "u"}, {"id": NEW, "title": "n"}]))


def drawn(runtime: EnvironmentRuntime, counter: int, held: tuple[str, ...] = ()) -> str:
    """The UUID the create that is the ``counter``-th served write draws while ``held`` is held."""
    return derive_uuid(document(runtime)["evidence_id"], "post_items", "id", counter, set(held))


def create(runtime: EnvironmentRuntime, title: str = "n") -> str:
    return accepted(runtime, "post_items", {"body": {"title": title}})["state"]["id"]


def install(runtime: EnvironmentRuntime, ids: list[str]) -> None:
    state = document(runtime)
    items = next(c for c in state["collections"] if c["path"] == "/items")
    items["entities"] = [{"id": i, "value": {"id": i, "title": "x"}, "records": []} for i in ids]
    runtime.data_add(json.dumps(state).encode())


def assert_index_right(runtime: EnvironmentRuntime, *fields: str) -> None:
    """Every collection's index (``fields`` indexed first, when not yet) equals a fresh count."""
    for collection in runtime._holder.working().collections.values():
        for name in fields:
            values_held(collection, name)
        assert collection.held_values, collection.path
        for name, counts in collection.held_values.items():
            recount = HeldCollection(collection.path, collection.type, {}, entities=collection.entities)
            assert counts == values_held(recount, name), (collection.path, name)


def test_the_index_stays_right_across_creates_updates_deletes_reset_and_data_add(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    assert_index_right(runtime, "id", "title")
    made = [create(runtime, "a"), create(runtime, "A")]  # "a" is counted under its own and its lower case
    accepted(runtime, "patch_items_by_item_id", {"item_id": A, "body": {"title": "a"}})
    accepted(runtime, "delete_items_by_item_id", {"item_id": made[0]})
    accepted(runtime, "delete_items_by_item_id", {"item_id": B})
    assert_index_right(runtime)
    titles = runtime._holder.working().collections["/items"].held_values["title"]
    # a string counts once as written and once lower-cased: A's "a" twice, the second create's "A" under each
    assert titles == {"a": 3, "A": 1}
    runtime.data_reset()
    assert_index_right(runtime, "id", "title")
    install(runtime, [A, NEW])
    create(runtime)
    assert_index_right(runtime, "title")


def test_a_create_skips_a_value_data_add_installed_and_draws_one_a_delete_freed(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    create(runtime)  # the index of ids is built
    install(runtime, [drawn(runtime, 1)])
    assert create(runtime) == drawn(runtime, 1, (drawn(runtime, 1),)) != drawn(runtime, 1)
    install(runtime, [drawn(runtime, 3)])
    create(runtime)  # served write 1 builds the index of ids again
    accepted(runtime, "delete_items_by_item_id", {"item_id": drawn(runtime, 3)})  # served write 2
    assert create(runtime) == drawn(runtime, 3)  # no longer held: not skipped


def test_a_create_skips_a_value_another_process_installed(bundle, tmp_path: Path) -> None:
    url = f"sqlite:{tmp_path / 'state.sqlite'}"
    first, second = EnvironmentRuntime(bundle, store=url), EnvironmentRuntime(bundle, store=url)
    try:
        create(second)  # the second process builds its index of ids
        install(first, [drawn(first, 1), A])
        assert create(second) == drawn(second, 1, (drawn(second, 1),)) != drawn(second, 1)
        assert_index_right(second, "id", "title")
        accepted(first, "patch_items_by_item_id", {"item_id": A, "body": {"title": "u"}})
        accepted(first, "delete_items_by_item_id", {"item_id": drawn(first, 1)})
        create(second, "m")  # catches up on both writes first
        assert_index_right(second)
        assert set(second._holder.working().collections["/items"].held_values["title"]) == {"u", "n", "m"}
    finally:
        first.close()
        second.close()

"""How far a write no built plan models reaches below an item path (write-effects, "The gate":
"Below an item path: the named entity is unknown until a read shows it again. When the path names
no held entity, every entity of that collection is unknown"). Unknown entities are still checked,
and so is their collection: only a write at or above the collection path stops its checks."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan


def test_a_write_naming_no_held_entity_leaves_the_collection_checked():
    # the list after the create still checks it: the collection is not "not checked again"
    bundle = build_from(items_app()
                        .call("PATCH", "/items/name/x", body={"title": "q"}, status=204)             # 4: no plan
                        .call("POST", "/items", body={"title": "c"}, status=201,
                              response={"id": 3, "title": "c"})                                       # 5
                        .call("GET", "/items/3", response={"id": 3, "title": "c"})                   # 6: observation
                        .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"},
                                                         {"id": 3, "title": "c"}]))                   # 7
    create = plan(bundle, "POST", "/items")
    assert create.served and 7 in create.checked_record_ordinals, (create.reason, create.checked_record_ordinals)


def test_a_write_naming_no_held_entity_traces_every_entity_unknown():
    bundle = build_from(items_app().call("PATCH", "/items/name/x", body={"title": "q"}, status=204))
    event = next(e for e in bundle.view.traces if e.subject == "record 4")
    assert event.evidence["unknown"] == ["name", "1", "2"] and "every entity of /items is unknown" in event.reason


def _update_after(unmodelled_path: str):
    builder = items_app()
    builder.call("PATCH", unmodelled_path, body={"title": "q"}, status=500, response={"error": "boom"})   # 4
    builder.call("PATCH", "/items/1", body={"title": "a"}, status=200, response={"id": 1, "title": "a"})  # 5
    builder.call("GET", "/items/1", response={"id": 1, "title": "a"})                                    # 6
    builder.call("PATCH", "/items/2", body={"title": "n"}, status=200, response={"id": 2, "title": "n"})  # 7
    builder.call("GET", "/items/2", response={"id": 2, "title": "other"})                                # 8
    return plan(build_from(builder), "PATCH", "/items/{item_id}")


def test_a_write_naming_a_held_entity_leaves_the_others_known():
    # must not: only item 1 is unknown, so the update of item 2 is checked and read 8 contradicts it
    update = _update_after("/items/1")
    assert (update.served, update.contradicted_by) == (False, 8), update.reason


@pytest.mark.parametrize("path", ["/items/name/x", "/items/99"])
def test_a_write_naming_no_held_entity_makes_the_others_unknown(path):
    # every item is unknown: the updates take their recorded outcome, so read 8 contradicts nothing
    update = _update_after(path)
    assert update.contradicted_by is None and update.reason == "unconfirmed", (update.reason, update.contradicted_by)

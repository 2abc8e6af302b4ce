"""What a write no built plan models may have changed, beyond where its path lies (write-effects,
"The gate", "Writes"; the ``gate-reach`` table).

A write at a collection path leaves that collection's lists unchecked; its entities are unknown
until a read shows each again, so a later write to one of them is still checked. A call that
answered 201 Created made new entities and reached only the held ones it names by id; one naming a
held entity, or answering otherwise, still reaches it and the write after it stays unconfirmed."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan
from support.har_builder import HarBuilder


def _update_after(call: dict) -> object:
    """An unmodelled write (record 4), then an update of item 2 (5) that a read confirms (6)."""
    builder = items_app()
    builder.call(**call)                                                                                   # 4
    builder.call("PATCH", "/items/2", body={"title": "n"}, status=200, response={"id": 2, "title": "n"})  # 5
    builder.call("GET", "/items/2", response={"id": 2, "title": "n"})                                    # 6
    builder.call("PATCH", "/items/1", body={"title": "m"}, status=200, response={"id": 1, "title": "m"})  # 7
    builder.call("GET", "/items/1", response={"id": 1, "title": "m"})                                    # 8
    return plan(build_from(builder), "PATCH", "/items/{item_id}")


def _insert(rows: list[dict], status: int = 201) -> dict:
    return {"method": "POST", "path": "/items/-/insert", "body": {"rows": rows}, "status": status,
            "response": {"ok": True}}


def test_an_insert_naming_no_held_entity_leaves_them_known():
    # a multi-row insert with no ids answered 201: it made new items and touched none of the held
    update = _update_after(_insert([{"title": "c"}, {"title": "d"}]))
    assert update.served and 6 in update.checked_record_ordinals, (update.reason, update.checked_record_ordinals)


def test_an_insert_naming_a_held_entity_reaches_it():
    # must not: the row names item 2 (a replace): item 2 is unknown, its update takes the recorded
    # outcome; item 1 is not named, so its update is still checked
    update = _update_after(_insert([{"id": 2, "title": "r"}]))
    assert list(update.checked_record_ordinals) == [8], \
        update.checked_record_ordinals
    assert any("record 5: an update of an unknown entity" in str(e.reason) for e in update.traces)


@pytest.mark.parametrize("status", [200, 500])
def test_a_call_not_answered_created_reaches_every_held_entity(status):
    # must not: nothing shows the call only made entities, so both updates are of unknown items
    update = _update_after(_insert([{"title": "c"}], status=status))
    assert not update.served and update.reason == "unconfirmed", (update.reason, update.checked_record_ordinals)


def test_the_reach_event_says_which_entities_it_could_not_touch():
    bundle = build_from(items_app().call(**_insert([{"id": 2, "title": "r"}, {"title": "s"}])))
    event = next(e for e in bundle.view.traces if e.subject == "record 4" and e.table == "gate")
    assert event.evidence["unknown"] == ["-", "2"], event.evidence
    assert "names held items '2' by id or a string of theirs (reach.created-names-held)" in event.reason, event.reason
    assert "the other 1 it could not have touched" in event.reason, event.reason
    rule = next(e for e in bundle.view.traces if e.table == "gate-reach")
    assert rule.rule_id == "reach.created-names-held" and rule.outcome == "match"


def _delete_after(call: dict) -> object:
    builder = items_app()
    builder.call(**call)                                                            # 4: at the collection path
    builder.call("GET", "/items/1", response={"id": 1, "title": "t1"})              # 5: shows item 1 again
    builder.call("DELETE", "/items/1", status=204)                                  # 6
    builder.call("GET", "/items/1", status=404, response={"error": "not found"})   # 7
    return plan(build_from(builder), "DELETE", "/items/{item_id}")


def test_a_write_at_the_collection_path_leaves_item_reads_checked():
    # its lists are not checked again, but an item read shows an entity again: the delete after it is confirmed
    delete = _delete_after({"method": "PUT", "path": "/items", "body": {"order": "title"}, "status": 500,
                            "response": {"error": "boom"}})
    assert delete.served and 7 in delete.checked_record_ordinals, (delete.reason, delete.checked_record_ordinals)


def test_a_write_at_the_collection_path_makes_its_entities_unknown():
    # must not: item 2 is unknown after the write at /items, so its update takes the recorded outcome
    update = _update_after({"method": "PUT", "path": "/items", "body": {"order": "title"}, "status": 500,
                            "response": {"error": "boom"}})
    assert not update.served and update.reason == "unconfirmed", (update.reason, update.checked_record_ordinals)
    bundle = build_from(items_app().call("PUT", "/items", body={"order": "title"}, status=500,
                                         response={"error": "boom"}))
    event = next(e for e in bundle.view.traces if e.subject == "record 4" and e.table == "gate")
    assert event.evidence["unchecked"] == ["/items"] and event.evidence["unknown"] == ["1", "2"], event.evidence


def _token_update_after_bulk_create(usernames: list[str]) -> object:
    """Users with tokens; a bulk create of users at /users (record 10, answered 201), then an update
    of ada's token a2 (11) that a read confirms (12)."""
    users = [{"name": "ada", "admin": True}, {"name": "bob", "admin": False}, {"name": "cy", "admin": False}]
    builder = HarBuilder().call("GET", "/users", response=users)                                        # 1
    for user in users:
        builder.call("GET", f"/users/{user['name']}", response=user)                                   # 2-4
    token = {"id": "a2", "user": "ada", "note": "laptop"}
    other = {"id": "a5", "user": "bob", "note": "ci"}
    (builder.call("GET", "/users/ada/tokens", response=[token])                                       # 5
     .call("GET", "/users/bob/tokens", response=[other])                                              # 6
     .call("GET", "/users/ada/tokens/a2", response=token)                                             # 7
     .call("GET", "/users/bob/tokens/a5", response=other)                                             # 8
     .call("PATCH", "/users/bob/tokens/a5", body={"note": "nightly"}, response={**other, "note": "nightly"})  # 9
     .call("POST", "/users", body={"usernames": usernames}, status=201,
           response=[{"name": name, "admin": False} for name in usernames])                          # 10
     .call("PATCH", "/users/ada/tokens/a2", body={"note": "desk"}, response={**token, "note": "desk"})  # 11
     .call("GET", "/users/ada/tokens/a2", response={**token, "note": "desk"}))                       # 12
    return plan(build_from(builder), "PATCH", "/users/{user_id}/tokens/{token_id}")


def test_a_create_above_a_collection_naming_none_of_its_holders_leaves_its_entities_known():
    update = _token_update_after_bulk_create(["zed", "yan"])
    assert update.served and 12 in update.checked_record_ordinals, (update.reason, update.checked_record_ordinals)


def test_a_create_above_a_collection_naming_its_holder_reaches_every_entity_there():
    # must not: the call names ada, under whom the tokens lie (it may have replaced her): a2 is unknown
    update = _token_update_after_bulk_create(["ada", "zed"])
    assert 12 not in update.checked_record_ordinals, update.checked_record_ordinals
    assert any("record 11: an update of an unknown entity" in str(e.reason) for e in update.traces)


def _directory_update_after_upload(path: str) -> object:
    """A file store whose ids are paths (``docs`` holds ``docs/b.txt``); an upload no plan models
    (record 5, answered 201 with no body), then an update of ``docs`` (6) that a read confirms (7)."""
    docs = {"name": "docs", "key": "docs", "size": 0, "text": ""}
    b = {"name": "b.txt", "key": "docs/b.txt", "size": 3, "text": "two"}
    a = {"name": "a.txt", "key": "a.txt", "size": 3, "text": "one"}
    builder = (HarBuilder()
               .call("GET", "/files/a.txt", response=a)                                       # 1
               .call("GET", "/files/docs", response=docs)                                     # 2
               .call("GET", "/files/docs/b.txt", response=b)                                  # 3
               .call("GET", "/files/docs/sub/c.txt", status=404, response={"message": "no"})  # 4
               .call("PUT", path, body={"text": "new"}, status=201)                            # 5
               .call("PATCH", "/files/docs", body={"text": "d2"}, response={**docs, "text": "d2"})  # 6
               .call("GET", "/files/docs", response={**docs, "text": "d2"}))                  # 7
    return plan(build_from(builder), "PATCH", "/files/{file_id}")


def test_an_upload_beside_a_directory_leaves_it_known():
    update = _directory_update_after_upload("/files/z.txt")
    assert update.served and 7 in update.checked_record_ordinals, (update.reason, update.checked_record_ordinals)


def test_an_upload_into_a_directory_reaches_the_directory():
    # must not: a path-like id lies below its directory's item path, which it may have changed (its clocks)
    update = _directory_update_after_upload("/files/docs/new.txt")
    assert 7 not in update.checked_record_ordinals, (update.reason, update.checked_record_ordinals)


def test_an_insert_naming_a_held_entity_by_a_long_string_of_its_reaches_it():
    # must not: an upsert by a natural key (the title) answered 201 may have changed the row it names
    builder = items_app([{"id": 1, "title": "the first title"}, {"id": 2, "title": "the second title"}])
    builder.call(**_insert([{"title": "the second title", "views": 9}]))                                # 4
    builder.call("PATCH", "/items/2", body={"title": "n"}, status=200, response={"id": 2, "title": "n"})  # 5
    builder.call("GET", "/items/2", response={"id": 2, "title": "n"})                                    # 6
    update = plan(build_from(builder), "PATCH", "/items/{item_id}")
    assert not update.served and update.reason == "unconfirmed", (update.reason, update.checked_record_ordinals)


def _broken_create(status: int, request_type: str = "application/json") -> dict:
    return {"method": "POST", "path": "/items", "body": '{"title": "no closing brace"', "status": status,
            "request_type": request_type, "response": {"message": "Unexpected end of JSON input"}}


@pytest.mark.parametrize("status", [500, 502])
def test_a_call_refused_for_a_body_that_is_not_json_leaves_held_entities_known(status):
    # a body parser turned it away (Koa's answers 500; a 4xx is no write at all) before anything read what it asked
    update = _update_after(_broken_create(status))
    assert update.served and 6 in update.checked_record_ordinals, (update.reason, update.checked_record_ordinals)
    bundle = build_from(items_app().call(**_broken_create(status)))
    event = next(e for e in bundle.view.traces if e.subject == "record 4" and e.table == "gate")
    assert f"it answered {status} to a body that is not JSON" in event.reason, event.reason
    assert "(reach.unparsed-body-names-held)" in event.reason, event.reason


def test_a_server_error_on_a_body_declared_otherwise_reaches_every_held_entity():
    # must not: a text body is no JSON that failed to parse: nothing shows the application did not read it
    update = _update_after(_broken_create(500, request_type="text/plain"))
    assert not update.served and update.reason == "unconfirmed", (update.reason, update.checked_record_ordinals)


def test_a_broken_body_naming_a_held_entity_in_its_query_reaches_it():
    # must not: its query names item 2, which it may have changed
    update = _update_after({**_broken_create(500), "path": "/items", "query": [("id", "2")]})
    assert list(update.checked_record_ordinals) == [8], update.checked_record_ordinals


def _update_after_failed_create(failed: dict) -> object:
    """A create of item 3 (record 4, answered 201, read back 5), then a call of the same create tool
    answered 500 (6: an application answering its validation errors so), then updates of items 2
    (7, read back 8) and 1 (9, read back 10)."""
    builder = items_app()
    builder.call("POST", "/items", body={"title": "c"}, status=201, response={"id": 3, "title": "c"})     # 4
    builder.call("GET", "/items/3", response={"id": 3, "title": "c"})                                    # 5
    builder.call("POST", "/items", body=failed, status=500, response={"message": "title must be a string"})  # 6
    builder.call("PATCH", "/items/2", body={"title": "n"}, status=200, response={"id": 2, "title": "n"})  # 7
    builder.call("GET", "/items/2", response={"id": 2, "title": "n"})                                    # 8
    builder.call("PATCH", "/items/1", body={"title": "m"}, status=200, response={"id": 1, "title": "m"})  # 9
    builder.call("GET", "/items/1", response={"id": 1, "title": "m"})                                    # 10
    return build_from(builder)


def test_a_create_tools_failed_call_naming_no_held_entity_leaves_them_known():
    bundle = _update_after_failed_create({"title": 7})
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and {8, 10} <= set(update.checked_record_ordinals), \
        (update.reason, update.checked_record_ordinals)
    event = next(e for e in bundle.view.traces if e.subject == "record 6" and e.table == "gate")
    assert "it is a create tool's call answered 500" in event.reason, event.reason
    assert "(reach.failed-create-names-held)" in event.reason, event.reason


def test_a_create_tools_failed_call_naming_a_held_entity_reaches_it():
    # must not: its body names item 2 (a parent it may have changed): item 2 is unknown, item 1 still checked
    update = plan(_update_after_failed_create({"title": 7, "parent": 2}), "PATCH", "/items/{item_id}")
    assert 8 not in update.checked_record_ordinals and 10 in update.checked_record_ordinals, \
        update.checked_record_ordinals

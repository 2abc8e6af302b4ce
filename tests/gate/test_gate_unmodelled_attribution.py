"""Attribution around unmodelled writes (write-effects, "The gate", "Attribution"): a mismatch
contradicts each exercised write that no unmodelled write came after its latest call on the read's
entities or collections where its effect survives; for a failed list the unmodelled write must
also follow the last check and pending writes of each member that differs."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

BOOM = {"status": 500, "response": {"error": "boom"}}


def _update_and_failed_write(read_first: bool):
    builder = items_app().call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})   # 4
    differing = ("GET", "/items/1")
    if read_first:
        builder.call(*differing, response={"id": 1, "title": "y"})                                          # 5
        builder.call("PUT", "/items/1", body={"title": "z"}, **BOOM)                                         # 6
    else:
        builder.call("PUT", "/items/1", body={"title": "z"}, **BOOM)                                         # 5
        builder.call(*differing, response={"id": 1, "title": "y"})                                          # 6
    return build_from(builder)


def test_a_read_that_differs_after_a_5xx_write_of_another_tool_on_the_entity_contradicts_nothing():
    update = plan(_update_and_failed_write(read_first=False), "PATCH", "/items/{item_id}")
    assert update.contradicted_by is None and update.reason == "unconfirmed"


def test_the_same_read_before_the_5xx_write_contradicts_the_update():
    update = plan(_update_and_failed_write(read_first=True), "PATCH", "/items/{item_id}")
    assert (update.reason, update.contradicted_by) == ("contradicted", 5)


def test_an_older_unmodelled_change_elsewhere_does_not_excuse_a_newer_write_the_list_shows_undone():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/2", body={"title": "t2"}, **BOOM)                              # 4
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})   # 5
                        .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert (update.reason, update.contradicted_by) == ("contradicted", 6)


def _update_taint_update(listed_1: str, listed_2: str):
    # the tool's call on item 2 came before the 5xx write there, its call on item 1 after it
    return (items_app()
            .call("PATCH", "/items/2", body={"title": "y"}, response={"id": 2, "title": "y"})     # 4
            .call("PUT", "/items/2", body={"title": "w"}, **BOOM)                                 # 5
            .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})     # 6
            .call("GET", "/items", response=[{"id": 1, "title": listed_1}, {"id": 2, "title": listed_2}]))


def test_a_list_showing_undone_a_write_made_after_the_unmodelled_write_contradicts_it():
    update = plan(build_from(_update_taint_update("t1", "y")), "PATCH", "/items/{item_id}")
    assert (update.reason, update.contradicted_by) == ("contradicted", 7)


def test_a_list_differing_only_where_the_unmodelled_write_came_last_contradicts_nothing_and_is_not_checked_again():
    builder = (_update_taint_update("x", "w")                                                     # 7
               .call("POST", "/feedback", body={"text": "hi"}, **BOOM)                            # 8: elsewhere
               .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "w"}]))
    update = plan(build_from(builder), "PATCH", "/items/{item_id}")
    assert update.contradicted_by is None, update.reason
    # read 9 shows the update undone, but the list is not checked again
    assert update.contradicted_by is None and update.reason == "unconfirmed"


def test_a_list_including_a_tainted_entity_still_confirms_what_it_shows():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/2", body={"title": "t2"}, **BOOM)                              # 4
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})   # 5
                        .call("GET", "/items", response=[{"id": 1, "title": "x"}, {"id": 2, "title": "t2"}]))
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.served and update.checked_record_ordinals == (6,)


def _failed_update_then_delete(status: int, response):
    return build_from(items_app()
                      .call("PATCH", "/items/2", body={"title": "y"}, **BOOM)                      # 4: item 2 unknown
                      .call("DELETE", "/items/2", status=204)                                     # 5
                      .call("GET", "/items/2", status=status, response=response))                 # 6


def test_an_item_read_of_an_unknown_entity_checks_a_write_made_since_the_unmodelled_one_as_usual():
    delete = plan(_failed_update_then_delete(200, {"id": 2, "title": "t2"}), "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 6)


def test_an_item_read_of_an_unknown_entity_confirms_a_write_made_since_the_unmodelled_one():
    delete = plan(_failed_update_then_delete(404, {"error": "not found"}), "DELETE", "/items/{item_id}")
    assert delete.served and delete.checked_record_ordinals == (6,)

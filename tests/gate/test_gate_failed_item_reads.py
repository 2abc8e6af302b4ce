"""A failed item read with a create exercised (write-effects, "The gate", "Attribution": "A failed
item read with no such unmodelled write contradicts the writes that changed the whole entity…"):
the create is contradicted, and each exercised update is checked on the fields its effect holds."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary

C = {"id": 3, "title": "c"}


def _create_update_read(update_response, read, entities=None, created=None):
    # the exemplar's create is linked and confirmed by read 5; its second call (6) is the one exercised
    return build_from(items_app(entities)
                      .call("POST", "/items", body={"title": "c"}, status=201, response=created or C)      # 4
                      .call("GET", "/items/3", response=created or C)                                    # 5
                      .call("POST", "/items", body={"title": "e"}, status=201,
                            response={**(created or C), "id": 4, "title": "e"})                         # 6
                      .call("PATCH", "/items/4", body={"title": "d"}, response=update_response)          # 7
                      .call("GET", "/items/4", response=read))                                          # 8


def test_an_update_whose_fields_show_as_the_copy_holds_them_is_confirmed_while_the_create_is_contradicted():
    # the read shows a field nothing sent: the create's entity lacked it, the update's title holds
    bundle = _create_update_read({"id": 4, "title": "d"}, {"id": 4, "title": "d", "owner": "ann"})
    create, update = plan(bundle, "POST", "/items"), plan(bundle, "PATCH", "/items/{item_id}")
    assert (create.reason, create.contradicted_by) == ("contradicted", 8), summary(bundle)
    assert update.contradicted_by is None and update.checked_record_ordinals == (8,), summary(bundle)


def test_an_update_whose_answer_shows_a_field_the_entity_lacks_is_not_served():
    # the created entity holds no owner, which the update's answer shows: serving refuses that call
    # (its answer would lack owner), and so does the gate: a call the plan does not explain, not a
    # contradiction; no entity holds owner, so the update is refused as incomplete-entities
    bundle = _create_update_read({"id": 4, "title": "d", "owner": "bob"}, {"id": 4, "title": "d", "owner": "ann"})
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert (update.served, update.reason, update.contradicted_by) == (False, "incomplete-entities", None), \
        summary(bundle)


def test_a_field_the_read_and_the_updates_answer_both_show_is_its_change_and_excuses_the_create():
    bundle = _create_update_read({"id": 4, "title": "d", "owner": "ann"}, {"id": 4, "title": "d", "owner": "ann"})
    create, update = plan(bundle, "POST", "/items"), plan(bundle, "PATCH", "/items/{item_id}")
    assert create.contradicted_by is None, summary(bundle)
    # the update's effect does not hold owner: the read neither confirms nor contradicts it
    assert update.contradicted_by is None and 8 not in update.checked_record_ordinals, summary(bundle)


def test_a_difference_on_a_field_the_copy_holds_that_no_update_wrote_contradicts_every_write():
    entities = [{"id": 1, "title": "t1", "done": False}, {"id": 2, "title": "t2", "done": False}]
    bundle = _create_update_read({"id": 4, "title": "d", "done": False}, {"id": 4, "title": "d", "done": True},
                                 entities, {"id": 3, "title": "c", "done": False})
    create, update = plan(bundle, "POST", "/items"), plan(bundle, "PATCH", "/items/{item_id}")
    assert create.contradicted_by == 8 and update.contradicted_by == 8, summary(bundle)


def test_without_a_create_exercised_every_exercised_update_is_contradicted():
    bundle = build_from(items_app()
                        .call("PATCH", "/items/1", body={"title": "x"}, response={"id": 1, "title": "x"})
                        .call("GET", "/items/1", response={"id": 1, "title": "x", "owner": "ann"}))
    assert plan(bundle, "PATCH", "/items/{item_id}").contradicted_by == 5, summary(bundle)

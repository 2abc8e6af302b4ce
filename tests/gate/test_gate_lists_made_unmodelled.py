"""A failed list whose only difference is members an unmodelled write made (write-effects, "The
gate", "Attribution"; ``gate/excuses._made_unmodelled``): a batch create no plan models answers the
ids it made, and a later whole list shows them beside a modelled delete's effect. The list
contradicts none of the exercised writes, unless a differing member is one the copy holds or the
batch's answer does not name."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

MADE = [{"id": 7, "title": "b1"}, {"id": 8, "title": "b2"}]


def _batch_then_delete(batch_answer, listed):
    return build_from(items_app()
                      .call("POST", "/items/batch_create", body=[{"title": "b1"}, {"title": "b2"}], status=201,
                            response=batch_answer)                                                       # 4
                      .call("DELETE", "/items/2", status=204)                                            # 5
                      .call("GET", "/items/2", status=404, response={"error": "not found"})              # 6
                      .call("GET", "/items", response=listed))                                           # 7


def test_a_list_showing_what_the_batch_answered_it_made_contradicts_no_exercised_delete():
    delete = plan(_batch_then_delete(MADE, [{"id": 1, "title": "t1"}, *MADE]), "DELETE", "/items/{item_id}")
    assert delete.served and delete.contradicted_by is None and 6 in delete.checked_record_ordinals


def test_a_member_the_batch_did_not_name_still_contradicts_the_delete():
    listed = [{"id": 1, "title": "t1"}, *MADE, {"id": 9, "title": "other"}]
    delete = plan(_batch_then_delete(MADE, listed), "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 7)


def test_a_held_member_shown_otherwise_still_contradicts_the_delete():
    listed = [{"id": 1, "title": "changed"}, *MADE]
    delete = plan(_batch_then_delete(MADE, listed), "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 7)


def test_a_delete_the_list_shows_undone_is_still_contradicted():
    listed = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}, *MADE]
    delete = plan(_batch_then_delete(MADE, listed), "DELETE", "/items/{item_id}")
    assert (delete.reason, delete.contradicted_by) == ("contradicted", 7)

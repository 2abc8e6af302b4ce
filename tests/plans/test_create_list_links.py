"""A create linked through the first list read of the collection its own path names
(``write-create-links``): no item read names the new id before another tool writes, so only the
list says whose id the answer carries (doccano's span types, created in a row and listed once)."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary

C, D = {"id": 3, "title": "c"}, {"id": 4, "title": "d"}
A, B = {"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}


def _creates_then(*calls, answers=(C, D)):
    """items_app (records 1-3), two creates (4, 5) answering ``answers``, then ``calls``."""
    builder = items_app()
    for answer in answers:
        builder.call("POST", "/items", body={"title": answer["title"]}, status=201, response=answer)
    for method, path, keywords in calls:
        builder.call(method, path, **keywords)
    return build_from(builder)


EDIT = ("PATCH", "/items/3", dict(body={"title": "cc"}, response={"id": 3, "title": "cc"}))
READ_EDITED = ("GET", "/items/3", dict(response={"id": 3, "title": "cc"}))


def test_the_next_list_of_its_collection_links_a_create_no_item_read_links():
    bundle = _creates_then(("GET", "/items", dict(response=[A, B, C, D])), EDIT, READ_EDITED)
    create = plan(bundle, "POST", "/items")
    assert create.build_reason is None, [t.reason for t in create.traces if t.reason]
    assert any(t.rule_id == "create-link.own-collection-list" and t.outcome == "match" for t in create.traces)
    assert create.served and 6 in create.checked_record_ordinals, summary(bundle)
    assert plan(bundle, "PATCH", "/items/{item_id}").served, summary(bundle)


def test_a_list_not_showing_the_id_links_nothing():
    bundle = _creates_then(("GET", "/items", dict(response=[A, B])), EDIT, READ_EDITED)
    assert plan(bundle, "POST", "/items").build_reason == "no-observation"


def test_another_tools_write_before_the_list_links_nothing():
    """An import between the creates and the list may have made what the list shows."""
    bundle = _creates_then(("POST", "/import", dict(body={"n": 1}, status=202, response={"queued": True})),
                           ("GET", "/items", dict(response=[A, B, C, D])), EDIT, READ_EDITED)
    create = plan(bundle, "POST", "/items")
    assert create.build_reason == "no-observation"
    assert not any(t.rule_id == "create-link.own-collection-list" and t.outcome == "match" for t in create.traces)


def test_an_answer_naming_a_listed_id_as_a_reference_links_nothing():
    """The answer holds 3 under a reference, not under the type's identity: the list's 3 is no
    proof the call made it."""
    answers = ({"parent_id": 3, "title": "c"}, {"parent_id": 4, "title": "d"})
    bundle = _creates_then(("GET", "/items", dict(response=[A, B, C, D])), EDIT, READ_EDITED, answers=answers)
    create = plan(bundle, "POST", "/items")
    assert not create.served
    assert not any(t.rule_id == "create-link.own-collection-list" and t.outcome == "match" for t in create.traces)

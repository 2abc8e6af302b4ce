"""A create observed in a later read (write-effects, "Exemplar", "The written entity": "…the
first later read that shows it: an item read of that entity, or for a create, the one entity a
collection read newly lists"), from small synthetic captures of an ``/items`` app whose create
answers only the new id, so the call's own answer does not show the entity."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan, summary

A, B = {"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}
C = {"id": 3, "title": "c"}
D = {"id": 4, "title": "d"}
ANSWER = {"created": {"id": 3}, "message": "ok"}   # the id, in an object member, and a message


def _create_then(*reads) -> object:
    """items_app (records 1-3), the create (4), then ``reads``: (method, path, keywords) calls."""
    builder = items_app().call("POST", "/items", body={"title": "c"}, status=201, response=ANSWER)
    for method, path, keywords in reads:
        builder.call(method, path, **keywords)
    return build_from(builder)


def _traces(create) -> list[str]:
    return [t.reason or "" for t in create.traces if "list read" in (t.reason or "")]


def test_the_one_entity_a_list_read_newly_lists_observes_the_create():
    bundle = _create_then(("GET", "/items", dict(response=[A, B, C])),    # 5
                          ("GET", "/items/3", dict(response=C)))          # 6
    create = plan(bundle, "POST", "/items")
    assert create.observation == 5, _traces(create)
    assert any("newly lists '3' alone" in reason for reason in _traces(create))
    assert create.served and 6 in create.checked_record_ordinals, summary(bundle)


def test_an_entity_seen_before_the_call_is_not_newly_listed():
    """Entity 4, made by another tool's write after the initial reads and read before the call,
    was held before it: the list showing 3 and 4 newly lists 3 alone."""
    builder = (items_app().call("POST", "/import", body={"n": 1}, status=202, response={"queued": True})     # 4
               .call("GET", "/items/4", response=D)                                                        # 5
               .call("POST", "/items", body={"title": "c"}, status=201, response=ANSWER)                   # 6
               .call("GET", "/items", response=[A, B, D, C])                                                # 7
               .call("GET", "/items/3", response=C))                                                        # 8
    create = plan(build_from(builder), "POST", "/items")
    assert create.observation == 7, _traces(create)


def test_an_entity_the_line_listed_before_is_not_newly_listed():
    """The line listed 4 after the import (record 5) though no item read showed it: only 3 is new."""
    builder = (items_app().call("POST", "/import", body={"n": 1}, status=202, response={"queued": True})     # 4
               .call("GET", "/items", response=[A, B, D])                                                   # 5
               .call("POST", "/items", body={"title": "c"}, status=201, response=ANSWER)                   # 6
               .call("GET", "/items", response=[A, B, D, C])                                                # 7
               .call("GET", "/items/3", response=C))                                                        # 8
    create = plan(build_from(builder), "POST", "/items")
    assert create.observation == 7, _traces(create)


@pytest.mark.parametrize("answer", [{"created": {"id": 3}}, {"id": 3}, {"key": 3}, 3003],
                         ids=["member-object", "id-field", "sole-member", "scalar"])
def test_a_create_answering_its_id_alone_is_not_observed_by_a_list_read(answer):
    made = {"id": 3003 if answer == 3003 else 3, "title": "c"}
    builder = items_app().call("POST", "/items", body={"title": "c"}, status=201, response=answer)   # 4
    bundle = build_from(builder.call("GET", "/items", response=[A, B, made])                          # 5
                        .call("GET", f"/items/{made['id']}", response=made))                           # 6
    create = plan(bundle, "POST", "/items")
    assert create.observation == 6, _traces(create)
    assert any("names its id alone" in reason for reason in _traces(create))


def test_a_list_read_newly_listing_two_entities_does_not_observe_the_create():
    bundle = _create_then(("GET", "/items", dict(response=[A, B, C, D])),   # 5: 3 and 4 are both new
                          ("GET", "/items/3", dict(response=C)))            # 6
    create = plan(bundle, "POST", "/items")
    assert create.observation == 6, _traces(create)
    assert any("newly lists 2 entities" in reason for reason in _traces(create))


def test_a_list_read_after_another_write_does_not_observe_the_create():
    """A second call of the tool that went unanswered (500) may have changed the list: the list
    read after it is passed over, and the item read observes the create."""
    bundle = _create_then(("POST", "/items", dict(body={"title": "x"}, status=500, response={"error": "x"})),  # 5
                          ("GET", "/items", dict(response=[A, B, C])),                                        # 6
                          ("GET", "/items/3", dict(response=C)))                                              # 7
    create = plan(bundle, "POST", "/items")
    assert create.observation == 7, _traces(create)
    assert any("record 5 wrote before list record 6" in reason for reason in _traces(create))


def test_an_item_read_before_any_list_read_observes_the_create():
    bundle = _create_then(("GET", "/items/3", dict(response=C)),           # 5
                          ("GET", "/items", dict(response=[A, B, C])))     # 6
    create = plan(bundle, "POST", "/items")
    assert create.observation == 5 and create.served, summary(bundle)


def test_a_list_of_another_collection_does_not_observe_the_create():
    bundle = build_from(items_app()
                        .call("GET", "/boards/1/cards", response=[{"id": 7, "title": "x"}])         # 4
                        .call("GET", "/boards/1/cards/7", response={"id": 7, "title": "x"})          # 5
                        .call("POST", "/cards", body={"title": "c"}, status=201, response=ANSWER)  # 6
                        .call("GET", "/items", response=[A, B, C])                                    # 7
                        .call("GET", "/boards/1/cards", response=[{"id": 7, "title": "x"}, C])       # 8
                        .call("GET", "/boards/1/cards/3", response=C))                                # 9
    create = plan(bundle, "POST", "/cards")
    assert create.observation == 8, _traces(create)


def test_a_collection_read_names_the_created_collection_as_serving_compares_spellings():
    from capenv.interpreter.plans.newly_listed import same_collection

    assert same_collection("/orgs/%61cme1/items", "/orgs/acme1/items")
    assert same_collection("/orgs/%2561/items", "/orgs/%25%36%31/items")  # both name the text "%61"
    assert not same_collection("/orgs/%2561/items", "/orgs/%61/items")  # "%61" is not "a", which %61 names
    assert not same_collection("/orgs/%2561/items", "/orgs/a/items")  # twice decoded is another spelling
    assert not same_collection("/orgs/acme1/items", "/orgs/acme2/items")

"""A create at its type's collection path answered with nothing (Superset's tag create, ``201 {}``):
the entity it made is the one the next plain list read of that collection newly lists (write-effects,
"The written entity"); an answer holding anything, or a list newly listing more than one entity,
observes nothing."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan

T1, T2, T3, T4 = ({"id": n, "title": f"t{n}"} for n in (1, 2, 3, 4))


@pytest.mark.parametrize("answer", [{}, None], ids=["empty-object", "no-body"])
def test_a_create_answered_with_nothing_is_observed_by_the_list_newly_listing_it(answer):
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "t3"}, status=201, response=answer)   # 4
                        .call("GET", "/items", response=[T1, T2, T3])                             # 5
                        .call("GET", "/items/3", response=T3)                                     # 6
                        .call("POST", "/items", body={"title": "t4"}, status=201, response=answer)   # 7
                        .call("GET", "/items", response=[T1, T2, T3, T4]))                        # 8
    create = plan(bundle, "POST", "/items")
    assert create.observation == 5 and not create.response.carries_entity
    assert {f.field: f.op for f in create.fields} == {"id": "identity", "title": "echo"}
    assert create.served and 6 in create.checked_record_ordinals


def test_an_answer_holding_a_value_observes_nothing_by_a_list():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "t3"}, status=201, response={"ok": True})
                        .call("GET", "/items", response=[T1, T2, T3])
                        .call("GET", "/items/3", response=T3))
    create = plan(bundle, "POST", "/items")
    assert not create.served and create.build_reason == "no-observation"


def test_a_list_newly_listing_two_entities_observes_nothing():
    bundle = build_from(items_app()
                        .call("POST", "/items", body={"title": "t3"}, status=201, response={})
                        .call("GET", "/items", response=[T1, T2, T3, T4])
                        .call("GET", "/items/3", response=T3))
    create = plan(bundle, "POST", "/items")
    assert not create.served and create.build_reason == "no-observation"

"""U16, the stamp change (write-effects "Updates"): the acting user on modified…by, taken from its
created…by counterpart; the other …by field naming the same user (modifiedById beside
modifiedByName) is stamped with it when the call showed it at its own counterpart's value, even
where the entity lacked it before. Explained from a synthetic capture, then served."""

from __future__ import annotations

from datetime import datetime, timezone

from support.capture_runs import build_from, items_app, plan, summary
from test_update_support import call, explain, field

from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteCall, WriteEnv
from capenv.serving.writes.execute import execute

ANN = {"id": 1, "title": "t1", "createdByName": "Ann", "createdById": 11, "modifiedByName": "Bob"}
CAL = {"id": 2, "title": "t2", "createdByName": "Cal", "createdById": 22, "modifiedByName": "Dee"}


def test_the_id_beside_the_name_is_stamped_where_the_entity_lacked_it():
    after = {**ANN, "title": "B", "modifiedByName": "Ann", "modifiedById": 11}
    plan_ = explain(call({"title": "B"}, ANN, after))
    assert (field(plan_, "modifiedByName").op, field(plan_, "modifiedByName").params) == \
           ("stamp", {"from_field": "createdByName"})
    assert (field(plan_, "modifiedById").op, field(plan_, "modifiedById").params) == \
           ("stamp", {"from_field": "createdById"})
    assert plan_.build_reason is None and not plan_.problems


def test_an_id_shown_at_another_value_than_its_counterpart_is_no_stamp():
    after = {**ANN, "title": "B", "modifiedByName": "Ann", "modifiedById": 12}
    plan_ = explain(call({"title": "B"}, ANN, after))
    assert field(plan_, "modifiedByName").op == "stamp"
    assert [p.subject for p in plan_.problems] == ["modifiedById"]


def test_a_sent_member_naming_the_same_thing_is_no_stamp():
    after = {**ANN, "title": "B", "modifiedByName": "Ann", "modifiedById": 11}
    plan_ = explain(call({"title": "B", "modifiedById": 11}, ANN, after))
    assert all(rule.op != "stamp" for rule in plan_.fields), [(r.field, r.op) for r in plan_.fields]


def test_served_the_stamp_fills_the_id_on_an_entity_lacking_it():
    bundle = build_from(items_app([ANN, CAL])
                        .call("PATCH", "/items/1", body={"title": "B"},
                              response={**ANN, "title": "B", "modifiedByName": "Ann", "modifiedById": 11})  # 4
                        .call("GET", "/items/1",
                              response={**ANN, "title": "B", "modifiedByName": "Ann", "modifiedById": 11}))  # 5
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.build_reason is None, summary(bundle)
    assert {r.field: (r.op, r.params) for r in update.fields if r.op == "stamp"} == {
        "modifiedByName": ("stamp", {"from_field": "createdByName"}),
        "modifiedById": ("stamp", {"from_field": "createdById"})}
    state = StateIndex.from_snapshot(bundle.view.state)
    execute(update, WriteEnv(bundle.view), WriteCall("/items/2", (), {"title": "C"}), state,
            instant=datetime(2026, 1, 1, 0, 1, tzinfo=timezone.utc), counter=1, sequences=SequenceState())
    written = next(h.entities["2"] for h in state.collections_of(update.type) if "2" in h.entities)
    assert (written["modifiedByName"], written["modifiedById"], written["title"]) == ("Cal", 22, "C")

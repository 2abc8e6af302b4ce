"""A create whose own answer shows a sent string array sorted (write-effects, "Field rules for
creates" and "The gate" on sorted_arrays): the field is an echo that sorts, so serving stores and
answers it sorted, the member is accepted with any strings, and the type's views sort it."""

from __future__ import annotations

from datetime import datetime, timezone

from support.capture_runs import build_from, items_app, plan, summary

from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteCall, WriteEnv
from capenv.serving.writes.execute import execute

INITIAL = [{"id": 1, "title": "t1", "tags": ["x", "y"]}, {"id": 2, "title": "t2", "tags": []}]


def _created(sent: list[str], stored: list[str]):
    made = {"id": 3, "title": "c", "tags": stored}
    return build_from(items_app(INITIAL)
                      .call("POST", "/items", body={"title": "c", "tags": sent}, status=201, response=made)  # 4
                      .call("GET", "/items/3", response=made)                                               # 5
                      .call("GET", "/items", response=[*INITIAL, made]))                                    # 6


def _tags(create):
    return next(f for f in create.fields if f.field == "tags")


def test_an_answer_showing_the_sent_tags_sorted_is_an_echo_that_sorts():
    bundle = _created(["b", "a"], ["a", "b"])
    create = plan(bundle, "POST", "/items")
    rule = _tags(create)
    assert (rule.rule_id, rule.op, rule.params) == ("field.sorted-echo", "echo", {"member": "tags", "sorted": True})
    assert next(m for m in create.members if m.member == "tags").admission == "accepted"
    assert create.served and create.checked_record_ordinals == (5, 6), summary(bundle)
    # the gate learned it from the plan: every view of items sorts tags
    assert {v.kind: v.sorted_arrays for v in bundle.view.views if v.type == "items"} == {"item": ("tags",),
                                                                                         "list": ("tags",)}


def test_served_the_create_stores_and_answers_other_tags_sorted():
    bundle = _created(["b", "a"], ["a", "b"])
    create = plan(bundle, "POST", "/items")
    state = StateIndex.from_snapshot(bundle.view.state)
    result = execute(create, WriteEnv(bundle.view), WriteCall("/items", (), {"title": "d", "tags": ["zz", "c", "m"]}),
                     state, instant=datetime(2026, 1, 1, 0, 1, tzinfo=timezone.utc), counter=1,
                     sequences=SequenceState())
    held = next(h for h in state.collections_of("items"))
    assert held.entities[str(result.provenance["id"])]["tags"] == ["c", "m", "zz"]
    assert result.body["tags"] == ["c", "m", "zz"]


def test_tags_stored_as_sent_stay_a_plain_echo_and_teach_no_view():
    bundle = _created(["b", "a"], ["b", "a"])
    create = plan(bundle, "POST", "/items")
    assert (_tags(create).rule_id, _tags(create).params) == ("field.echo", {"member": "tags"})
    assert all(v.sorted_arrays == () for v in bundle.view.views)


def test_other_strings_sorted_are_no_echo():
    bundle = _created(["b", "a"], ["a", "c"])
    create = plan(bundle, "POST", "/items")
    assert _tags(create).rule_id == "field.constant"

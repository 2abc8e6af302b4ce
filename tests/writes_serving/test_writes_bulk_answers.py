"""``execute`` on hand-made bulk plans (write-effects "Provenance", "Bulk and action calls",
"Refusals"): a bulk answer adds ``ids``, every entity it wrote in body order, ``id`` naming the
first; a bulk write changes its entities in one step or none of them; a member the recorded calls
did not send is refused."""

from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from capenv.interpreter.bundle.models import (Address, Budgets, CollectionState, Entity, EntityType, FieldRule,
                                              MemberRule, ResponseRule, StateSnapshot, WritePlan)
from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteCall, WriteEnv, WriteRefusal
from capenv.serving.writes.execute import execute

BUDGETS = Budgets(max_entities=1000, max_state_bytes=1 << 20, build_seconds=60, discovery_characters=10_000,
                  tool_description_characters=1000, max_nesting=16, max_body_bytes=1 << 20)
ITEMS = EntityType(name="items", collection_template="/items", item_template="/items/{item_id}", id_field="id")
WHEN = datetime(2026, 1, 1, tzinfo=timezone.utc)
NO_BODY = ResponseRule(status=204, body=None, is_json=False)
IDS = MemberRule(member="ids", admission="accepted", rule_id="bulk-member.entities", kind="array", required=True)
READ_MEMBER = MemberRule(member="read", admission="accepted", rule_id="bulk-member.applied-to-ids", kind="boolean",
                         required=True)
READ = FieldRule(field="read", rule_id="bulk-member.applied-to-ids", op="echo", params={"member": "read"})
TITLE = FieldRule(field="title", rule_id="bulk-member.element-own", op="echo", params={"member": "title"})


def _plan(effect: str, address: Address, *, fields=(), members=(), response=NO_BODY) -> WritePlan:
    method = "DELETE" if effect == "delete" else "PATCH"
    return WritePlan(tool=f"{method.lower()}_items", method=method, template="/items", effect="bulk", type="items",
                     bulk_effect=effect, address=address, fields=fields, members=members, response=response,
                     served=True)


BY_IDS = _plan("update", Address(by="ids", member="ids", kind="integer"), fields=(READ,), members=(IDS, READ_MEMBER))
BY_ELEMENTS = _plan("update", Address(by="elements"), fields=(READ, TITLE))
DELETE_IDS = _plan("delete", Address(by="ids", member="ids", kind="integer"), members=(IDS,))


def _state() -> StateIndex:
    return StateIndex.from_snapshot(StateSnapshot(evidence_id="e", collections=(CollectionState(
        path="/items", type="items", entities=tuple(
            Entity(id=i, value={"id": i, "title": f"t{i}", "read": False}) for i in (1, 2, 3))),)))


def _run(plan: WritePlan, state: StateIndex, body):
    env = WriteEnv(SimpleNamespace(types=[ITEMS], views=[], writes=[], budgets=BUDGETS))
    return execute(plan, env, WriteCall("/items", (), body), state, instant=WHEN, counter=1,
                   sequences=SequenceState())


def _held(state: StateIndex) -> dict:
    return {k: dict(v) for k, v in state.collections["/items"].entities.items()}


def test_a_bulk_update_names_every_entity_it_wrote_in_body_order_id_the_first():
    state = _state()
    result = _run(BY_IDS, state, {"ids": [3, 1], "read": True})
    assert result.provenance == {"source": "state", "view": "update", "type": "items", "collection": "/items",
                                 "id": 3, "ids": [3, 1]}
    assert [e["read"] for e in state.collections["/items"].members()] == [True, False, True]


def test_an_entity_named_twice_is_listed_once_and_takes_each_element_in_turn():
    state = _state()
    result = _run(BY_ELEMENTS, state, [{"id": 2, "read": True}, {"id": 1, "title": "x"}, {"id": 2, "title": "y"}])
    assert result.provenance["ids"] == [2, 1] and result.provenance["id"] == 2
    assert _held(state)["2"] == {"id": 2, "title": "y", "read": True}
    assert _held(state)["1"] == {"id": 1, "title": "x", "read": False}


def test_a_bulk_delete_names_the_entities_it_removed_by_their_ids_in_body_order():
    state = _state()
    result = _run(DELETE_IDS, state, {"ids": [2, 1]})
    assert result.provenance == {"source": "state", "view": "delete", "type": "items", "collection": "/items",
                                 "id": 2, "ids": [2, 1]}
    assert list(_held(state)) == ["3"]


def test_an_answer_with_one_element_per_id_shows_each_written_entity_as_the_first_did():
    plan = BY_IDS.model_copy(update={"response": ResponseRule(
        status=200, body=[{"id": 1, "read": True, "updated": True}], is_json=True)})
    result = _run(plan, _state(), {"ids": [3, 2], "read": True})
    assert result.body == [{"id": 3, "read": True, "updated": True}, {"id": 2, "read": True, "updated": True}]


@pytest.mark.parametrize(("plan", "body", "message"), [
    (BY_IDS, {"ids": [1, 9], "read": True}, "no items entity 9 is held; the call changes none of them"),
    (DELETE_IDS, {"ids": [1, 9]}, "no items entity 9 is held; the call changes none of them"),
    (BY_IDS, {"ids": [1], "read": True, "title": "x"}, "member 'title' is not accepted; accepted members: ids, read"),
    (BY_IDS, {"ids": [1]}, "missing required member(s): read"),
    (BY_IDS, {"ids": ["1"], "read": True}, "every id must be a JSON integer, as recorded"),
    (BY_IDS, [1, 2], 'member "ids" must be a non-empty array of ids (integer)'),
    (BY_ELEMENTS, [{"id": 1, "done": True}], "element member(s) done are not accepted; an element accepts: id, read, "
                                             "title"),
    (BY_ELEMENTS, {"items": [{"id": 1, "read": True}]}, "the body must be a non-empty array of elements (objects)"),
], ids=["update-missing", "delete-missing", "member", "required", "id-kind", "root-array-for-member",
        "element-member", "object-for-root-array"])
def test_a_refused_bulk_call_changes_none_of_its_entities(plan, body, message):
    state = _state()
    with pytest.raises(WriteRefusal) as refusal:
        _run(plan, state, body)
    assert refusal.value.message == message
    assert _held(state) == _held(_state())


def test_a_bulk_update_the_state_cannot_hold_together_changes_none_of_its_entities():
    """Each entity's growth fits the room left, but not both together."""
    growth_per_entity = len('"read":"xxxxxxxxxx"') - len('"read":false')
    seen = []

    def limit_check(growth: int) -> None:
        seen.append(growth)
        if growth > growth_per_entity:
            raise WriteRefusal("past the intake limit", kind="resource_constraint")

    plan = BY_IDS.model_copy(update={"members": (IDS, READ_MEMBER.model_copy(update={"kind": "string"}))})
    state = _state()
    env = WriteEnv(SimpleNamespace(types=[ITEMS], views=[], writes=[], budgets=BUDGETS))
    with pytest.raises(WriteRefusal):
        execute(plan, env, WriteCall("/items", (), {"ids": [1, 2], "read": "xxxxxxxxxx"}), state, instant=WHEN,
                counter=1, sequences=SequenceState(), limit_check=limit_check)
    assert seen == [2 * growth_per_entity]
    assert _held(state) == _held(_state())

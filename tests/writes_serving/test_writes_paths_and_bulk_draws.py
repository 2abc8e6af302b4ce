"""``execute`` on hand-made plans: a document is written only at the path the state holds it at
(write-effects "Documents"), a bulk update drawing a unique or renewed value writes one entity per
call ("Bulk and action calls"), and a collection held under two spellings is chosen as "Serving"
orders them (verbatim, then held, then known)."""

from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from capenv.interpreter.bundle.models import (Address, Budgets, CollectionState, DocumentState, Entity, EntityType,
                                              FieldRule, MemberRule, ResponseRule, StateSnapshot, WritePlan)
from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.state.edits import remove_entity
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteCall, WriteEnv, WriteRefusal
from capenv.serving.writes.execute import execute

BUDGETS = Budgets(max_entities=1000, max_state_bytes=1 << 20, build_seconds=60, discovery_characters=10_000,
                  tool_description_characters=1000, max_nesting=16, max_body_bytes=1 << 20)
ITEMS = EntityType(name="items", collection_template="/items", item_template="/items/{item_id}", id_field="id")
WHEN = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _env(*types: EntityType) -> WriteEnv:
    return WriteEnv(SimpleNamespace(types=list(types), views=[], writes=[], budgets=BUDGETS))


def _run(plan: WritePlan, env: WriteEnv, state: StateIndex, path: str, body=None):
    return execute(plan, env, WriteCall(path, (), body), state, instant=WHEN, counter=1, sequences=SequenceState())


# --- documents ---------------------------------------------------------------------------

DOCUMENT = WritePlan(tool="patch_settings_by_org", method="PATCH", template="/settings/{org}", effect="document",
                     document_path="/settings/acme%201", document_pointer="",
                     members=(MemberRule(member="theme", admission="accepted", rule_id="m", kind="string"),),
                     response=ResponseRule(status=200, body={"theme": "light"}, carries_entity=True),
                     served=True)


def _documents() -> StateIndex:
    return StateIndex.from_snapshot(StateSnapshot(evidence_id="e", documents=(
        DocumentState(path="/settings/acme%201", value={"theme": "light"}),
        DocumentState(path="/settings/other", value={"theme": "light"}))))


def test_a_document_write_at_another_path_is_refused_naming_the_held_path() -> None:
    state = _documents()
    with pytest.raises(WriteRefusal) as refusal:
        _run(DOCUMENT, _env(), state, "/settings/other", {"theme": "dark"})
    assert "/settings/acme%201" in refusal.value.message and "/settings/other" in refusal.value.message
    assert state.documents == _documents().documents


@pytest.mark.parametrize("path", ["/settings/acme%201", "/settings/acme 1", "/settings/%61cme%201"],
                         ids=["verbatim", "decoded", "other-encoding"])
def test_a_document_write_at_the_held_path_in_either_spelling_is_served(path: str) -> None:
    state = _documents()
    result = _run(DOCUMENT, _env(), state, path, {"theme": "dark"})
    assert result.provenance["path"] == "/settings/acme%201"
    assert state.documents["/settings/acme%201"] == {"theme": "dark"}
    assert state.documents["/settings/other"] == {"theme": "light"}


# --- bulk updates drawing a value once per call ------------------------------------------

def _bulk(op: str, params: dict) -> WritePlan:
    return WritePlan(tool="patch_items_bulk", method="PATCH", template="/items", effect="bulk", type="items",
                     bulk_effect="update", address=Address(by="ids", member="ids", kind="integer"),
                     fields=(FieldRule(field="token", rule_id="r", op=op, params=params),),
                     members=(MemberRule(member="ids", admission="accepted", rule_id="m", kind="array"),
                              MemberRule(member="token", admission="accepted", rule_id="m", kind="string",
                                         required=False)),
                     response=ResponseRule(status=204, body=None, is_json=False), served=True)


UNIQUE = _bulk("unique", {"format": "uuid"})
RENEWED = _bulk("renewed", {"pointers": [""]})
ECHO = _bulk("echo", {"member": "token"})


def _items() -> StateIndex:
    return StateIndex.from_snapshot(StateSnapshot(evidence_id="e", collections=(CollectionState(
        path="/items", type="items", entities=tuple(
            Entity(id=i, value={"id": i, "token": f"6f1c2d3e-0000-4000-8000-00000000000{i}"}) for i in (1, 2))),)))


@pytest.mark.parametrize("plan", [UNIQUE, RENEWED], ids=["unique", "renewed"])
def test_a_bulk_update_drawing_a_value_once_refuses_two_entities(plan: WritePlan) -> None:
    state = _items()
    with pytest.raises(WriteRefusal) as refusal:
        _run(plan, _env(ITEMS), state, "/items", {"ids": [1, 2]})
    assert "one entity per call" in refusal.value.message and "token" in refusal.value.message
    assert state.snapshot() == _items().snapshot()


@pytest.mark.parametrize("plan", [UNIQUE, RENEWED], ids=["unique", "renewed"])
def test_a_bulk_update_drawing_a_value_once_serves_one_entity(plan: WritePlan) -> None:
    state = _items()
    result = _run(plan, _env(ITEMS), state, "/items", {"ids": [2]})
    assert result.provenance["ids"] == [2]
    assert state.collections["/items"].entities["2"]["token"] != _items().collections["/items"].entities["2"]["token"]
    assert state.collections["/items"].entities["1"] == _items().collections["/items"].entities["1"]


def test_a_bulk_update_with_no_drawn_value_still_writes_every_named_entity() -> None:
    state = _items()
    result = _run(ECHO, _env(ITEMS), state, "/items", {"ids": [1, 2], "token": "t"})
    assert result.provenance["ids"] == [1, 2]
    assert [e["token"] for e in state.collections["/items"].members()] == ["t", "t"]


# --- a collection held under two spellings -----------------------------------------------

ORG_ITEMS = EntityType(name="items", collection_template="/orgs/{org}/items",
                       item_template="/orgs/{org}/items/{item_id}", id_field="id")


def _spellings(*held: tuple[str, tuple[int, ...]]) -> StateIndex:
    """Collections of ``items`` at the given paths, in this state order, holding these ids."""
    return StateIndex.from_snapshot(StateSnapshot(evidence_id="e", collections=tuple(
        CollectionState(path=path, type="items", args={"org": "acme1"},
                        entities=tuple(Entity(id=i, value={"id": i}) for i in ids))
        for path, ids in held)))


@pytest.mark.parametrize("order", [("/orgs/acme1/items", "/orgs/%61cme1/items"),
                                   ("/orgs/%61cme1/items", "/orgs/acme1/items")], ids=["plain-first", "encoded-first"])
@pytest.mark.parametrize("call", ["/orgs/acme1/items", "/orgs/%61cme1/items"], ids=["plain", "encoded"])
def test_the_verbatim_spelling_wins_whatever_the_state_order(order, call: str) -> None:
    state = _spellings((order[0], (1,)), (order[1], ()))
    assert state.find_collection(call, "items").path == call


@pytest.mark.parametrize("held_first", [True, False], ids=["held-first", "held-second"])
def test_with_no_verbatim_spelling_the_one_holding_entities_wins(held_first: bool) -> None:
    pair = [("/orgs/acme1/items", (1,)), ("/orgs/%61cme1/items", ())]
    state = _spellings(*(pair if held_first else pair[::-1]))
    assert state.find_collection("/orgs/%61cm%651/items", "items").path == "/orgs/acme1/items"


def test_among_held_spellings_the_earlier_first_entity_in_state_order_wins() -> None:
    state = _spellings(("/orgs/%61cme1/items", (2,)), ("/orgs/acme1/items", (1,)))
    assert state.find_collection("/orgs/%61cm%651/items", "items").path == "/orgs/%61cme1/items"


def test_among_emptied_spellings_the_earlier_known_wins_and_a_spelling_outlives_its_last_entity() -> None:
    state = _spellings(("/orgs/%61cme1/items", (2,)), ("/orgs/acme1/items", (1,)))
    for path, key in (("/orgs/%61cme1/items", "2"), ("/orgs/acme1/items", "1")):
        remove_entity(state.collections[path], key)
    assert state.find_collection("/orgs/%61cm%651/items", "items").path == "/orgs/%61cme1/items"
    assert state.find_collection("/orgs/acme1/items", "items").path == "/orgs/acme1/items"


TIED_CREATE = WritePlan(tool="post_orgs_items", method="POST", template="/orgs/{org}/items", effect="create",
                        type="items", collection="/orgs/acme1/items", exemplar_args={"org": "acme1"},
                        address=Address(by="link"),
                        fields=(FieldRule(field="id", rule_id="r", op="echo", params={"member": "id"}),),
                        members=(MemberRule(member="id", admission="accepted", rule_id="m", kind="integer",
                                            required=True),),
                        response=ResponseRule(status=201, body={"id": 1}), served=True)


@pytest.mark.parametrize("call", ["/orgs/acme1/items", "/orgs/%61cme1/items"], ids=["plain", "encoded"])
def test_a_create_goes_to_the_spelling_the_call_names_verbatim(call: str) -> None:
    state = _spellings(("/orgs/acme1/items", (1,)), ("/orgs/%61cme1/items", (2,)))
    result = _run(TIED_CREATE, _env(ORG_ITEMS), state, call, {"id": 9})
    assert result.provenance["collection"] == call
    assert "9" in state.collections[call].entities


def test_a_create_spelling_neither_goes_to_the_held_spelling() -> None:
    state = _spellings(("/orgs/acme1/items", ()), ("/orgs/%61cme1/items", (2,)))
    result = _run(TIED_CREATE, _env(ORG_ITEMS), state, "/orgs/%61cm%651/items", {"id": 9})
    assert result.provenance["collection"] == "/orgs/%61cme1/items"

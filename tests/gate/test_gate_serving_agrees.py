"""The serving side agrees with the gate (write-effects, "The gate" runs serving's own ``execute``):
a served create executed through ``serving/writes/execute.py::execute`` on the bundle's initial state
makes what the capture's later reads recorded, with a new sequence id on every call."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from support.capture_runs import build_from, items_app, plan, recorded_body, tool_name

from capenv.serving.ops.sequence_state import SequenceState, sequence_fields
from capenv.serving.reads.answers import answer_item, answer_list
from capenv.serving.state.index import StateIndex
from capenv.serving.writes.calls import WriteCall, WriteEnv, WriteRefusal
from capenv.serving.writes.execute import execute

INITIAL = [{"id": 1, "title": "t1", "created": "2025-12-31T10:00:00.000Z"},
           {"id": 2, "title": "t2", "created": "2025-12-31T11:00:00.000Z"}]
MADE = {"id": 3, "title": "c", "created": "2026-01-01T00:00:00.300Z"}   # the create starts at +300 ms


@pytest.fixture(scope="module")
def bundle():
    return build_from(items_app(INITIAL)
                      .call("POST", "/items", body={"title": "c"}, status=201, response=MADE)   # 4
                      .call("GET", "/items/3", response=MADE)                                   # 5
                      .call("GET", "/items", response=[*INITIAL, MADE]))                        # 6


@pytest.fixture()
def served(bundle):
    """The initial state, serving's environment and restarted sequences, as data/reset leaves them."""
    create = plan(bundle, "POST", "/items")
    state = StateIndex.from_snapshot(bundle.view.state)
    sequences = SequenceState()
    sequences.restart(sequence_fields([p for p in bundle.view.writes if p.served and p.type]),
                      [(c.type, c.path, c.entities.values()) for c in state.collections.values()])
    return create, WriteEnv(bundle.view), state, sequences


def _at(record_start: str) -> datetime:
    return datetime.fromisoformat(record_start.replace("Z", "+00:00")).astimezone(timezone.utc)


def test_the_create_is_served_with_its_rules(bundle):
    create = plan(bundle, "POST", "/items")
    assert create.served and create.checked_record_ordinals == (5, 6)
    assert {f.field: f.op for f in create.fields} == {"id": "identity", "title": "echo", "created": "clock"}


def test_executing_the_create_twice_gives_a_new_sequence_id_each_time(served):
    create, env, state, sequences = served
    instant = _at("2026-01-01T00:00:00.300Z")
    first = execute(create, env, WriteCall("/items", (), {"title": "c"}), state, instant=instant, counter=1,
                    sequences=sequences)
    # another title: the recorded titles were all distinct, so a repeated one is refused (write-distinct-values)
    second = execute(create, env, WriteCall("/items", (), {"title": "d"}), state, instant=instant, counter=2,
                     sequences=sequences)
    assert (first.provenance["id"], second.provenance["id"]) == (3, 4)
    assert first.provenance == {"source": "state", "view": "create", "type": "items", "collection": "/items", "id": 3}
    assert first.status == 201 and first.body == MADE
    assert second.body == {**MADE, "id": 4, "title": "d"}
    assert state.find_collection("/items", "items").order == ["1", "2", "3", "4"]


def test_the_state_after_the_gates_call_equals_what_the_later_reads_recorded(bundle, served):
    create, env, state, sequences = served
    execute(create, env, WriteCall("/items", (), {"title": "c"}), state,
            instant=_at("2026-01-01T00:00:00.300Z"), counter=1, sequences=sequences)
    item_view = bundle.view.view(tool_name(bundle, "GET", "/items/{item_id}"))
    list_view = bundle.view.view(tool_name(bundle, "GET", "/items"))
    items = env.types["items"]
    assert state.find_collection("/items", "items").entities["3"] == recorded_body(bundle, 5)
    assert answer_item(item_view, items, state, "/items/3").body == recorded_body(bundle, 5)
    line = next(l for l in list_view.lines if l.path == "/items" and not l.query)
    assert answer_list(list_view, line, items, state).body == recorded_body(bundle, 6)


def test_a_refused_create_leaves_the_state_and_the_sequence_unchanged(served):
    create, env, state, sequences = served
    before = dict(state.find_collection("/items", "items").entities)
    with pytest.raises(WriteRefusal):
        execute(create, env, WriteCall("/items", (), {"title": "c", "owner": "x"}), state,
                instant=_at("2026-01-01T00:00:01Z"), counter=1, sequences=sequences)
    assert state.find_collection("/items", "items").entities == before
    made = execute(create, env, WriteCall("/items", (), {"title": "d"}), state,
                   instant=_at("2026-01-01T00:00:02Z"), counter=2, sequences=sequences)
    assert made.provenance["id"] == 3 and made.body["created"] == "2026-01-01T00:00:02.000Z"

"""The contract's values refuse what no provider could keep faithfully, before any provider runs."""

from __future__ import annotations

import pickle

import pytest

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.store import (
    NO_ACTOR,
    EmptyBatch,
    Expect,
    MemoryStore,
    NoActor,
    RecordEnvelope,
    RevisionConflict,
    SubjectWrite,
)

AT = "2026-03-01T12:00:00Z"


def test_expect() -> None:
    assert Expect.absent() == Expect(None) and Expect.absent().is_absent
    assert Expect.revision(3).number == 3 and not Expect.revision(3).is_absent
    assert repr(Expect.revision(3)) == "Expect.revision(3)" and repr(Expect.absent()) == "Expect.absent()"
    for bad in (0, -1, True, 1.0, "1"):
        with pytest.raises(ValueError):
            Expect.revision(bad)  # type: ignore[arg-type]


def test_no_actor_is_one_explicit_marker() -> None:
    assert NoActor() is NO_ACTOR and repr(NO_ACTOR) == "NO_ACTOR"
    assert pickle.loads(pickle.dumps(NO_ACTOR)) is NO_ACTOR
    envelope = RecordEnvelope("r", AT, NO_ACTOR)
    assert envelope.to_json()["actor"] is None
    assert RecordEnvelope.from_json(envelope.to_json()) == envelope
    with pytest.raises(TypeError, match="NO_ACTOR"):
        RecordEnvelope("r", AT, None)  # type: ignore[arg-type]


def test_envelope_text_fields() -> None:
    with pytest.raises(ValueError, match="NUL"):
        RecordEnvelope("r\x00", AT, NO_ACTOR)
    with pytest.raises(ValueError, match="Unicode"):
        RecordEnvelope("r\ud800", AT, NO_ACTOR)
    with pytest.raises(ValueError, match="correlation_id"):
        RecordEnvelope("r", AT, NO_ACTOR, correlation_id="")
    with pytest.raises(TypeError):
        RecordEnvelope(1, AT, NO_ACTOR)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="calendar date"):
        RecordEnvelope("r", "2026-02-30T00:00:00Z", NO_ACTOR)


def test_subject_write() -> None:
    with pytest.raises(ValueError, match="cannot be deleted"):
        SubjectWrite("t", "a", Expect.absent(), None)
    with pytest.raises(TypeError, match="JSON object"):
        SubjectWrite("t", "a", Expect.absent(), [1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Expect"):
        SubjectWrite("t", "a", 1, {})  # type: ignore[arg-type]
    for bad_id in ("", " ", "a\x00b"):
        with pytest.raises(ValueError):
            SubjectWrite("t", bad_id, Expect.absent(), {})


def test_states_that_are_not_exact_json_are_refused_at_commit() -> None:
    store = MemoryStore()
    for state in ({"x": float("nan")}, {"x": [float("inf")]}, {"x": object()}, {1: "non-string key"},
                  {"x": "\ud800"},
                  # beside text holding null and lists of texts (a served write's log entry), as anywhere
                  {"entry": '{"text":null}', "subjects": [["a", float("nan")]]},
                  {"entry": "null", "subjects": ["a", [float("-inf")]]},
                  {"entry": "null", "subjects": [["a"], [[float("inf")]]]}):
        with pytest.raises(ValueError):
            store.commit(RecordEnvelope("r", AT, NO_ACTOR), [SubjectWrite("t", "a", Expect.absent(), state)])
    assert store.list_ids("t") == []
    # A finite float is written as its shortest text and reads back as an exact number.
    store.commit(RecordEnvelope("r", AT, NO_ACTOR), [SubjectWrite("t", "a", Expect.absent(), {"x": 0.1, "n": None})])
    assert store.load("t", "a").state == {"x": JsonNumber("0.1"), "n": None}


def test_a_single_write_is_a_batch_of_one_and_an_empty_batch_is_refused() -> None:
    store = MemoryStore()
    commit = store.commit(RecordEnvelope("r", AT, NO_ACTOR), SubjectWrite("t", "a", Expect.absent(), {}))  # type: ignore[arg-type]
    assert len(commit.writes) == 1
    with pytest.raises(EmptyBatch) as caught:
        store.commit(RecordEnvelope("e", AT, NO_ACTOR), ())
    assert isinstance(caught.value, ValueError) and caught.value.record_id == "e"
    with pytest.raises(EmptyBatch):
        store.commit(RecordEnvelope("e", AT, NO_ACTOR), (w for w in ()))
    generated = store.commit(RecordEnvelope("g", AT, NO_ACTOR),
                             (SubjectWrite("t", i, Expect.absent(), {}) for i in ("b", "c")))
    assert [w.subject_id for w in generated.writes] == ["b", "c"]


def test_the_state_is_taken_at_commit_time() -> None:
    store = MemoryStore()
    state = {"n": 1}
    store.commit(RecordEnvelope("r", AT, NO_ACTOR), [SubjectWrite("t", "a", Expect.absent(), state)])
    state["n"] = 2
    loaded = store.load("t", "a")
    assert loaded.state == {"n": 1}
    loaded.state["n"] = 3
    assert store.load("t", "a").state == {"n": 1}


def test_revision_conflict_message() -> None:
    conflict = RevisionConflict("order", "42", Expect.absent(), 3)
    assert str(conflict) == "revision conflict on order/42: expected absent, found revision 3"

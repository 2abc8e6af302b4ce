"""The store conformance suite: black-box cases every provider must pass.

Each case is a plain function taking a fresh, empty ``Store``; it raises ``AssertionError`` (or
an unexpected exception) when the provider breaks the contract. ``test_store_conformance.py``
runs every case against every provider, and ``test_broken_store.py`` runs them against the
deliberately broken provider to show which cases catch which defect.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from capenv.interpreter.bundle import jsonvalue
from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.store import (
    NO_ACTOR,
    Commit,
    EmptyBatch,
    Expect,
    RecordConflict,
    RecordEnvelope,
    RevisionConflict,
    Store,
    SubjectWrite,
)

T = "order"  # the subject type most cases use


def env(record_id: str, *, at: str = "2026-03-01T12:00:00Z", actor: object = NO_ACTOR,
        correlation_id: str | None = None, causation_id: str | None = None) -> RecordEnvelope:
    return RecordEnvelope(record_id, at, actor, correlation_id, causation_id)  # type: ignore[arg-type]


def create(subject_id: str, state: dict, subject_type: str = T) -> SubjectWrite:
    return SubjectWrite(subject_type, subject_id, Expect.absent(), state)


def update(subject_id: str, revision: int, state: dict, subject_type: str = T) -> SubjectWrite:
    return SubjectWrite(subject_type, subject_id, Expect.revision(revision), state)


def delete(subject_id: str, revision: int, subject_type: str = T) -> SubjectWrite:
    return SubjectWrite(subject_type, subject_id, Expect.revision(revision), None)


def same_json(left: object, right: object) -> bool:
    """Equal as exact JSON: the canonical bytes match (so 1.10 is not 1.1)."""
    return jsonvalue.canonical(left) == jsonvalue.canonical(right)


# --------------------------------------------------------------------------------------------


def committed_state_reads_back(store: Store) -> None:
    state = {"name": "first", "price": JsonNumber("19.90"), "big": JsonNumber("123456789012345678901234567890"),
             "tags": ["a", "b"], "nested": {"ok": True, "none": None}, "text": "nul \u0000 é 漢"}
    commit = store.commit(env("r1"), [create("a", state)])
    assert isinstance(commit, Commit)
    assert commit.record_id == "r1"
    assert [(w.subject_type, w.subject_id, w.revision, w.deleted) for w in commit.writes] == [(T, "a", 1, False)]
    loaded = store.load(T, "a")
    assert loaded is not None
    assert (loaded.subject_type, loaded.subject_id, loaded.revision) == (T, "a", 1)
    assert same_json(loaded.state, state)
    assert jsonvalue.dumps(loaded.state) == jsonvalue.dumps(state), "member order and number text survive"
    assert store.list_ids(T) == ["a"]
    snapshot = store.snapshot()
    assert list(snapshot) == [T] and list(snapshot[T]) == ["a"] and snapshot[T]["a"].revision == 1


def state_and_history_arrive_together(store: Store) -> None:
    store.commit(env("r1", at="2026-03-01T12:00:00Z", actor="alice", correlation_id="c1"), [create("a", {"n": 1})])
    store.commit(env("r2", at="2026-03-01T12:00:01.5+01:00", causation_id="r1"), [update("a", 1, {"n": 2})])
    store.commit(env("r3", at="2026-03-01T12:00:02Z", actor="bob"), [update("a", 2, {"n": 3})])
    history = store.history(T, "a")
    assert [h.revision for h in history] == [1, 2, 3]
    assert [h.record_id for h in history] == ["r1", "r2", "r3"]
    assert [h.recorded_at for h in history] == ["2026-03-01T12:00:00Z", "2026-03-01T12:00:01.5+01:00",
                                                "2026-03-01T12:00:02Z"]
    assert [h.actor for h in history] == ["alice", NO_ACTOR, "bob"]
    assert [(h.correlation_id, h.causation_id) for h in history] == [("c1", None), (None, "r1"), (None, None)]
    assert [h.state for h in history] == [{"n": 1}, {"n": 2}, {"n": 3}]
    loaded = store.load(T, "a")
    assert loaded is not None and loaded.revision == history[-1].revision and loaded.state == history[-1].state


def stale_write_is_refused(store: Store) -> None:
    store.commit(env("r1"), [create("a", {"n": 1})])
    store.commit(env("r2"), [update("a", 1, {"n": 2})])
    with pytest.raises(RevisionConflict) as caught:
        store.commit(env("r3"), [update("a", 1, {"n": "stale"})])
    conflict = caught.value
    assert (conflict.subject_type, conflict.subject_id) == (T, "a")
    assert conflict.expected == Expect.revision(1) and conflict.found == 2
    assert "order/a" in str(conflict) and "revision 1" in str(conflict) and "revision 2" in str(conflict)
    with pytest.raises(RevisionConflict) as absent:
        store.commit(env("r4"), [update("never", 1, {"n": 0})])
    assert absent.value.found is None and absent.value.expected == Expect.revision(1)
    loaded = store.load(T, "a")
    assert loaded is not None and (loaded.revision, loaded.state) == (2, {"n": 2})


def refused_commit_leaves_no_trace(store: Store) -> None:
    store.commit(env("r1"), [create("a", {"n": 1})])
    before = (store.list_ids(T), store.history(T, "a"), store.snapshot())
    with pytest.raises(RevisionConflict):
        store.commit(env("refused"), [create("b", {"n": 1}), update("a", 7, {"n": 2}), create("c", {"n": 3}, "line")])
    assert store.load(T, "b") is None and store.load("line", "c") is None
    assert store.history(T, "b") == [] and store.history("line", "c") == []
    assert (store.list_ids(T), store.history(T, "a"), store.snapshot()) == before
    assert store.list_ids("line") == []
    # The refused commit did not reserve its record id: a different request may use it.
    commit = store.commit(env("refused"), [create("b", {"n": 9})])
    assert commit.writes[0].revision == 1


def second_creation_is_refused(store: Store) -> None:
    store.commit(env("r1"), [create("a", {"by": "first"})])
    with pytest.raises(RevisionConflict) as caught:
        store.commit(env("r2"), [create("a", {"by": "second"})])
    assert caught.value.expected == Expect.absent() and caught.value.found == 1
    loaded = store.load(T, "a")
    assert loaded is not None and loaded.state == {"by": "first"} and loaded.revision == 1
    assert len(store.history(T, "a")) == 1


def unstored_subject_is_absent(store: Store) -> None:
    assert store.load(T, "nothing") is None
    assert store.history(T, "nothing") == []
    assert store.list_ids(T) == []
    assert store.snapshot() == {}
    store.commit(env("r1"), [create("a", {})])
    assert store.load(T, "b") is None
    assert store.load("other", "a") is None


def listings_are_sorted_and_hold_only_what_loads(store: Store) -> None:
    ids = ["b", "a", "Z", "é", "10", "9", "a b", "漢", "aa"]
    store.commit(env("r1"), [create(i, {"id": i}) for i in ids])
    store.commit(env("r2"), [create("x", {}, "other")])
    store.commit(env("r3"), [delete("aa", 1), delete("9", 1)])
    live = sorted(set(ids) - {"aa", "9"})
    listed = store.list_ids(T)
    assert listed == live
    for subject_id in listed:
        assert store.load(T, subject_id) is not None
    assert store.list_ids("other") == ["x"]
    snapshot = store.snapshot([T])
    assert list(snapshot) == [T] and list(snapshot[T]) == live


def unknown_type_lists_nothing(store: Store) -> None:
    store.commit(env("r1"), [create("a", {}), create("b", {}, "other")])
    assert store.list_ids("unknown") == []
    assert store.snapshot(["unknown"]) == {}
    assert list(store.snapshot(["unknown", "other"])) == ["other"]


def ordered_batch_sees_its_own_revisions(store: Store) -> None:
    commit = store.commit(env("r1"), [create("a", {"n": 1}), update("a", 1, {"n": 2}), create("b", {"n": 0}),
                                      update("a", 2, {"n": 3}), delete("b", 1)])
    assert [(w.subject_id, w.expect, w.revision, w.deleted) for w in commit.writes] == [
        ("a", Expect.absent(), 1, False), ("a", Expect.revision(1), 2, False), ("b", Expect.absent(), 1, False),
        ("a", Expect.revision(2), 3, False), ("b", Expect.revision(1), 2, True)]
    loaded = store.load(T, "a")
    assert loaded is not None and (loaded.revision, loaded.state) == (3, {"n": 3})
    assert store.load(T, "b") is None
    assert [(h.revision, h.record_id, h.state) for h in store.history(T, "a")] == [
        (1, "r1", {"n": 1}), (2, "r1", {"n": 2}), (3, "r1", {"n": 3})]
    assert [(h.revision, h.state) for h in store.history(T, "b")] == [(1, {"n": 0}), (2, None)]


def conflict_rolls_back_every_earlier_entry(store: Store) -> None:
    store.commit(env("r1"), [create("a", {"n": 1}), create("b", {"n": 1})])
    with pytest.raises(RevisionConflict) as caught:
        store.commit(env("r2"), [update("a", 1, {"n": 2}), create("c", {"n": 1}), update("a", 2, {"n": 3}),
                                 delete("b", 1), update("b", 5, {"n": "stale"})])
    assert caught.value.subject_id == "b" and caught.value.found is None  # b was deleted earlier in the batch
    for subject_id in ("a", "b"):
        loaded = store.load(T, subject_id)
        assert loaded is not None and (loaded.revision, loaded.state) == (1, {"n": 1})
        assert len(store.history(T, subject_id)) == 1
    assert store.load(T, "c") is None
    assert store.list_ids(T) == ["a", "b"]


def empty_batch_changes_nothing(store: Store) -> None:
    store.commit(env("r1"), [create("a", {"n": 1})])
    before = store.snapshot()
    with pytest.raises(EmptyBatch):
        store.commit(env("empty"), [])
    assert store.snapshot() == before
    # Refused, so the record id is still free.
    assert store.commit(env("empty"), [update("a", 1, {"n": 2})]).writes[0].revision == 2


def exact_retry_after_the_subject_moved_returns_the_original(store: Store) -> None:
    original = store.commit(env("r1", actor="alice"), [create("a", {"n": 1, "m": "x"}), create("b", {"n": 1})])
    store.commit(env("r2"), [update("a", 1, {"n": 2})])
    # Member order inside a state is not part of the request's identity: the canonical bytes are.
    retried = store.commit(env("r1", actor="alice"), [create("a", {"m": "x", "n": 1}), create("b", {"n": 1})])
    assert retried == original
    assert [w.revision for w in retried.writes] == [1, 1]
    loaded = store.load(T, "a")
    assert loaded is not None and (loaded.revision, loaded.state) == (2, {"n": 2})
    assert len(store.history(T, "a")) == 2 and len(store.history(T, "b")) == 1
    assert store.commit(env("r2"), [update("a", 1, {"n": 2})]).writes[0].revision == 2
    assert len(store.history(T, "a")) == 2


def exact_retry_whose_expectations_hold_again_returns_the_original(store: Store) -> None:
    # Deleted since, so the retried creation's expectation (absent) holds again: still a retry.
    original = store.commit(env("r1"), [create("a", {"n": 1})])
    store.commit(env("r2"), [delete("a", 1)])
    assert store.commit(env("r1"), [create("a", {"n": 1})]) == original
    assert store.load(T, "a") is None
    assert [h.record_id for h in store.history(T, "a")] == ["r1", "r2"]


def record_id_reused_with_different_bytes_conflicts(store: Store) -> None:
    store.commit(env("r1", actor="alice"), [create("a", {"n": 1})])
    for envelope, writes in [
        (env("r1", actor="alice"), [create("a", {"n": 2})]),
        (env("r1", actor="alice"), [create("a", {"n": JsonNumber("1.0")})]),
        (env("r1", actor="bob"), [create("a", {"n": 1})]),
        (env("r1"), [create("a", {"n": 1})]),
        (env("r1", actor="alice", at="2026-03-01T12:00:00+00:00"), [create("a", {"n": 1})]),
        (env("r1", actor="alice", correlation_id="c"), [create("a", {"n": 1})]),
        (env("r1", actor="alice"), [create("other", {"n": 1})]),
        (env("r1", actor="alice"), [create("a", {"n": 1}), create("b", {})]),
    ]:
        with pytest.raises(RecordConflict) as caught:
            store.commit(envelope, writes)
        assert caught.value.record_id == "r1"
    assert store.list_ids(T) == ["a"]
    assert [h.state for h in store.history(T, "a")] == [{"n": 1}]


def tombstone_then_recreate_continues_revisions(store: Store) -> None:
    store.commit(env("r1"), [create("a", {"n": 1})])
    store.commit(env("r2"), [update("a", 1, {"n": 2})])
    deleted = store.commit(env("r3"), [delete("a", 2)])
    assert [(w.revision, w.deleted) for w in deleted.writes] == [(3, True)]
    assert store.load(T, "a") is None
    assert store.list_ids(T) == []
    assert [h.state for h in store.history(T, "a")] == [{"n": 1}, {"n": 2}, None]
    with pytest.raises(RevisionConflict) as caught:  # a tombstone is not a live revision
        store.commit(env("r4"), [update("a", 3, {"n": "ghost"})])
    assert caught.value.found is None
    recreated = store.commit(env("r5"), [create("a", {"n": "again"})])
    assert recreated.writes[0].revision == 4
    loaded = store.load(T, "a")
    assert loaded is not None and (loaded.revision, loaded.state) == (4, {"n": "again"})
    assert [h.revision for h in store.history(T, "a")] == [1, 2, 3, 4]


def compaction_keeps_the_live_heads_and_forgets_the_rest(store: Store) -> None:
    store.commit(env("r1"), [create("a", {"n": 1}), create("gone", {"n": 0}), create("kept", {"n": 0}, "other")])
    store.commit(env("r2"), [update("a", 1, {"n": 2}), delete("gone", 1), update("kept", 1, {"n": 1}, "other")])
    store.compact([T])
    loaded = store.load(T, "a")
    assert loaded is not None and (loaded.revision, loaded.state) == (2, {"n": 2})
    assert [(h.revision, h.record_id) for h in store.history(T, "a")] == [(2, "r2")]
    assert store.history(T, "gone") == [] and store.list_ids(T) == ["a"]
    assert [h.revision for h in store.history("other", "kept")] == [1, 2]  # another type: untouched
    assert store.commit(env("r3"), [create("gone", {"n": "again"})]).writes[0].revision == 1
    store.commit(env("r4"), [update("a", 2, {"n": 3})])
    store.compact([T, "other"])
    assert [h.record_id for h in store.history(T, "a")] == ["r4"]
    # r1 names no entry any more: its id is free again; r4's exact retry still returns the original
    assert store.commit(env("r1"), [create("fresh", {"n": 1})]).writes[0].subject_id == "fresh"
    assert store.commit(env("r4"), [update("a", 2, {"n": 3})]).writes[0].revision == 3
    store.compact([])


def revision_is_the_live_head_load_reads(store: Store) -> None:
    assert store.revision(T, "a") is None
    store.commit(env("r1"), [create("a", {"n": 1})])
    store.commit(env("r2"), [update("a", 1, {"n": 2}), create("b", {"n": 0})])
    assert (store.revision(T, "a"), store.revision(T, "b")) == (2, 1)
    assert store.revision(T, "a") == store.load(T, "a").revision
    store.commit(env("r3"), [delete("a", 2)])
    assert store.revision(T, "a") is None  # a tombstone is not a live revision
    store.commit(env("r4"), [create("a", {"n": "again"})])
    assert store.revision(T, "a") == 4 and store.revision("other", "a") is None


def envelope_is_validated(store: Store) -> None:
    for bad in ["2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01",
                "2026-01-01T00:00:00", "2026-01-01T24:00:00Z", "2026-01-01T12:60:00Z", "2026-01-01 00:00:00Z",
                "2026-01-01t00:00:00z", "2026-01-01T00:00:00+2400", "2026-01-01T00:00:00+24:00", "", "yesterday",
                "2026-01-01T00:00:00.Z", " 2026-01-01T00:00:00Z"]:
        with pytest.raises(ValueError):
            env("r1", at=bad)
    for record_id in ["", "   ", "\t"]:
        with pytest.raises(ValueError):
            env(record_id)
    with pytest.raises(TypeError):
        env("r1", actor=None)
    with pytest.raises(ValueError):
        env("r1", actor=" ")
    for good in ["2024-02-29T23:59:59Z", "2026-03-01T12:00:00.123456789-05:30", "2026-12-31T00:00:00+14:00"]:
        assert store.commit(env(f"ok {good}", at=good), [create(good, {})]).envelope.recorded_at == good
    assert [h.recorded_at for h in store.history(T, "2024-02-29T23:59:59Z")] == ["2024-02-29T23:59:59Z"]


Case = Callable[[Store], None]

CASES: dict[str, Case] = {case.__name__: case for case in [
    committed_state_reads_back,
    state_and_history_arrive_together,
    stale_write_is_refused,
    refused_commit_leaves_no_trace,
    second_creation_is_refused,
    unstored_subject_is_absent,
    listings_are_sorted_and_hold_only_what_loads,
    unknown_type_lists_nothing,
    ordered_batch_sees_its_own_revisions,
    conflict_rolls_back_every_earlier_entry,
    empty_batch_changes_nothing,
    exact_retry_after_the_subject_moved_returns_the_original,
    exact_retry_whose_expectations_hold_again_returns_the_original,
    record_id_reused_with_different_bytes_conflicts,
    tombstone_then_recreate_continues_revisions,
    revision_is_the_live_head_load_reads,
    envelope_is_validated,
    compaction_keeps_the_live_heads_and_forgets_the_rest,
]}

"""The store contract on the base's own subjects, through an instance's overlay store: what the
generic conformance cases (which write subjects of their own) never reach. Over a memory and a
SQLite delta."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from store_conformance import delete, env, update
from store_overlay import SEED, open_overlay, seeded_base

from capenv.serving.store import Expect, RecordConflict, RevisionConflict, Store, SubjectWrite


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    handle = open_overlay(request.param, seeded_base(), request, tmp_path)
    try:
        yield handle
    finally:
        handle.close()


def create(subject_id: str, state: dict) -> SubjectWrite:
    return SubjectWrite(SEED, subject_id, Expect.absent(), state)


def test_a_written_base_subject_continues_the_base_revisions_and_history(store: Store) -> None:
    assert store.revision(SEED, "s2") == 3 and store.list_ids(SEED) == ["s1", "s2"]
    commit = store.commit(env("r1"), [update("s2", 3, {"n": 4}, SEED)])
    assert commit.writes[0].revision == 4 and commit.record_id == "r1"
    loaded = store.load(SEED, "s2")
    assert loaded is not None and (loaded.revision, loaded.state) == (4, {"n": 4})
    assert [(h.revision, h.record_id, h.state) for h in store.history(SEED, "s2")] == [
        (1, "base-1", {"n": 1}), (2, "base-2", {"n": 2}), (3, "base-3", {"n": 3}), (4, "r1", {"n": 4})]
    assert store.snapshot([SEED])[SEED]["s2"].revision == 4


def test_a_stale_or_repeated_creation_of_a_base_subject_is_refused(store: Store) -> None:
    for write, found in [(update("s2", 2, {"n": "stale"}, SEED), 3), (create("s1", {"n": "again"}), 1),
                         (update("s1", 2, {"n": "ahead"}, SEED), 1)]:
        with pytest.raises(RevisionConflict) as caught:
            store.commit(env("r1"), [write])
        assert caught.value.expected == write.expect and caught.value.found == found
    assert [h.revision for h in store.history(SEED, "s2")] == [1, 2, 3]


def test_the_revision_a_deleted_base_subject_left_is_not_live(store: Store) -> None:
    deleted = store.commit(env("r1"), [delete("s2", 3, SEED)])
    assert [(w.revision, w.deleted) for w in deleted.writes] == [(4, True)]
    assert store.load(SEED, "s2") is None and store.revision(SEED, "s2") is None
    assert store.list_ids(SEED) == ["s1"] and list(store.snapshot([SEED])[SEED]) == ["s1"]
    assert [h.state for h in store.history(SEED, "s2")] == [{"n": 1}, {"n": 2}, {"n": 3}, None]
    for expected in (4, 3, 5):  # 4: the deletion's own revision, once taken for the live subject
        with pytest.raises(RevisionConflict) as caught:
            store.commit(env(f"ghost {expected}"), [update("s2", expected, {"n": "ghost"}, SEED)])
        assert caught.value.found is None
    assert store.load(SEED, "s2") is None
    recreated = store.commit(env("r2"), [create("s2", {"n": "again"})])
    assert recreated.writes[0].revision == 5
    assert [h.revision for h in store.history(SEED, "s2")] == [1, 2, 3, 4, 5]


def test_a_batch_sees_its_own_writes_of_base_subjects(store: Store) -> None:
    commit = store.commit(env("r1"), [update("s1", 1, {"n": 2}, SEED), update("s1", 2, {"n": 3}, SEED),
                                      delete("s2", 3, SEED), create("s2", {"n": "new"})])
    assert [(w.revision, w.deleted) for w in commit.writes] == [(2, False), (3, False), (4, True), (5, False)]
    assert store.snapshot([SEED])[SEED]["s1"].state == {"n": 3}
    assert store.load(SEED, "s2").revision == 5  # type: ignore[union-attr]


def test_a_conflict_after_deleting_a_base_subject_in_the_batch_changes_nothing(store: Store) -> None:
    before = store.snapshot()
    with pytest.raises(RevisionConflict) as caught:
        store.commit(env("r1"), [update("s1", 1, {"n": 2}, SEED), delete("s2", 3, SEED),
                                 update("s2", 4, {"n": "stale"}, SEED)])
    assert caught.value.subject_id == "s2" and caught.value.found is None
    assert store.snapshot() == before and [h.revision for h in store.history(SEED, "s1")] == [1]


def test_retries_and_reused_record_ids_on_base_subjects(store: Store) -> None:
    original = store.commit(env("r1"), [update("s1", 1, {"n": 2}, SEED)])
    store.commit(env("r2"), [update("s1", 2, {"n": 3}, SEED)])
    assert store.commit(env("r1"), [update("s1", 1, {"n": 2}, SEED)]) == original
    with pytest.raises(RecordConflict) as caught:
        store.commit(env("r1"), [update("s1", 1, {"n": "other"}, SEED)])
    assert caught.value.record_id == "r1"
    assert [h.record_id for h in store.history(SEED, "s1")] == ["base-1", "r1", "r2"]

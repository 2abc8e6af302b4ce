"""Meta's collection spellings are their own subject (``state.subjects.KNOWN_ID``): a reset or
load writes them, a served write does not, and a store from before they left meta still serves
with them and moves them out at its first write."""

from __future__ import annotations

from serving_store_support import POST_BODY

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.state.mirror import StateMirror
from capenv.serving.state.subjects import KNOWN_ID, META_ID, Subjects
from capenv.serving.store import Expect, MemoryStore, RecordEnvelope, SubjectWrite


def create(runtime: EnvironmentRuntime) -> int:
    answer = runtime.call_tool("post_posts", {"body": POST_BODY})
    assert not answer.is_error, answer.structured
    return answer.structured["body"]["id"]


def held_meta(store: MemoryStore, subjects: Subjects) -> dict:
    """The meta a process loading the store whole would hold, spellings included."""
    return StateMirror.from_snapshot(subjects, store.snapshot(subjects.state_types())).meta.to_json()


def test_a_write_commits_meta_without_rewriting_the_spellings(bundle) -> None:
    store = MemoryStore()
    runtime = EnvironmentRuntime(bundle, store=store)
    subjects = Subjects(bundle.view.evidence_id)
    known = store.load(subjects.meta, KNOWN_ID)
    assert known is not None and known.state["evidence"]
    assert "known" not in store.load(subjects.meta, META_ID).state
    create(runtime)
    assert store.load(subjects.meta, KNOWN_ID).revision == known.revision
    assert held_meta(store, subjects)["known"] == known.state
    runtime.data_reset()  # the same spellings again, at the reset's position (a replace rewrites every subject)
    after = store.load(subjects.meta, KNOWN_ID)
    assert after.state == known.state
    assert after.revision == store.load(subjects.meta, META_ID).revision > known.revision


def test_a_store_whose_meta_holds_the_spellings_serves_them_and_moves_them_out(bundle) -> None:
    store = MemoryStore()
    subjects = Subjects(bundle.view.evidence_id)
    EnvironmentRuntime(bundle, store=store)  # installs the state
    known = store.load(subjects.meta, KNOWN_ID)
    meta = store.load(subjects.meta, META_ID)
    # The layout before: the spellings inside meta, no subject of their own.
    store.commit(RecordEnvelope("older-layout", "2026-01-01T00:00:00Z", "test"), [
        SubjectWrite(subjects.meta, KNOWN_ID, Expect.revision(known.revision), None),
        SubjectWrite(subjects.meta, META_ID, Expect.revision(meta.revision), {**meta.state, "known": known.state})])
    older = held_meta(store, subjects)
    assert older["known"] == known.state

    runtime = EnvironmentRuntime(bundle, store=store)
    assert create(runtime) == 4
    moved = store.load(subjects.meta, KNOWN_ID)
    assert moved is not None and moved.state == known.state
    assert "known" not in store.load(subjects.meta, META_ID).state
    assert held_meta(store, subjects)["known"] == older["known"]
    assert create(EnvironmentRuntime(bundle, store=store)) == 5  # another process serves on from there
    assert store.load(subjects.meta, KNOWN_ID).revision == moved.revision

"""Installing a whole state in the store: data/reset, data/add and the first load.

Each is one batch: every state subject that differs is written, every one the new state lacks
is deleted, and meta restarts (the clock, the counter and the sequences). An install also ends
the episode before it: its history entries and log entries are deleted in the same batch (the
history then replays from this install: a reset, or an add with its document), so idempotency
keys used before it are forgotten, and the store is compacted after (``Store.compact``): what
the store holds stays the size of one episode however many resets and adds it serves. The batch expects the
revisions of the snapshot it was computed from, so a write committed meanwhile makes it compute
again rather than install over a state it did not see.
"""

from __future__ import annotations

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.store import Expect, RevisionConflict, Store, SubjectWrite

from .commits import MAX_ATTEMPTS, commit, envelope, expect, new_record_id
from .mirror import StateMirror
from .records import replace_record
from .subjects import META_ID, Subjects, log_state, position_id


def install(store: Store, subjects: Subjects, target: StateMirror, kind: str, *, document_text: str | None = None,
            only_if_absent: bool = False) -> StateMirror:
    """Commit ``target`` (``StateMirror.installing``) as the state, recorded as ``kind`` (reset or
    add, ``document_text`` being what an add installed); the copy to hold after: ``target`` with
    the revisions it now has, or, ``only_if_absent``, the state another process installed first."""
    desired = target.subject_states()
    desired_bytes = {key: dumps(state) for key, state in desired.items()}
    record_id = new_record_id(kind)
    meta_key = (subjects.meta, META_ID)
    for _ in range(MAX_ATTEMPTS):
        snapshot = store.snapshot(subjects.state_types() + ([] if only_if_absent else [subjects.log, subjects.write]))
        episode = [SubjectWrite(t, i, Expect.revision(stored.revision), None)
                   for t in (subjects.log, subjects.write) for i, stored in snapshot.pop(t, {}).items()]
        current = {(t, i): stored for t, held in snapshot.items() for i, stored in held.items()}
        held_meta = current.pop(meta_key, None)
        if only_if_absent and held_meta is not None:  # another process installed it first
            return StateMirror.from_snapshot(subjects, snapshot)
        writes = [SubjectWrite(*key, expect(current[key].revision if key in current else None), desired[key])
                  for key in desired
                  if key not in current or dumps(current[key].state) != desired_bytes[key]]
        writes += [SubjectWrite(*key, Expect.revision(stored.revision), None)
                   for key, stored in current.items() if key not in desired]
        writes += episode
        position = (held_meta.revision if held_meta is not None else 0) + 1
        writes.append(SubjectWrite(*meta_key, expect(held_meta.revision if held_meta else None),
                                   target.meta.commit_json()))
        writes.append(SubjectWrite(subjects.log, position_id(position), Expect.absent(),
                                   log_state(record_id, kind, [])))
        writes.append(SubjectWrite(subjects.write, record_id, Expect.absent(),
                                   replace_record(position, kind, document_text)))
        try:
            committed = commit(store, envelope(record_id), writes)
        except RevisionConflict:
            continue
        target.revisions = {key: stored.revision for key, stored in current.items() if key in desired}
        for written in committed.writes:
            if not written.deleted:
                target.revisions[(written.subject_type, written.subject_id)] = written.revision
        target.position = target.revisions[meta_key]
        store.compact(subjects.all_types())
        return target
    raise RuntimeError(f"data/{kind} lost {MAX_ATTEMPTS} races with concurrent writes; try again")

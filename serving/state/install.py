"""Installing a whole state in the store: data/reset, data/add and the first load.

Each is one batch: every state subject that differs is written, every one the new state lacks
is deleted, and meta restarts (the clock, the counter and the sequences). An install also ends
the episode before it: its history entries and log entries are deleted in the same batch (the
history then replays from this install: a reset, or an add with its document), so idempotency
keys used before it are forgotten, and the store is compacted after (``Store.compact``): what
the store holds stays the size of one episode however many resets and adds it serves. The batch expects the
revisions of the snapshot it was computed from, so a write committed meanwhile makes it compute
again rather than install over a state it did not see.

An install is prepared first (``prepare``: the subjects the new state is made of, and their
encodings), which reads nothing and changes nothing, so a large data/add can do it off the
runtime's lock. On a store that replaces whole types (``Store.replaces_whole``: memory, SQLite,
PostgreSQL) the preparation goes as far as the store's own (``store.replace.prepare_replace``:
every row encoded, the digest taken), and ``install`` is then the replace's commit: the environment's
types made to hold exactly the new state, every subject at the position after the one the
holder's copy is at (meta's revision, which the replace expects), with no diff and no state read
back. Elsewhere (an instance's overlay store) ``install`` diffs and commits the difference as one
batch, then compacts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.store import Expect, RecordEnvelope, RevisionConflict, Store, Stored, SubjectWrite
from capenv.serving.store.replace import StaleRevision, prepare_replace

from .commits import MAX_ATTEMPTS, commit, envelope, expect, new_record_id
from .mirror import StateMirror
from .records import replace_record
from .revisions import Revisions
from .subjects import META_ID, Subjects, log_state, position_id

Key = tuple[str, str]


@dataclass(frozen=True)
class PreparedInstall:
    """A state ready to install: its mirror (``StateMirror.installing``) and the subjects it is
    made of, each with the bytes the store compares."""

    target: StateMirror
    desired: dict[tuple[str, str], dict[str, Any]]
    desired_bytes: dict[tuple[str, str], bytes]
    record_id: str
    replace: Any = None  # the store's own preparation (``Store.stage_replace``), when it replaces whole types
    revision: int = 0  # the position ``replace``'s record was written for
    revisions: Revisions | None = None  # the mirror's revisions at that position
    envelope: RecordEnvelope | None = None  # ``replace``'s (``commits.redate`` dates one prepared ahead)


def prepare(target: StateMirror, kind: str, *, store: Store | None = None, position: int = 0,
            document_text: str | None = None) -> PreparedInstall:
    """What ``install`` commits for ``target``, recorded as ``kind``: no store read, nothing
    changed (any thread). With a ``store`` that replaces whole types, prepared as far as its
    replace goes, for the install after ``position`` (the holder's, as it stands: a write
    meanwhile only makes the commit write the install's record again)."""
    desired = target.subject_states()
    desired_bytes = {key: dumps(state) for key, state in desired.items()}
    record_id = new_record_id(kind)
    if store is None or not store.replaces_whole:
        return PreparedInstall(target, desired, desired_bytes, record_id)
    subjects = target.subjects
    rows = {**desired, (subjects.meta, META_ID): target.meta.commit_json(),
            (subjects.write, record_id): replace_record(position + 1, kind, document_text)}
    made_envelope = envelope(record_id)
    replace = store.stage_replace(prepare_replace(made_envelope, subjects.all_types(), rows, desired_bytes))
    return PreparedInstall(target, desired, desired_bytes, record_id, replace, position + 1,
                           _revisions(target, desired, position + 1), made_envelope)


def _revisions(target: StateMirror, desired: dict[tuple[str, str], Any], revision: int) -> Revisions:
    """The revisions the mirror holds after a replace at ``revision``: every subject's."""
    revisions = Revisions.at(desired, revision)
    revisions[(target.subjects.meta, META_ID)] = revision
    return revisions


def replace_whole(store: Store, subjects: Subjects, prepared: PreparedInstall, kind: str, position: int, *,
                  document_text: str | None = None) -> StateMirror:
    """Commit ``prepared.replace``, expecting meta at ``position`` (the holder's copy's, brought up
    to the store's); the prepared mirror to hold after, at the position after it."""
    assert prepared.replace is not None
    target, record_id = prepared.target, prepared.record_id
    meta_key = (subjects.meta, META_ID)
    for _ in range(MAX_ATTEMPTS):
        revision = position + 1
        extra = {(subjects.log, position_id(revision)): log_state(record_id, kind, [])}
        if revision != prepared.revision:  # written for another position: written again
            extra[(subjects.write, record_id)] = replace_record(revision, kind, document_text)
        try:
            committed = store.commit_replace(prepared.replace, {meta_key: Expect.revision(position)}, revision, extra)
        except StaleRevision as stale:  # a subject is past meta (a store written otherwise): move past it
            position = max(position, stale.held)
            continue
        except RevisionConflict as moved:  # another process wrote meanwhile: its writes are replaced too
            if moved.found is None:
                raise
            position = moved.found
            continue
        target.revisions = (prepared.revisions if committed.revision == prepared.revision and prepared.revisions is not None
                            else _revisions(target, prepared.desired, committed.revision))
        target.position = committed.revision
        return target
    raise RuntimeError(f"data/{kind} lost {MAX_ATTEMPTS} races with concurrent writes; try again")


def install(store: Store, subjects: Subjects, prepared: PreparedInstall, kind: str, *,
            document_text: str | None = None, only_if_absent: bool = False,
            held: StateMirror | None = None) -> StateMirror:
    """Commit ``prepared`` as the state, recorded as ``kind`` (reset or add, ``document_text``
    being what an add installed); the copy to hold after: the prepared mirror with the revisions
    it now has, or, ``only_if_absent``, the state another process installed first.

    ``held``: the holder's copy, just brought up to the store's position: the install is
    diffed against it rather than against a snapshot of the whole state read back (the batch
    still expects every revision it names, meta's included, so a copy the store has moved past
    makes the commit fail, and the next attempt reads the snapshot)."""
    target, desired, desired_bytes = prepared.target, prepared.desired, prepared.desired_bytes
    record_id = prepared.record_id
    meta_key = (subjects.meta, META_ID)
    for _ in range(MAX_ATTEMPTS):
        if held is not None and not only_if_absent:
            current, episode = _from_held(store, subjects, held)
        else:
            snapshot = store.snapshot(subjects.state_types() + ([] if only_if_absent else [subjects.log,
                                                                                           subjects.write]))
            if only_if_absent and meta_key[1] in snapshot.get(meta_key[0], {}):  # another process installed it
                return StateMirror.from_snapshot(subjects, snapshot)
            current, episode = _from_snapshot(subjects, snapshot)
        held = None
        held_meta = current.pop(meta_key, None)
        writes = [SubjectWrite(*key, expect(current[key].revision if key in current else None), desired[key])
                  for key in desired
                  if key not in current or current[key].encoded() != desired_bytes[key]]
        writes += [SubjectWrite(*key, Expect.revision(now.revision), None)
                   for key, now in current.items() if key not in desired]
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
        target.revisions = Revisions((key, now.revision) for key, now in current.items() if key in desired)
        for written in committed.writes:
            if not written.deleted:
                target.revisions[(written.subject_type, written.subject_id)] = written.revision
        target.position = target.revisions[meta_key]
        store.compact(subjects.all_types())
        return target
    raise RuntimeError(f"data/{kind} lost {MAX_ATTEMPTS} races with concurrent writes; try again")


class _Current:
    """One subject as the store holds it before the install: its revision, and the bytes of its
    state (computed only when the install also writes that subject, to compare)."""

    __slots__ = ("revision", "_encode")

    def __init__(self, revision: int, encode: Callable[[], bytes]) -> None:
        self.revision = revision
        self._encode = encode

    def encoded(self) -> bytes:
        return self._encode()


def _from_snapshot(subjects: Subjects, snapshot: dict[str, dict[str, Stored]]) -> tuple[dict[Key, _Current],
                                                                                      list[SubjectWrite]]:
    episode = [SubjectWrite(t, i, Expect.revision(stored.revision), None)
               for t in (subjects.log, subjects.write) for i, stored in snapshot.pop(t, {}).items()]
    current = {(t, i): _Current(stored.revision, functools.partial(dumps, stored.state))
               for t, now in snapshot.items() for i, stored in now.items()}
    return current, episode


def _from_held(store: Store, subjects: Subjects, held: StateMirror) -> tuple[dict[Key, _Current],
                                                                             list[SubjectWrite]]:
    snapshot = store.snapshot([subjects.log, subjects.write])  # the episode: its ids and revisions
    episode = [SubjectWrite(t, i, Expect.revision(stored.revision), None)
               for t in (subjects.log, subjects.write) for i, stored in snapshot.get(t, {}).items()]
    state_types = set(subjects.state_types())  # the copy's revisions also name the last install's entries
    current = {key: _Current(revision, functools.partial(_held_bytes, held, key))
               for key, revision in held.revisions.items() if key[0] in state_types}
    return current, episode


def _held_bytes(held: StateMirror, key: Key) -> bytes:
    state = held.subject_state(key)
    return b"" if state is None else dumps(state)

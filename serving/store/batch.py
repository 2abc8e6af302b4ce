"""The provider-independent half of a commit: encoding a batch and checking its expectations.

Every provider runs the same two steps so they cannot disagree on the contract:

1. ``prepare`` (outside any lock or transaction): validate, serialise each state once with the
   exact JSON codec, and take the request digest over the canonical bytes of envelope + writes.
   The digest is what an exact retry must repeat.
2. ``plan`` (inside the provider's transaction, given the heads it read): walk the batch in
   order, check each expectation against the head as the earlier entries left it, and produce
   the revisions to write. Raises ``RevisionConflict`` before anything is written.

The store never uses the stdlib json or plain orjson for states: ``capenv.interpreter.bundle.
jsonvalue`` keeps exact numbers (``JsonNumber``) through a round trip.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import orjson

from capenv.interpreter.bundle import jsonvalue
from capenv.serving.store.contract import (
    Commit,
    CommittedWrite,
    EmptyBatch,
    Expect,
    HistoryEntry,
    NO_ACTOR,
    RecordEnvelope,
    RevisionConflict,
    Stored,
    SubjectWrite,
    accepted_commit,
    committed_write,
)

SubjectKey = tuple[str, str]


# The per-write internals (and a commit's batch and plan) are NamedTuples, not frozen dataclasses:
# a commit builds several per write, and a frozen dataclass costs a setattr call per field.


class Head(NamedTuple):
    """What the store holds for a subject: its latest revision, live or a tombstone."""

    revision: int
    live: bool


class PreparedWrite(NamedTuple):
    key: SubjectKey
    expect: Expect
    state_json: str | None  # None: tombstone


class PreparedBatch(NamedTuple):
    envelope: RecordEnvelope
    writes: tuple[PreparedWrite, ...]
    digest: bytes  # sha256 over the canonical request bytes

    @property
    def record_id(self) -> str:
        return self.envelope.record_id

    def keys(self) -> list[SubjectKey]:
        """The distinct subjects the batch touches, sorted: providers lock them in this order so
        two batches touching the same subjects cannot deadlock."""
        return sorted({write.key for write in self.writes})


class PlannedWrite(NamedTuple):
    key: SubjectKey
    expect: Expect
    revision: int
    state_json: str | None


class Plan(NamedTuple):
    entries: tuple[PlannedWrite, ...]  # in batch order: one history row each
    final: dict[SubjectKey, PlannedWrite]  # per subject, the entry its row ends at
    created: frozenset[SubjectKey]  # subjects with no row before this batch (not even a tombstone)
    committed: tuple[CommittedWrite, ...]  # what each entry did, in batch order (``Commit.writes``)

    def commit(self, envelope: RecordEnvelope) -> Commit:
        return accepted_commit(envelope, self.committed)


def prepare(envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> PreparedBatch:
    """Validate and encode a batch. Raises ``EmptyBatch``, ``TypeError`` or ``ValueError``."""
    writes, prepared = encode(envelope, writes)
    rows = []
    for write in writes:  # a loop: a comprehension makes a function per commit
        rows.append([write.subject_type, write.subject_id, write.expect.number, write.state])
    digest = _sha256(_orjson_dumps({"envelope": envelope.to_json(), "writes": rows}, default=_default,
                                   option=_SORT_KEYS)).digest()  # ``jsonvalue.canonical``, called directly
    return PreparedBatch(envelope, prepared, digest)


def encode(envelope: RecordEnvelope, writes: Sequence[SubjectWrite]
           ) -> tuple[tuple[SubjectWrite, ...], tuple[PreparedWrite, ...]]:
    """``prepare`` without the digest: the batch as a tuple, and each write with its state
    serialised once. Raises ``EmptyBatch``, ``TypeError`` or ``ValueError``."""
    if not isinstance(envelope, RecordEnvelope):
        raise TypeError(f"envelope must be a RecordEnvelope, not {type(envelope).__name__}")
    # A single write is a batch of one; any iterable is taken once (a generator included).
    writes = (writes,) if isinstance(writes, SubjectWrite) else tuple(writes)
    if not writes:
        raise EmptyBatch(envelope.record_id)
    prepared: list[PreparedWrite] = []
    new = tuple.__new__
    for write in writes:
        if type(write) is not SubjectWrite and not isinstance(write, SubjectWrite):
            raise TypeError(f"a batch holds SubjectWrite values, not {type(write).__name__}")
        state = write.state
        if state is None:
            state_json = None
        else:  # ``_encode_state``, inline: a served write encodes four states per commit
            try:
                state_json = _orjson_dumps(state, default=_default).decode("utf-8")
            except (TypeError, ValueError) as exc:  # orjson.JSONEncodeError is a TypeError
                raise ValueError(f"state of {write.subject_type}/{write.subject_id} is not JSON: {exc}") from None
            if "null" in state_json and not _flat_plain(state) and not _all_floats_finite(state):  # ``check_finite``
                raise ValueError(f"state of {write.subject_type}/{write.subject_id} holds a non-finite number")
        prepared.append(new(PreparedWrite, ((write.subject_type, write.subject_id), write.expect, state_json)))
    return writes, tuple(prepared)


_orjson_dumps, _default, _SORT_KEYS, _sha256 = orjson.dumps, jsonvalue.dumps_default, orjson.OPT_SORT_KEYS, hashlib.sha256
"""``jsonvalue.dumps(value)`` without its option handling: the one call a state's encoding is,
called directly with its keyword (a ``functools.partial`` of it built a keyword dict per call)."""


def _encode_state(write: SubjectWrite) -> str:
    try:
        text = _orjson_dumps(write.state, default=_default).decode("utf-8")
    except (TypeError, ValueError) as exc:  # orjson.JSONEncodeError is a TypeError
        raise ValueError(f"state of {write.subject_type}/{write.subject_id} is not JSON: {exc}") from None
    check_finite(write, text)
    return text


encode_state = _encode_state


def check_finite(write: SubjectWrite, text: str) -> None:
    """Refuse a state whose text ``text`` lost a non-finite number: orjson writes NaN and
    infinities as null, a silent change of value. Floats are rare in state (the codec reads
    numbers as int or JsonNumber), so the walk runs only when the text could hold one."""
    if ("null" in text) and not _all_floats_finite(write.state):
        raise ValueError(f"state of {write.subject_type}/{write.subject_id} holds a non-finite number")


def _flat_plain(state: Any) -> bool:
    """Whether ``state`` is a dict of text, integers, booleans and nulls, and of lists of texts or
    of lists of texts (no float, so its nulls are its own): a served write's log entry, whose
    entry is one JSON text and whose subjects are pairs of texts."""
    for member in state.values():
        kind = type(member)
        if kind is str or kind is int or kind is bool or member is None:
            continue
        if kind is not list:
            return False
        for element in member:
            if type(element) is str:
                continue
            if type(element) is not list:
                return False
            for text in element:
                if type(text) is not str:
                    return False
    return True


def _all_floats_finite(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            continue  # the usual leaves, told apart by their exact type before any isinstance
        if kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return True


def plan(batch: PreparedBatch, heads: Mapping[SubjectKey, Head], floors: Mapping[str, int] | None = None) -> Plan:
    """Check every expectation in order against ``heads`` (the rows the provider read for
    ``batch.keys()``, each a ``Head`` or a plain ``(revision, live)`` pair; a missing key has no
    row at all) and compute the revisions. ``floors``: per type, the revision a tombstone the
    bound forgot reached (``forgetting.py``): a subject with no row starts above it."""
    entries: list[PlannedWrite] = []
    committed: list[CommittedWrite] = []
    final: dict[SubjectKey, PlannedWrite] = {}
    for write in batch.writes:
        key = write.key
        earlier = final.get(key)  # an earlier entry of this batch is the head the next one sees
        if earlier is not None:
            revision, live = earlier.revision, earlier.state_json is not None
        else:
            head = heads.get(key)
            revision, live = ((floors.get(key[0], 0) if floors else 0), False) if head is None else head
        live_revision = revision if live else None
        if write.expect.number != live_revision:
            raise RevisionConflict(key[0], key[1], write.expect, live_revision)
        # A creation after a tombstone continues the tombstone's revisions: they never restart.
        entry = tuple.__new__(PlannedWrite, (key, write.expect, revision + 1, write.state_json))  # no Python __new__
        entries.append(entry)
        committed.append(committed_write(key[0], key[1], write.expect, revision + 1, write.state_json is None))
        final[key] = entry
    created = []
    for key in final:  # a loop: a comprehension makes a function per commit
        if key not in heads:
            created.append(key)
    return tuple.__new__(Plan, (tuple(entries), final, frozenset(created), tuple(committed)))


# --------------------------------------------------------------------------------------------
# Row encodings shared by the SQL providers


def encode_commit_writes(commit: Commit) -> str:
    """The committed writes of a record, kept so an exact retry returns the original commit."""
    return jsonvalue.dumps([[w.subject_type, w.subject_id, w.expect.number, w.revision, w.deleted]
                            for w in commit.writes]).decode("utf-8")


def decode_commit(envelope: RecordEnvelope, writes_json: str) -> Commit:
    return Commit(envelope, tuple(CommittedWrite(t, i, Expect(e), r, bool(d))
                                  for t, i, e, r, d in jsonvalue.loads(writes_json)))


def stored(subject_type: str, subject_id: str, revision: int, state_json: str | bytes) -> Stored:
    return Stored(subject_type, subject_id, revision, jsonvalue.loads(state_json))


def history_entry(revision: int, record_id: str, recorded_at: str, actor: str | None,
                  correlation_id: str | None, causation_id: str | None, state_json: str | None) -> HistoryEntry:
    return HistoryEntry(revision, record_id, recorded_at, NO_ACTOR if actor is None else actor,
                        correlation_id, causation_id, None if state_json is None else jsonvalue.loads(state_json))

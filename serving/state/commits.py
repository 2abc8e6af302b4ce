"""One recorded commit of the served state (step 3 of a write, ``stored.py``): its record
id and envelope, the batch a decided write commits, and committing through a backend that may
not answer.

A write's batch holds the changed entity (or document), a collection the write created, meta
(expecting the revision read: every write changes it, so two writes decided on one revision
cannot both commit), the log entry naming the state subjects it changed, and the history entry
under the record id. Each state subject expects the revision the local copy holds for it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from itertools import count
from typing import Any, NamedTuple

from capenv.serving.store import Commit, Expect, RecordEnvelope, Store, StoreUnreachable, SubjectWrite
from capenv.serving.store.contract import slot_setters
from capenv.serving.writes.generator_state import Decision, WriteMeta

from .index import HeldCollection, key_of
from .mirror import StateMirror, entry_length
from .records import WRITE, write_record
from .subjects import (
    COLLECTION, DOCUMENT, ENTITY, KNOWN_ID, META_ID, Subjects, collection_state, document_state, entity_state,
    entity_subject_id, log_record, log_state, position_id,
)

ACTOR = "capenv runtime"
MAX_ATTEMPTS = 50
"""Decisions per write before giving up; each lost race means another write committed."""
UNREACHABLE_RETRIES = 3


def new_record_id(kind: str) -> str:
    """A record id that sorts by the time it was made: the SQL stores keep subjects and records
    in b-trees ordered by id, so ids made in order land on the same rightmost pages instead of
    dirtying a random page per commit. 128 random bits keep ids of one instant unique."""
    global _drawn
    text, taken = _drawn
    at = next(taken) * 32  # ``next`` of a count is atomic: two threads never take one part
    if at >= len(text):
        text = os.urandom(16 * _DRAWN_AT_ONCE).hex()
        _drawn = (text, count(1))
        at = 0
    return f"capenv-{kind}-{time.time_ns():016x}-{text[at:at + 32]}"


_DRAWN_AT_ONCE = 256
"""Ids whose random parts are drawn from the OS in one call: a call per id was one of the ~24
system calls of a served SQLite create."""
_drawn: tuple[str, Iterator[int]] = ("", count())
"""The random parts drawn (hex, 32 digits an id) and the count of those taken; one text, not a
part per id, so no small objects made among a large install's outlive it (issue 11)."""


def _forget_drawn() -> None:
    """In a forked child: draw afresh, never an id its parent takes too."""
    global _drawn
    _drawn = ("", count())


os.register_at_fork(after_in_child=_forget_drawn)


def redate(made: RecordEnvelope) -> None:
    """Date ``made`` now: the envelope of a commit prepared ahead (a data/reset's, made before a
    data/add: ``StoreStateHolder.reset_ahead``), which nothing has read yet; set in place, since
    every row the commit was staged with names this one object."""
    object.__setattr__(made, "recorded_at", _now())


_PLAIN_ID = re.compile(r"[\x21-\x7e]+")
"""Printable ASCII without spaces: a record id the store's rules accept, whatever they check
(text, not blank, no NUL, UTF-8). Every generated id is one."""


def envelope(record_id: str, *, generated: bool = False) -> RecordEnvelope:
    """The envelope of a commit made now; raises (TypeError, ValueError) for an id the store's
    rules refuse. ``generated``: the id is ``new_record_id``'s, plain by construction."""
    recorded_at = _now()
    if not generated and (type(record_id) is not str or _PLAIN_ID.fullmatch(record_id) is None):
        return RecordEnvelope(record_id, recorded_at, ACTOR)  # checked, and refused as the store words it
    # Every field is one the checks accept by construction (a plain id, ``_now``'s strict
    # ISO-8601 text, a non-blank actor), so they are not run again on a served write's hot path.
    made = object.__new__(RecordEnvelope)
    set_id, set_at, set_actor, set_correlation, set_causation = _ENVELOPE_SLOTS
    set_id(made, record_id)
    set_at(made, recorded_at)
    set_actor(made, ACTOR)
    set_correlation(made, None)
    set_causation(made, None)
    return made


_ENVELOPE_SLOTS = slot_setters(RecordEnvelope, ("record_id", "recorded_at", "actor", "correlation_id", "causation_id"))


def expect(revision: int | None) -> Expect:
    return _ABSENT if revision is None else Expect.revision(revision)


_ABSENT = Expect.absent()


def commit(store: Store, envelope: RecordEnvelope, batch: list[SubjectWrite]) -> Commit:
    # An unreachable backend leaves the outcome unknown: the same envelope and batch again
    # return the original commit if it landed, and are decided afresh if it did not.
    for attempt in range(UNREACHABLE_RETRIES + 1):
        try:
            return store.commit(envelope, batch)
        except StoreUnreachable:
            if attempt == UNREACHABLE_RETRIES:
                raise
            time.sleep(0.1 * (attempt + 1))
    raise AssertionError("unreachable")


# --- a served write's batch ------------------------------------------------------------------


class _Types(NamedTuple):
    """One environment's subject type names, spelled once (``Subjects`` spells them anew per use)."""

    collection: str
    entity: str
    document: str
    meta: str
    log: str
    write: str


_spelled: dict[str, _Types] = {}  # environment -> its type names


def _types(subjects: Subjects) -> _Types:
    """The type names of ``subjects``, spelled on first use (looked up by the environment's
    text, whose hash Python keeps: a dataclass key would hash and compare in Python per call)."""
    types = _spelled.get(subjects.environment)
    if types is None:
        if len(_spelled) >= 64:
            _spelled.clear()
        types = _spelled[subjects.environment] = _Types(
            subjects.type_of(COLLECTION), subjects.type_of(ENTITY), subjects.type_of(DOCUMENT),
            subjects.meta, subjects.log, subjects.write)
    return types


_WRITE_SLOTS = slot_setters(SubjectWrite, ("subject_type", "subject_id", "expect", "state"))


def _trusted(subject_type: str, subject_id: str, expected: Expect, state: dict[str, Any],
             _new: Any = object.__new__, _slots: tuple[Any, ...] = _WRITE_SLOTS) -> SubjectWrite:
    """A ``SubjectWrite`` of a state the runtime built, made without ``__post_init__``'s checks,
    which hold by construction here (a served write's hot path): the type is one of ``_types``'s
    names, the id is JSON text (``entity_subject_id``), a position or a checked record id (never
    blank, no raw NUL, UTF-8), ``expected`` an ``Expect`` and ``state`` a dict. A deletion, a
    collection and anything else goes through the checked constructor."""
    write = _new(SubjectWrite)
    set_type, set_id, set_expect, set_state = _slots
    set_type(write, subject_type)
    set_id(write, subject_id)
    set_expect(write, expected)
    set_state(write, state)
    return write


def write_batch(subjects: Subjects, mirror: StateMirror, decision: Decision, record_id: str,
                request: dict[str, Any], digest: str, rules_revision: str, *, keyed: bool = True
                ) -> tuple[list[SubjectWrite], list[tuple[str, str]], int | None]:
    """The commit of a decided write, the state subjects it touches (``(kind, id)``) and the
    growth of data/get it causes (an upper bound; None: measure again). ``record_id``: one
    ``envelope`` accepts (a generated id, or a key the caller checked); ``digest``: the
    request's (``records.request_digest``), taken once per write. ``keyed``: ``record_id`` is a
    client's idempotency key, looked up by it (``StoreStateHolder._recorded``): the history record
    is its own ``write`` subject; a write without a key (a generated id nothing looks up) keeps
    its record in its log entry (``subjects.log_record``), one subject and one history row fewer."""
    assert decision.result is not None
    provenance = decision.result.provenance
    view = provenance.get("view")
    types = _types(subjects)
    writes: list[SubjectWrite] = []
    touched: list[tuple[str, str]] = []
    growth: int | None = decision.growth
    if view in ("create", "update", "delete"):
        collection = mirror.index.collections[provenance["collection"]]
        if (types.collection, collection.path) not in mirror.revisions:  # the write created it
            rank = mirror.rank_for_new_collection()
            mirror.collection_ranks[collection.path] = rank
            writes.append(_subject(subjects, mirror, COLLECTION, collection.path, collection_state(collection, rank)))
            touched.append((COLLECTION, collection.path))
            growth = None
        entity_write, key = _entity_write(subjects, mirror, view, collection, decision, types.entity)
        writes.append(entity_write)
        touched.append((ENTITY, entity_write.subject_id))
        if view == "create" and growth is not None:
            growth = entry_length(collection, key) + 1  # exact, or one over for a first entity
        elif view == "delete":
            growth = 0  # an upper bound: the state shrank
    elif view == "document-write":
        path = provenance["path"]
        writes.append(_subject(subjects, mirror, DOCUMENT, path, document_state(
            path, mirror.index.documents[path], mirror.index.document_records.get(path, ()),
            mirror.document_ranks[path])))
        touched.append((DOCUMENT, path))
    else:
        raise RuntimeError(f"a write answered provenance view {view!r}; the store cannot keep it")
    if mirror.meta.known is not None and (types.meta, KNOWN_ID) not in mirror.revisions:
        # A store from before the spellings left meta: they move out with this write.
        writes.append(SubjectWrite(types.meta, KNOWN_ID, Expect.absent(), mirror.meta.known.to_json()))
    position = mirror.position + 1
    writes.append(_trusted(types.meta, META_ID, Expect.revision(mirror.position), decision.meta.commit_json()))
    record = write_record(position, request, digest, rules_revision, decision)
    if keyed:
        writes.append(_trusted(types.log, position_id(position), _ABSENT, log_state(record_id, WRITE, touched)))
        writes.append(_trusted(types.write, record_id, _ABSENT, record))
    else:
        writes.append(_trusted(types.log, position_id(position), _ABSENT, log_record(record_id, touched, record)))
    return writes, touched, growth


def _entity_write(subjects: Subjects, mirror: StateMirror, view: str, collection: HeldCollection,
                  decision: Decision, subject_type: str) -> tuple[SubjectWrite, str]:
    """``subject_type``: the environment's entity type (``_types(subjects).entity``)."""
    assert decision.result is not None
    if view == "delete":
        key = decision.result.changed[0]  # the executor names the removed entity's key
        mirror.ranks_of(collection.path).pop(key, None)
        return _subject(subjects, mirror, ENTITY, entity_subject_id(collection.path, key), None), key
    key = key_of(decision.result.provenance["id"])
    if key not in collection.entities:
        raise RuntimeError(f"the executor answered {view} of {key!r}, which {collection.path} does not hold")
    if view == "create":
        rank = mirror.rank_for_new_entity(collection, key)
    else:
        rank = mirror.ranks_of(collection.path)[key]
    subject_id = entity_subject_id(collection.path, key)
    revision = mirror.revisions.get((subject_type, subject_id))
    expected = _ABSENT if revision is None else Expect.revision(revision)
    return _trusted(subject_type, subject_id, expected, entity_state(collection, key, rank)), key


def _subject(subjects: Subjects, mirror: StateMirror, kind: str, subject_id: str,
             state: dict[str, Any] | None) -> SubjectWrite:
    """A write of a state subject, expecting the revision the local copy holds."""
    subject_type = subjects.type_of(kind)
    return SubjectWrite(subject_type, subject_id, expect(mirror.revisions.get((subject_type, subject_id))), state)


def note_commit(subjects: Subjects, mirror: StateMirror, commit: Commit, meta: WriteMeta) -> None:
    """Hold what a write's commit left in the store: the revisions the next write expects, and
    meta (whose revision is the state's position)."""
    types = _types(subjects)
    once = (types.log, types.write)  # written once, never expected again: not worth holding
    by_type = mirror.revisions.by_type
    for written in commit.writes:
        subject_type = written.subject_type
        if subject_type in once:
            continue
        ids = by_type.get(subject_type)
        if ids is None:
            ids = by_type[subject_type] = {}
        if written.deleted:
            ids.pop(written.subject_id, None)
        else:
            ids[written.subject_id] = written.revision
    mirror.meta = meta
    mirror.position = by_type[types.meta][META_ID]


_second: tuple[int, str] = (-1, "")  # the last whole second ``_now`` spelled, and its spelling


def _now() -> str:
    """``datetime.now(timezone.utc).isoformat(timespec="microseconds")``, spelling each whole
    second once."""
    global _second
    seconds, micros = divmod(time.time_ns() // 1000, 1_000_000)
    held = _second
    if held[0] != seconds:
        held = _second = (seconds, datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")[:-6])
    return f"{held[1]}.{micros:06d}+00:00"

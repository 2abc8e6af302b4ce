"""The write contract every store provider keeps (seeds/storage-and-replay.txt, DESIGN.md §8).

A store holds JSON objects ("subjects") keyed by ``(subject_type, subject_id)``, each at a
revision. Every change is a commit: an ordered batch of subject writes under one recorded
envelope, applied completely or not at all. Each write states what its caller expected
(``Expect.absent()`` for a creation, ``Expect.revision(n)`` for a change decided on revision
``n``); a stale expectation is a ``RevisionConflict`` that writes nothing. The envelope's record
id makes a commit idempotent: the same record id with identical bytes returns the original
commit, with different bytes it is a ``RecordConflict``.

Revisions start at 1 and never restart. Deleting writes a tombstone at the next revision; the
subject then loads as absent, and a later creation continues after the tombstone's revision.

The models are frozen dataclasses validated on construction, so an invalid envelope or write
is refused before any provider sees it.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from capenv.serving.store.recorded_at import recorded_at_problem

# --------------------------------------------------------------------------------------------
# Errors


class StoreError(Exception):
    """Base of every error a store raises on purpose."""


class RevisionConflict(StoreError):
    """A write's expectation did not hold; the whole commit wrote nothing.

    ``found`` is the live revision the store held, or None when the subject was absent (never
    stored, or deleted). Reload and decide again: never patch the newer state with an old result.
    """

    def __init__(self, subject_type: str, subject_id: str, expected: Expect, found: int | None) -> None:
        self.subject_type = subject_type
        self.subject_id = subject_id
        self.expected = expected
        self.found = found
        found_text = "absent" if found is None else f"revision {found}"
        super().__init__(f"revision conflict on {subject_type}/{subject_id}: "
                         f"expected {expected.describe()}, found {found_text}")


class RecordConflict(StoreError):
    """The record id was already committed with different bytes; nothing was written."""

    def __init__(self, record_id: str) -> None:
        self.record_id = record_id
        super().__init__(f"record id {record_id!r} was already committed with different content; "
                         "a new request needs a new record id")


class RecordForgotten(RecordConflict):
    """The record id was committed, then forgotten under the store's bound on the commits it keeps
    (``Store.bound_records``: the budget ``Store.records_budget`` names). Its original commit is no
    longer held, so a retry can neither be answered with it nor be run again as a new commit: it is
    refused, and nothing is written."""

    def __init__(self, record_id: str, kept: int | None, budget: str = "memory_store_commits") -> None:
        self.record_id = record_id
        self.kept = kept
        kept_text = f"its last {kept}" if kept else "its last"
        StoreError.__init__(self, f"record id {record_id!r} was committed, then forgotten: this store keeps the "
                            f"records of {kept_text} commits only (budget {budget}), so a retry "
                            "can no longer be answered; a new request needs a new record id")


class EmptyBatch(StoreError, ValueError):
    """A commit with no writes: refused, so it neither changes anything nor reserves its record id."""

    def __init__(self, record_id: str) -> None:
        self.record_id = record_id
        super().__init__(f"commit {record_id!r} has no writes; an empty batch is refused")


class StoreUnreachable(StoreError):
    """The provider could not reach its backend. This says nothing about whether a subject exists.

    Raised from a commit it means the outcome is unknown: retry with the same record id, which
    returns the original commit if the first attempt did land.
    """


class StoreBackendError(StoreError):
    """The backend refused or failed an operation for a reason outside the contract (a trigger, a
    full disk, a lock held past the timeout). The commit, if any, wrote nothing."""


class StoreClosed(StoreError):
    """The store was used after ``close()``."""


# --------------------------------------------------------------------------------------------
# Values


def _require_text(name: str, value: object) -> str:
    """Non-blank text that every backend can hold (no NUL, which PostgreSQL text refuses; no lone
    surrogate, which is not UTF-8)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, not {type(value).__name__}")
    if not value or value.isspace():
        raise ValueError(f"{name} must not be blank")
    if "\x00" in value:
        raise ValueError(f"{name} must not contain a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{name} is not valid Unicode text ({exc.reason})") from None
    return value


require_text = _require_text


@dataclass(frozen=True, slots=True)
class Expect:
    """What a write expects of its subject: absent (``number`` None) or live at revision ``number``.

    Build with ``Expect.absent()`` or ``Expect.revision(n)``.
    """

    number: int | None

    def __post_init__(self) -> None:
        if self.number is not None and (type(self.number) is not int or self.number < 1):
            raise ValueError(f"an expected revision is an integer >= 1, not {self.number!r}")

    @classmethod
    def absent(cls) -> Expect:
        return _ABSENT

    @classmethod
    def revision(cls, number: int) -> Expect:
        if type(number) is int and number >= 1:  # every served write expects one: built without the checks it passes
            made = object.__new__(cls)
            _set_expected_number(made, number)
            return made
        return cls(number)  # refused as ``__post_init__`` words it

    @property
    def is_absent(self) -> bool:
        return self.number is None

    def describe(self) -> str:
        return "absent" if self.number is None else f"revision {self.number}"

    def __repr__(self) -> str:
        return "Expect.absent()" if self.number is None else f"Expect.revision({self.number})"


_ABSENT: Final = Expect(None)
_set_expected_number = Expect.__dict__["number"].__set__


class NoActor:
    """The explicit statement that a commit had no actor. Use the ``NO_ACTOR`` singleton."""

    __slots__ = ()
    _instance: NoActor | None = None

    def __new__(cls) -> NoActor:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_ACTOR"

    def __reduce__(self) -> str:
        return "NO_ACTOR"  # pickles (e.g. to a worker process) as the same singleton


NO_ACTOR: Final = NoActor()


@dataclass(frozen=True, slots=True)
class RecordEnvelope:
    """What the shell supplies around a commit.

    ``record_id`` names the request (idempotency key, global to the store). ``recorded_at`` is a
    strict ISO-8601 time with a real date and a zone, kept as the given string. ``actor`` is a
    non-blank string or ``NO_ACTOR``; None is refused so that "no actor" is always a statement.
    """

    record_id: str
    recorded_at: str
    actor: str | NoActor
    correlation_id: str | None = None
    causation_id: str | None = None

    def __post_init__(self) -> None:
        _require_text("record_id", self.record_id)
        problem = recorded_at_problem(self.recorded_at)
        if problem is not None:
            raise ValueError(problem)
        if self.actor is None:
            raise TypeError("actor must be a string or NO_ACTOR; None is not accepted")
        if not isinstance(self.actor, NoActor):
            _require_text("actor", self.actor)
        for name in ("correlation_id", "causation_id"):
            value = getattr(self, name)
            if value is not None:
                _require_text(name, value)

    def to_json(self) -> dict[str, Any]:
        """The envelope as JSON (``NO_ACTOR`` is null): part of the bytes a retry must repeat."""
        return {
            "record_id": self.record_id,
            "recorded_at": self.recorded_at,
            "actor": None if isinstance(self.actor, NoActor) else self.actor,
            "correlation_id": self.correlation_id,
            "causation_id": self.causation_id,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RecordEnvelope:
        actor = data["actor"]
        return cls(data["record_id"], data["recorded_at"], NO_ACTOR if actor is None else actor,
                   data.get("correlation_id"), data.get("causation_id"))


@dataclass(frozen=True, slots=True)
class SubjectWrite:
    """One entry of a batch: set a subject to ``state`` (a JSON object), or delete it (``state``
    None, which writes a tombstone and so needs ``Expect.revision``: only a live subject can be
    deleted). The state is serialised when the batch is committed; mutating it afterwards changes
    nothing stored."""

    subject_type: str
    subject_id: str
    expect: Expect
    state: dict[str, Any] | None

    def __post_init__(self) -> None:
        _require_text("subject_type", self.subject_type)
        _require_text("subject_id", self.subject_id)
        if not isinstance(self.expect, Expect):
            raise TypeError(f"expect must be an Expect, not {type(self.expect).__name__}")
        if self.state is None:
            if self.expect.is_absent:
                raise ValueError(f"deleting {self.subject_type}/{self.subject_id} needs Expect.revision(n): "
                                 "an absent subject cannot be deleted")
        elif not isinstance(self.state, dict):
            raise TypeError(f"a subject's state is a JSON object (dict) or None, not {type(self.state).__name__}")

    @property
    def key(self) -> tuple[str, str]:
        return (self.subject_type, self.subject_id)


@dataclass(frozen=True, slots=True)
class CommittedWrite:
    """What one batch entry did: the revision it produced, and whether that revision is a tombstone."""

    subject_type: str
    subject_id: str
    expect: Expect
    revision: int
    deleted: bool


def slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The setters of a slotted class's fields: a hot path building a frozen value the store made
    itself calls them directly rather than ``object.__setattr__`` per field."""
    return tuple(cls.__dict__[name].__set__ for name in names)


_COMMITTED_SLOTS = slot_setters(CommittedWrite, ("subject_type", "subject_id", "expect", "revision", "deleted"))


def committed_write(subject_type: str, subject_id: str, expect: Expect, revision: int, deleted: bool,
                    _new: Any = object.__new__, _cls: type = CommittedWrite,
                    _slots: tuple[Any, ...] = _COMMITTED_SLOTS) -> CommittedWrite:
    """``CommittedWrite(...)`` as a store's commit builds it, once per entry: its slots set directly
    (half the cost of the frozen dataclass's ``__init__``, which goes through ``object.__setattr__``
    per field). The values are the store's own, so there is nothing to check."""
    made = _new(_cls)
    set_type, set_id, set_expect, set_revision, set_deleted = _slots
    set_type(made, subject_type)
    set_id(made, subject_id)
    set_expect(made, expect)
    set_revision(made, revision)
    set_deleted(made, deleted)
    return made


@dataclass(frozen=True, slots=True)
class Commit:
    """An accepted commit. An exact retry returns an equal value: it describes the original
    operation, not a fresh read of the subjects."""

    envelope: RecordEnvelope
    writes: tuple[CommittedWrite, ...]

    @property
    def record_id(self) -> str:
        return self.envelope.record_id


_COMMIT_SLOTS = slot_setters(Commit, ("envelope", "writes"))


def accepted_commit(envelope: RecordEnvelope, writes: tuple[CommittedWrite, ...], _new: Any = object.__new__,
                    _cls: type = Commit, _slots: tuple[Any, ...] = _COMMIT_SLOTS) -> Commit:
    """``Commit(envelope, writes)`` as a store builds it (see ``committed_write``)."""
    made = _new(_cls)
    _slots[0](made, envelope)
    _slots[1](made, writes)
    return made


@dataclass(frozen=True, slots=True)
class Stored:
    """A live subject as loaded: its state and the revision that state is at."""

    subject_type: str
    subject_id: str
    revision: int
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One revision of a subject with the envelope of the commit that produced it. ``state`` is
    None for a tombstone."""

    revision: int
    record_id: str
    recorded_at: str
    actor: str | NoActor
    correlation_id: str | None
    causation_id: str | None
    state: dict[str, Any] | None


# --------------------------------------------------------------------------------------------
# The provider interface


class Store(abc.ABC):
    """A store provider. Every provider is safe to share between threads; the SQLite and
    PostgreSQL providers are also safe to share between processes on one file or server."""

    @abc.abstractmethod
    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        """Apply ``writes`` in order as one atomic batch under ``envelope`` (a single
        ``SubjectWrite`` is accepted as a batch of one).

        A later entry sees the revision an earlier one produced. Raises ``RevisionConflict`` (a
        stale expectation), ``RecordConflict`` (record id reused with different bytes),
        ``EmptyBatch``; in every such case nothing is written and the record id stays free. An
        exact retry of a committed record id returns the original ``Commit``.
        """

    @abc.abstractmethod
    def load(self, subject_type: str, subject_id: str) -> Stored | None:
        """The live subject, or None when it was never stored or is deleted."""

    def revision(self, subject_type: str, subject_id: str) -> int | None:
        """The live subject's revision, or None when ``load`` would answer None; the state is not
        read. A reader's head check (has anything moved?) then costs no parse of the state.
        Providers override this to skip reading the state at all."""
        stored = self.load(subject_type, subject_id)
        return None if stored is None else stored.revision

    @abc.abstractmethod
    def list_ids(self, subject_type: str) -> list[str]:
        """Ids of the live subjects of a type, sorted by code point; an unknown type lists nothing."""

    @abc.abstractmethod
    def history(self, subject_type: str, subject_id: str) -> list[HistoryEntry]:
        """Every revision of a subject, oldest first, read in one transaction: the last entry is the
        subject's current state (or its tombstone). Empty for a subject never stored."""

    @abc.abstractmethod
    def snapshot(self, subject_types: Iterable[str] | None = None) -> dict[str, dict[str, Stored]]:
        """Every live subject of the named types (all types when None), read in one transaction:
        ``{subject_type: {subject_id: Stored}}``, types and ids sorted; a type with no live subject
        is left out."""

    def compact(self, subject_types: Iterable[str]) -> None:
        """Forget what the named types no longer need, so a store that installs whole states over
        and over stays the same size: every history entry of their subjects but the last, every
        deleted subject whole (its next write expects absent and starts again at revision 1), and
        every record id no history entry names any more (an exact retry of it is then a new commit).
        Live subjects, their revisions and other types are untouched. The default forgets nothing."""

    records_budget: str = "memory_store_commits"
    """The budget (``rules/budgets.yaml``) a runtime bounds this store's records with: the memory
    store's holds them in the process, the SQL providers' on disk."""

    def bound_records(self, commits: int | None, journal_types: Iterable[str] = ()) -> None:
        """Keep the history entries and record ids of the last ``commits`` commits only (None:
        all). An older commit's record id is then forgotten: its retry raises ``RecordForgotten``
        (``forgotten`` says so beforehand), never commits again. Its history entries go, but each
        subject keeps its head; a tombstone goes whole, a later creation of its id continuing above
        its revision; and a subject of a ``journal_types`` type (written once, as its commit's own
        record) goes with its commit. The default keeps everything."""

    def forgotten(self, record_id: str) -> bool:
        """Whether ``record_id`` was committed and then forgotten under ``bound_records`` (its
        retry would raise ``RecordForgotten``)."""
        return False

    def forget_commits(self, record_ids: Iterable[str], journal_types: Iterable[str] = ()) -> None:
        """Forget these commits now, as ``bound_records`` forgets the oldest past its bound: for a
        caller that keeps a bound of its own over a store others write to (a fleet's instance over
        the fleet's store: one instance's writes must not push out another's records). A record id
        never committed, or forgotten already, is passed over. The default forgets nothing."""

    reads_never_wait: bool = False
    """Whether a read (``revision``, ``load``) answers without waiting on anything but this
    process's CPU and local file reads: never on another process's transaction, a lock another
    thread of this process holds, or a network. A runtime may then make its head check on a
    transport's event loop (``EnvironmentRuntime.http_on_loop``). False (the default) for any
    store that cannot promise it."""

    replaces_whole: bool = False
    """Whether ``commit_replace`` is available (``replace.py``); else a caller commits the
    difference as a batch and compacts after."""

    def stage_replace(self, prepared: Any) -> Any:
        """What ``commit_replace`` takes for a ``replace.PreparedReplace``, with whatever the
        provider can build of it beside the store (any thread; nothing the store holds is read or
        changed). By default the prepared replace itself."""
        return prepared

    def commit_replace(self, prepared: Any, expect: Mapping[tuple[str, str], Expect], revision: int) -> Any:
        """Commit a ``replace.PreparedReplace`` when every expectation holds and ``revision`` is
        above every revision its types hold (``replace.py`` says what it does); answers a
        ``replace.ReplaceCommit``. Raises ``RevisionConflict`` (``StaleRevision`` for the
        revision), ``RecordConflict``; nothing is written then."""
        raise NotImplementedError(f"{type(self).__name__} does not replace whole types")

    @abc.abstractmethod
    def close(self) -> None:
        """Release the backend. Idempotent; later calls raise ``StoreClosed``."""

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

"""The served state kept in a store, subject by subject (DESIGN.md §7 "One state", §8).

Layout: ``subjects.py``. What a write does:

1. **Refresh** (``catch_up.py``): read meta's revision (``Store.revision``: the cheap
   head check, no state parsed). When it is the one this process holds, nothing changed.
   Otherwise read the log entries since, and reload only the subjects they name (a reset or
   an add, a long gap or a missing entry reloads everything, from one snapshot). A write
   without an idempotency key leaves its first head check to step 3, where the commit's
   expectation on meta makes it in the same transaction (a copy the store moved past loses
   that commit as a race does, and is refreshed and decided again); its refusal, or an answer
   that commits nothing, checks the head after deciding, and is decided again past it.
2. **Decide** on the state and meta just read (``WriteState.decide``, the executor the gate
   proved), changing the local copy.
3. **Commit** one batch: the changed entity (or document), a collection the write created,
   meta (expecting the revision read: every write changes it, so two writes decided on one
   revision cannot both commit), the log entry, and the history entry: under the record id
   for a write sent with an idempotency key, in the log entry for one sent without
   (``commits.py``). On ``RevisionConflict`` another process (or thread) got there first:
   put the touched subjects back as the store holds them, refresh, decide again.

An idempotency key is the record id. A key already recorded answers its recorded result when
the request is the same and the state is still the one it was used on, and is refused naming the
recorded request otherwise: a key belongs to the state between two installs, so after a data/reset
or data/add its retry is refused (the entity its answer named may be gone), never replayed; a concurrent call under the same key loses the race on the history entry
(expected absent) and then finds it.

data/reset and data/add are one batch each: every state subject that differs is written,
every one the new state lacks is deleted, and meta restarts (``install.py``). data/add comes in
two steps: ``prepare_replace`` builds the new state's copy and subjects (no store read, nothing
changed: any thread, off the runtime's lock), ``install_prepared`` commits it and holds it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import StateSnapshot, WritePlan
from capenv.serving.read_call import CallRefused, ReadCall, Served
from capenv.serving.store import RecordConflict, RevisionConflict, Store
from capenv.serving.writes.generator_state import WriteState

from .catch_up import catch_up, load_whole, put_back
from .commits import MAX_ATTEMPTS, commit, envelope, new_record_id, note_commit, redate, write_batch
from .index import StateIndex
from .install import PreparedInstall, install, prepare, replace_whole
from .landing import Landed, Landing
from .mirror import StateMirror
from .records import ADD, RESET, WRITE, request_digest, request_of, served_from, write_entry
from .subjects import META_ID, Subjects

Encoder = Callable[[StateSnapshot], bytes]


@dataclass
class PreparedAdd:
    """A data/add ready to commit: the prepared install and what data/get writes for it; once
    installed, ``replaced`` keeps the copy it replaced (and the store's staged replace the rows it
    swapped out), so that state is freed where the caller drops this object, not under its lock."""

    install: PreparedInstall
    encoded: bytes | None
    text: str | None  # ``encoded`` as text: what the add's history entry keeps (None: a reset)
    committed: bool = False  # committed aside (``commit_aside``): the install only takes it up
    kind: str = ADD
    replaced: list[Any] = field(default_factory=list)


class StoreStateHolder:
    def __init__(self, store: Store, bundle: Bundle, writes: WriteState, encode: Encoder, *,
                 shared: bool = True, subjects: Subjects | None = None) -> None:
        """``shared=False`` promises that nothing else writes to ``store`` (a MemoryStore the
        runtime made for itself): reads then skip the head check. ``subjects``: the state's subject
        types (a fleet instance's are its own; by default the environment's)."""
        self._store = store
        self._shared = shared
        self._writes = writes
        self._rules_revision = bundle.info.rules_revision
        self._catch_up_entries = bundle.view.budgets.catch_up_entries
        self._encode = encode
        self.subjects = subjects if subjects is not None else Subjects(bundle.view.evidence_id)
        self._landing = Landing()  # a data/add committed aside, for this thread to take up
        self._mirror: StateMirror | None = None
        self._encoded: bytes | None = None
        self._size: int | None = None  # what data/get writes, in bytes; None: measure it again
        self._stale = False  # an unexpected failure mid-write: reload whole before trusting the mirror
        self._as_held = False  # ``as_held``: ``working`` answers the copy without its refresh
        # A store holding its records in memory keeps the last commits' only; the log and history
        # entries are each one commit's own record, and go with it (``Store.bound_records``).
        kept = getattr(bundle.view.budgets, store.records_budget)
        store.bound_records(kept or None, (self.subjects.log, self.subjects.write))
        self._replaced: list[Any] = []  # what a call replaced, to free after its lock (``take_replaced``)
        self._reset_made: PreparedInstall | None = None  # the next data/reset, prepared ahead (``reset_ahead``)
        self._reset_slot = threading.Lock()  # ``reset_ahead`` runs aside, beside a data/reset's preparation

    @property
    def store(self) -> Store:
        return self._store

    # --- the StateHolder interface -------------------------------------------------------

    def load(self, initial: StateSnapshot) -> None:
        """Take the state the store holds, or install ``initial`` when it holds none."""
        if not self._reload_whole():
            self._install(self._prepare(StateIndex.from_snapshot(initial), RESET, whole=False), RESET,
                          only_if_absent=True)

    def working(self) -> StateIndex:
        self.refresh()
        return self._held().index

    def caught_up(self) -> bool:
        """Whether the copy held is the store's state now, found by the head check alone (one
        indexed read of meta's revision; nothing caught up, taken up or reloaded): no install
        landed aside and waiting, no failed write to reload after, and meta at the copy's
        position. A read that finds it so, under the runtime's lock, may answer from the copy as
        it is (``as_held``)."""
        mirror = self._mirror
        if mirror is None or self._stale or self._landing.waiting():
            return False
        return not self._shared or self._store.revision(self.subjects.meta, META_ID) == mirror.position

    @contextmanager
    def as_held(self) -> Iterator[None]:
        """Within the block, ``working`` answers the copy as it is, without refreshing it first:
        for a read that ``caught_up`` found current under the same hold of the runtime's lock."""
        self._as_held = True
        try:
            yield
        finally:
            self._as_held = False

    def encoded(self) -> bytes:
        self.refresh()
        return self._encoded_now()

    def reset(self, initial: StateSnapshot) -> None:
        self._install(self._reset_prepared(initial), RESET)

    def replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *, adopt: bool = False) -> None:
        """data/add: install ``snapshot`` (``encoded``: what data/get writes for it)."""
        self.install_prepared(self.prepare_replace(snapshot, encoded, adopt=adopt))

    def prepare_replace(self, snapshot: StateSnapshot, encoded: bytes | None = None, *,
                        adopt: bool = False) -> PreparedAdd:
        """data/add's first step: the state to install, built apart from the held one (reads
        nothing the holder or the store holds, changes nothing; safe on any thread)."""
        encoded = encoded if encoded is not None else self._encode(snapshot)
        text = encoded.decode("utf-8")
        return PreparedAdd(self._prepare(StateIndex.from_snapshot(snapshot, adopt=adopt), ADD, document_text=text),
                           encoded, text)

    def prepare_reset(self, initial: StateSnapshot) -> PreparedAdd:
        """data/reset in the steps of a data/add (``prepare_replace``): nothing read or changed."""
        return PreparedAdd(self._reset_prepared(initial), None, None, kind=RESET)

    def reset_ahead(self, initial: StateSnapshot) -> None:
        """Prepare the next data/reset now, before a large state is built (a data/add's).

        What a cycle makes and keeps past it must not be made among the objects of a large state
        it frees: each such object left in one of the allocator's 1 MiB arenas keeps the whole
        arena resident once the rest is freed. A data/reset after a data/add would make the
        initial state's copy and its store rows (hundreds of small objects: index, mirror, meta,
        subjects, the memory store's rows) while the added state fills memory, and keep them, so
        resident memory rose every add+reset cycle (the soak benchmark, issue 11). Made here, they
        sit where the small current state does; the reset takes them up (``_reset_prepared``),
        dated then. Prepared for the position after the add's (a write meanwhile moves it on: the
        reset's commit then writes its record again for the position it lands at, a few rows)."""
        with self._reset_slot:
            if self._reset_made is None:
                self._reset_made = self._prepare(StateIndex.from_snapshot(initial), RESET, installs_before=1)

    def _reset_prepared(self, initial: StateSnapshot) -> PreparedInstall:
        """The data/reset to commit: the one prepared ahead (dated now), else prepared now."""
        with self._reset_slot:
            made, self._reset_made = self._reset_made, None
        if made is None:
            return self._prepare(StateIndex.from_snapshot(initial), RESET)
        if made.envelope is not None:
            redate(made.envelope)
        return made

    def commit_aside(self, prepared: PreparedAdd) -> None:
        """data/add's commit beside the runtime's thread (``landing.py``), on a store other
        processes share and that replaces whole types; elsewhere nothing (``install_prepared``
        commits). Reads and changes nothing the holder's thread uses but the landing slot."""
        if not self._shared or prepared.install.replace is None or prepared.committed:
            return
        position = self._store.revision(self.subjects.meta, META_ID)
        if position is None:
            return
        target = replace_whole(self._store, self.subjects, prepared.install, prepared.kind, position,
                               document_text=prepared.text)
        prepared.committed = True
        self._landing.put(Landed(target, prepared.encoded))

    def install_prepared(self, prepared: PreparedAdd) -> None:
        """data/add's second step: commit the prepared state whole, then hold it (or, committed
        aside, take it up). The copies it replaced are kept on ``prepared``: their last reference
        is dropped with ``prepared``, by the caller, after its lock."""
        if prepared.committed:
            self.refresh()
        else:
            self._commit_install(prepared.install, prepared.kind, document_text=prepared.text,
                                 encoded=prepared.encoded)
        prepared.replaced.extend(self.take_replaced())

    def take_replaced(self) -> list[Any]:
        """What the calls since the last take replaced, kept rather than freed under the caller's
        lock: the copies held before (a reset's, a whole reload's, a landed install's taken up)
        and a replace's staged rows (the store's rows it swapped out). The caller frees them after
        its lock (``memory_release.LockThenRelease``)."""
        taken, self._replaced = self._replaced, []
        return taken

    def write(self, plan: WritePlan | None, tool: str, call: ReadCall, key: str | None = None) -> Served:
        """Serve one write call as one commit (see the module's docstring)."""
        request = request_of(tool, call)
        try:
            digest = request_digest(request)  # what the history records must be writable, before any key is looked up
        except TypeError:
            raise CallRefused("the request holds a string with a lone surrogate, which is not UTF-8 and the "
                              "history cannot record; send UTF-8 text") from None
        if key is not None:
            try:
                envelope(key)  # the store's rules for a record id
            except (TypeError, ValueError) as exc:
                raise CallRefused(f"the idempotency key cannot name a write: {exc}") from None
        record_id = key if key is not None else new_record_id(WRITE)
        key_taken = False
        for attempt in range(MAX_ATTEMPTS):
            # A write without a key is first decided on the copy held, its head check left to the
            # commit, whose expectation on meta is that check made atomically (one store read less
            # per write); an answer that commits nothing checks the head after deciding instead.
            if key is None and attempt == 0:
                unchecked = self._refresh_held()
            else:
                unchecked = False
                self.refresh()
            if key is not None:
                recorded = self._recorded(key, request, digest)
                if recorded is not None:
                    return recorded
                if key_taken:
                    raise CallRefused(f"idempotency key {key!r} was already used in this store for another "
                                      "environment or another kind of change; send this request under a new key",
                                      http_status=409, kind="conflict")
            mirror = self._held()
            # Until the write commits or is put back, the local copy may hold a change the
            # store does not: any failure in between makes the next read reload whole.
            self._stale = True
            try:
                decision = self._writes.decide(plan, call, mirror.index, mirror.meta, self._size_now())
            except CallRefused:
                self._stale = False  # a refusal changes nothing (the executor edits last)
                if unchecked and not self._at_store_head():
                    continue  # refused on a copy the store has moved past: decided again on its state
                raise
            if decision.result is None:  # a recorded absence, or a key's held entity: nothing changed to keep
                self._stale = False
                if unchecked and not self._at_store_head():
                    continue
                return decision.served
            batch, touched, growth = write_batch(self.subjects, mirror, decision, record_id, request, digest,
                                                 self._rules_revision, keyed=key is not None)
            try:
                committed = commit(self._store, envelope(record_id, generated=key is None), batch)
            except (RevisionConflict, RecordConflict) as lost:
                key_taken = isinstance(lost, RecordConflict)
                put_back(self._store, self.subjects, mirror, touched)
                self._changed(None)
                self._stale = False
                continue
            note_commit(self.subjects, mirror, committed, decision.meta)
            self._changed(growth)
            self._stale = False
            return decision.served
        raise CallRefused(f"the write lost {MAX_ATTEMPTS} races with concurrent writes; send it again",
                          http_status=503, kind="busy")

    def close(self) -> None:
        self._store.close()

    # --- reading ---------------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the local copy up to the store's position (a no-op when meta has not moved)."""
        if not self._refresh_held():
            return
        caught_up = catch_up(self._store, self.subjects, self._held(), self._catch_up_entries)
        if isinstance(caught_up, StateMirror):
            self._adopt(caught_up)
        elif caught_up is not None:
            self._changed(caught_up.growth)

    def _refresh_held(self) -> bool:
        """``refresh`` up to its head check: take up a landed install, reload a copy left stale.
        True when the store's head is still to check (a store other processes share)."""
        if self._as_held:
            return False
        landed = self._landing.take(self._mirror.position if self._mirror is not None else None)
        if landed is not None:
            self._adopt(landed.mirror, landed.encoded)  # then caught up from it like any copy
        self._held()
        if self._stale:
            self._reload_whole()
            return False
        return self._shared

    def _at_store_head(self) -> bool:
        """Whether the copy held is at the store's position (meta's revision: ``catch_up``'s check)."""
        return self._store.revision(self.subjects.meta, META_ID) == self._held().position

    def _reload_whole(self) -> bool:
        """Rebuild the local copy from one snapshot; False when the store holds no state."""
        mirror = load_whole(self._store, self.subjects)
        if mirror is None:
            return False
        self._adopt(mirror)
        return True

    def _recorded(self, key: str, request: dict[str, Any], digest: str) -> Served | None:
        stored = self._store.load(self.subjects.write, key)
        if stored is None:
            if self._store.forgotten(key):
                budget = self._store.records_budget
                raise CallRefused(f"idempotency key {key!r} was used earlier in this episode, but its record is "
                                  f"past what the store keeps (the last commits only: budget {budget}), so a retry "
                                  "can no longer be answered with the recorded result; send this request under a "
                                  "new key", http_status=409, kind="conflict")
            return None
        record = stored.state
        if record.get("kind") == WRITE and record.get("position", 0) < self._installed_at():
            raise CallRefused(f"idempotency key {key!r} was used on a state a data/reset or data/add has since "
                              "replaced, so its recorded answer may name what the state no longer holds; send this "
                              "request under a new key", http_status=409, kind="conflict")
        if record.get("kind") == WRITE and record.get("request_digest") == digest:
            return served_from(write_entry(record)["result"])
        if record.get("kind") == WRITE:
            before = write_entry(record)["request"]
            what = f"{before['tool']} {before['path']}" + (" with another body or query"
                                                           if before["tool"] == request["tool"]
                                                           and before["path"] == request["path"] else "")
        else:
            what = f"a data/{record.get('kind')}"
        raise CallRefused(f"idempotency key {key!r} was already used for a different request ({what}); an exact "
                          "retry gets the recorded answer, a new request needs a new key",
                          http_status=409, kind="conflict")

    def _installed_at(self) -> int:
        """The position of the last reset, add or first load: every served write since moved meta
        (the position) one on and counted itself once in meta's counter, which an install zeroes."""
        mirror = self._held()
        return mirror.position - mirror.meta.counter

    def _held(self) -> StateMirror:
        if self._mirror is None:
            raise RuntimeError("the state holder was never loaded")
        return self._mirror

    # --- what data/get writes, kept between calls ----------------------------------------------

    def _encoded_now(self) -> bytes:
        if self._encoded is None:
            self._encoded = self._encode(self._held().index.snapshot(citations=True))
            self._size = len(self._encoded)
        return self._encoded

    def _size_now(self) -> int:
        if self._size is None:
            self._encoded_now()
        assert self._size is not None
        return self._size

    def _changed(self, growth: int | None) -> None:
        self._encoded = None
        if growth is None:
            self._size = None
        elif self._size is not None:
            self._size += growth

    def _adopt(self, mirror: StateMirror, encoded: bytes | None = None) -> None:
        """Hold ``mirror`` as the local copy (``encoded``: what data/get writes for it, if known);
        the copy held before is kept for ``take_replaced``."""
        if self._mirror is not None and self._mirror is not mirror:
            self._replaced.append((self._mirror, self._encoded))
        self._mirror, self._stale = mirror, False
        self._encoded = encoded
        self._size = len(encoded) if encoded is not None else None

    # --- installing a whole state (reset, add, the first load) ---------------------------------

    def _install(self, prepared: PreparedInstall, kind: str, *, only_if_absent: bool = False) -> None:
        self._commit_install(prepared, kind, only_if_absent=only_if_absent)
        if prepared.replace is not None:  # a staged replace keeps the store rows it swapped out
            self._replaced.append(prepared.replace)

    def _prepare(self, index: StateIndex, kind: str, *, whole: bool = True,
                 document_text: str | None = None, installs_before: int = 0) -> PreparedInstall:
        """The install of ``index``; ``whole``: prepared for the store's replace, if it has one
        (reads only the position the copy is at, which a write meanwhile may move on; each of
        ``installs_before``, expected to commit first, moves it one on)."""
        mirror = self._mirror
        return prepare(StateMirror.installing(self.subjects, index, self._writes.fresh(index)), kind,
                       store=self._store if whole and mirror is not None else None,
                       position=(mirror.position + installs_before) if mirror is not None else 0,
                       document_text=document_text)

    def _commit_install(self, prepared: PreparedInstall, kind: str, *, document_text: str | None = None,
                        encoded: bytes | None = None, only_if_absent: bool = False) -> None:
        copy = None
        if not only_if_absent and self._mirror is not None:
            self.refresh()  # the copy diffed against must be the store's (a stale one is reloaded)
            copy = self._mirror
        if copy is not None and prepared.replace is not None:
            self._adopt(replace_whole(self._store, self.subjects, prepared, kind, copy.position,
                                      document_text=document_text), encoded)
            return
        held = install(self._store, self.subjects, prepared, kind, document_text=document_text,
                       only_if_absent=only_if_absent, held=copy)
        self._adopt(held, encoded if held is prepared.target else None)

"""The fleet's registry, kept in the fleet's store beside the instances' subjects, so every
process serving one store (PostgreSQL) sees one set of instances and snapshots:

* ``capenv/<env>/fleet/instance``  id: the instance id. ``{created_at, touched_at, from_snapshot}``;
* ``capenv/<env>/fleet/snapshot``  id: the snapshot id. ``{document, taken_from, taken_at}``: what
  data/get wrote for the instance when the snapshot was taken (as text, byte for byte).

An instance's own subjects are ``Subjects("<env>/i/<instance id>")`` (``instance_subjects``);
deleting an instance deletes them and its registry entry in one commit, then compacts them away.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import Any

from capenv.serving.state.commits import envelope, new_record_id
from capenv.serving.state.subjects import Subjects
from capenv.serving.store import Expect, RevisionConflict, Store, Stored, SubjectWrite

ID_BYTES = 16
"""Random bytes of an instance or snapshot id: unguessable, so an id is the right to reach it."""


def new_id() -> str:
    """Hex, not URL-safe base64: such an id may begin with "-", which a command line reads as an
    option (``capenv fleet delete -GIs…`` was refused)."""
    return secrets.token_hex(ID_BYTES)


def instance_subjects(environment: str, instance_id: str) -> Subjects:
    return Subjects(f"{environment}/i/{instance_id}")


def record_prefix(instance_id: str) -> str:
    return f"i/{instance_id}/"


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat()


class Registry:
    def __init__(self, store: Store, environment: str) -> None:
        self.store = store
        self.environment = environment
        self.instance_type = f"capenv/{environment}/fleet/instance"
        self.snapshot_type = f"capenv/{environment}/fleet/snapshot"

    # --- instances ----------------------------------------------------------------------

    def add_instance(self, instance_id: str, from_snapshot: str | None) -> dict[str, Any]:
        stamp = now_text()
        entry = {"created_at": stamp, "touched_at": stamp, "from_snapshot": from_snapshot}
        self._commit("fleet-create", [SubjectWrite(self.instance_type, instance_id, Expect.absent(), entry)])
        return entry

    def instance(self, instance_id: str) -> Stored | None:
        return self.store.load(self.instance_type, instance_id)

    def instances(self) -> dict[str, Stored]:
        return self.store.snapshot([self.instance_type]).get(self.instance_type, {})

    def touch(self, instance_id: str) -> None:
        """Record that the instance was used now (best effort: a lost race means another
        process touched or deleted it)."""
        held = self.instance(instance_id)
        if held is None:
            return
        try:
            self._commit("fleet-touch", [SubjectWrite(self.instance_type, instance_id, Expect.revision(held.revision),
                                                      {**held.state, "touched_at": now_text()})])
        except RevisionConflict:
            pass

    def remove_instance(self, instance_id: str) -> bool:
        """Delete the instance's entry and every subject it holds; False when it is not registered."""
        subjects = instance_subjects(self.environment, instance_id)
        for _ in range(10):
            held = self.instance(instance_id)
            if held is None:
                return False
            owned = self.store.snapshot(subjects.all_types())
            writes = [SubjectWrite(self.instance_type, instance_id, Expect.revision(held.revision), None)]
            writes += [SubjectWrite(t, i, Expect.revision(s.revision), None)
                       for t, subjects_of in owned.items() for i, s in subjects_of.items()]
            try:
                self._commit("fleet-delete", writes)
            except RevisionConflict:
                continue  # a write to the instance landed meanwhile: read again
            self.store.compact(subjects.all_types() + [self.instance_type])
            return True
        raise RuntimeError(f"deleting instance {instance_id} lost 10 races with its writes; try again")

    # --- snapshots ----------------------------------------------------------------------

    def add_snapshot(self, instance_id: str, document: bytes) -> str:
        snapshot_id = new_id()
        entry = {"document": document.decode("utf-8"), "taken_from": instance_id, "taken_at": now_text()}
        self._commit("fleet-snapshot", [SubjectWrite(self.snapshot_type, snapshot_id, Expect.absent(), entry)])
        return snapshot_id

    def remove_snapshot(self, snapshot_id: str) -> bool:
        """Delete a snapshot and reclaim its storage; False when there is none of that id."""
        held = self.store.load(self.snapshot_type, snapshot_id)
        if held is None:
            return False
        try:
            self._commit("fleet-snapshot-delete",
                         [SubjectWrite(self.snapshot_type, snapshot_id, Expect.revision(held.revision), None)])
        except RevisionConflict:
            return False  # deleted meanwhile
        self.store.compact([self.snapshot_type])
        return True

    def snapshot_document(self, snapshot_id: str) -> bytes | None:
        held = self.store.load(self.snapshot_type, snapshot_id)
        return None if held is None else held.state["document"].encode("utf-8")

    def _commit(self, kind: str, writes: list[SubjectWrite]) -> None:
        self.store.commit(envelope(new_record_id(kind)), writes)

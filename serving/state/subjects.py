"""How one environment's served state is laid out as store subjects (DESIGN.md §7 "One state", §8).

Every subject type carries the environment's evidence id, so several environments share one
store and a snapshot of one environment's types reads only its own subjects:

* ``capenv/<env>/collection``  id: the collection path. ``{path, type, args, rank}``.
* ``capenv/<env>/entity``      id: ``["<collection path>", "<key>"]`` (JSON). ``{collection, key,
  id, value, records, rank}``; the collection's order is the order of the ranks (``ranks.py``).
* ``capenv/<env>/document``    id: the document path. ``{path, value, records, rank}``.
* ``capenv/<env>/meta``        id ``meta``: the clock, the write counter, the sequences and the
  state's evidence id (``WriteMeta``). Every commit that changes the state changes meta, so
  meta's revision is the state's position: a process compares it to decide whether to reload,
  and a write decided on it cannot commit over a write it did not see.
* ``capenv/<env>/meta``        id ``known``: the collection spellings the last reset or load knew
  (``KnownSpellings``). Only a reset, an add or the first load writes it, so a served write does
  not rewrite them with meta every commit. A store written before they moved here keeps them
  inside meta (``known``), which is still read, and gains this subject at its next reset or add.
* ``capenv/<env>/log``         id: the position (meta's revision after the commit, zero-padded
  so ids sort in order). ``{record_id, kind, subjects}``: which subjects the commit changed,
  so another process reloads only those; ``kind`` other than ``write`` (a reset, an add)
  means "reload everything".
* ``capenv/<env>/write``       id: the record id (the idempotency key). The history entry:
  request, plan, rules revision, result, changed fields (``records.py``). Kept for a write sent
  under an idempotency key (looked up by it) and for every reset and add; a write sent without a
  key keeps its history entry in its log entry instead (``log_record``: the log's members and the
  record's), so it commits one subject fewer. A store written before keeps a ``write`` subject for
  every write; both are read (``history.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps, loads

from .index import HeldCollection
from .ranks import Rank

META_ID = "meta"
KNOWN_ID = "known"
POSITION_DIGITS = 16

# The short names a log entry uses for the state's subject types.
COLLECTION, ENTITY, DOCUMENT = "collection", "entity", "document"
STATE_KINDS = (COLLECTION, ENTITY, DOCUMENT)  # the order a change is applied in: a collection before its entities


@dataclass(frozen=True)
class Subjects:
    """The subject types of one environment."""

    environment: str

    def type_of(self, kind: str) -> str:
        return f"capenv/{self.environment}/{kind}"

    @property
    def meta(self) -> str:
        return self.type_of("meta")

    @property
    def log(self) -> str:
        return self.type_of("log")

    @property
    def write(self) -> str:
        return self.type_of("write")

    def state_types(self) -> list[str]:
        """The types a full reload reads, meta included (one snapshot: one transaction)."""
        return [self.type_of(kind) for kind in STATE_KINDS] + [self.meta]

    def all_types(self) -> list[str]:
        """Every subject type of the environment (what an install compacts)."""
        return self.state_types() + [self.log, self.write]

    def kind_of(self, subject_type: str) -> str:
        return subject_type.rsplit("/", 1)[1]


def entity_subject_id(collection_path: str, key: str) -> str:
    return dumps([collection_path, key]).decode("utf-8")


def parse_entity_subject_id(subject_id: str) -> tuple[str, str]:
    path, key = loads(subject_id)
    return path, key


def position_id(position: int) -> str:
    return str(position).zfill(POSITION_DIGITS)


# --- subject states -----------------------------------------------------------------------


def collection_state(collection: HeldCollection, rank: int) -> dict[str, Any]:
    return {"path": collection.path, "type": collection.type, "args": dict(collection.args), "rank": rank}


def entity_state(collection: HeldCollection, key: str, rank: Rank) -> dict[str, Any]:
    state = {"collection": collection.path, "key": key, "id": collection.ids[key], "value": collection.entities[key],
             "records": list(collection.records.get(key, ())), "rank": rank}
    if key in collection.unplaced:  # written only when set, so every other stored state is as it was
        state["unplaced"] = True
    return state


def document_state(path: str, value: Any, records: tuple[int, ...], rank: int) -> dict[str, Any]:
    return {"path": path, "value": value, "records": list(records), "rank": rank}


def log_state(record_id: str, kind: str, subjects: list[tuple[str, str]]) -> dict[str, Any]:
    return {"record_id": record_id, "kind": kind, "subjects": [list(s) for s in subjects]}


def log_record(record_id: str, subjects: list[tuple[str, str]], record: dict[str, Any]) -> dict[str, Any]:
    """The log entry of a served write whose history record it carries (a write sent without an
    idempotency key: ``commits.write_batch``): the log's members and the record's
    (``records.write_record``: position, kind, request digest, plan, entry) in one state."""
    listed = []
    for subject in subjects:  # a loop: a comprehension makes a function per write
        listed.append(list(subject))
    return {"record_id": record_id, "subjects": listed, **record}


def carries_record(log_entry: dict[str, Any]) -> bool:
    """Whether a log entry holds its commit's history record (``log_record``), rather than naming
    a ``write`` subject that does."""
    return "entry" in log_entry

"""An in-memory, indexed copy of a state snapshot: what rendering reads and writes change.

The read gate replays the timeline on one; the serving runtime keeps one as its working copy
of the store. Collections keep their recorded spelling and their entities' order.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator

from capenv.interpreter.bundle.models import CollectionState, DocumentState, Entity, StateSnapshot, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once, same_spelling

from .key_facts import KeyFacts


def key_of(value: Any) -> str:
    return str(value)


@dataclass
class HeldCollection:
    path: str
    type: str
    args: dict[str, str]
    order: list[str] = field(default_factory=list)
    entities: dict[str, dict[str, Any]] = field(default_factory=dict)
    ids: dict[str, Any] = field(default_factory=dict)
    records: dict[str, tuple[int, ...]] = field(default_factory=dict)
    maxima: dict[str, Any] = field(default_factory=dict)
    """Per field a sequence counts: the largest value it held (computed on first use, raised by
    every edit; a removal leaves it, as a sequence never goes back)."""
    held_values: dict[str, dict[Any, int]] = field(default_factory=dict)
    """Per field a generated UUID or token skips: how many entities hold each string or integer
    value, a string counted under its lower case too (computed on first use, kept by every edit
    in ``edits``), so a draw tests membership without walking the collection."""
    member_counts: dict[str, int] | None = None
    """Per member name, how many entities hold it (None until ``edits.members_held`` first
    counts them, then kept by every edit in ``edits``), so a list answer learns once, not entity
    by entity, that every entity shows only members its view shows and holds every required one."""
    unplaced: set[str] = field(default_factory=set)
    """Keys of entities a served update changed while they were not last, where the plan's
    ``list_place`` is unproven: the application may list them elsewhere, so the collection's
    lists are refused while one is held (``reads/list_places``). Kept in the entity's stored
    state, never in data/get's document: a reset or load defines the order anew."""
    key_facts: "KeyFacts | None" = None
    """Its held ids' shapes and loose spellings (None until ``edits.facts_of`` first makes them,
    then kept by every edit in ``edits`` that adds or removes a key)."""
    nesting: set[str] | None = None
    """Keys of the entities holding an object nested at any depth (None until
    ``edits.nesting_keys`` first finds them, then kept by every edit in ``edits``), so a check of
    the copies other entities hold walks only those, not the whole collection."""

    def members(self) -> list[dict[str, Any]]:
        # Where the entities were inserted in their order (the usual case), their values are read
        # in a row: 10,000 lookups by key, each reaching a key string and the hash table across
        # the heap, took 3x as long (660 against 215 us). Any other case looks them up in order.
        if len(self.entities) == len(self.order) and list(self.entities) == self.order:
            return list(self.entities.values())
        return [self.entities[k] for k in self.order]

    def ordered(self) -> "OrderedMembers":
        """The members in order without copying them (indexing walks ``order``)."""
        return OrderedMembers(self)


class OrderedMembers:
    """A read-only sequence view of a collection's members in order."""

    __slots__ = ("_collection",)

    def __init__(self, collection: HeldCollection) -> None:
        self._collection = collection

    def __len__(self) -> int:
        return len(self._collection.order)

    def __getitem__(self, index: int) -> dict[str, Any]:
        return self._collection.entities[self._collection.order[index]]

    def __iter__(self):
        return (self._collection.entities[k] for k in self._collection.order)


Spelling = tuple[str, str]
"""A collection spelling a state knows: ``(type, collection path as spelled)``."""


@dataclass(frozen=True)
class KnownSpellings:
    """The collection spellings the last reset or load knew, in the order it knew them
    (write-effects "Serving"): the Evidence's state's, then those of the state it installed (the
    first ``installed`` collections of the index, which keeps their order and adds a collection
    a write makes after them), then the type's checked list lines'. A collection a write makes
    in a spelling none of these has is known after all of them."""

    evidence: tuple[Spelling, ...] = ()
    installed: int = 0
    listed: tuple[Spelling, ...] = ()

    def position(self, spelling: Spelling, held_at: int | None) -> int:
        """Where a spelling stands in the order it became known; ``held_at``: its position in
        the index, None when no collection holds it."""
        if spelling in self._evidence_at:
            return self._evidence_at[spelling]
        before = len(self.evidence)
        if held_at is not None and held_at < self.installed:
            return before + held_at
        before += self.installed
        if spelling in self._listed_at:
            return before + self._listed_at[spelling]
        return before + len(self.listed) + (held_at or 0)  # made by a write since

    def unheld(self, held: dict[str, HeldCollection]) -> Iterator[Spelling]:
        """The known spellings no held collection has."""
        for spelling in (*self.evidence, *self.listed):
            if spelling[1] not in held:
                yield spelling

    @cached_property
    def _evidence_at(self) -> dict[Spelling, int]:
        return _first_positions(self.evidence)

    @cached_property
    def _listed_at(self) -> dict[Spelling, int]:
        return _first_positions(self.listed)

    def to_json(self) -> dict[str, Any]:
        return {"evidence": [list(s) for s in self.evidence], "installed": self.installed,
                "listed": [list(s) for s in self.listed]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "KnownSpellings":
        return cls(tuple((t, p) for t, p in data["evidence"]), int(data["installed"]),
                   tuple((t, p) for t, p in data["listed"]))


def known_at_install(view: ViewResult, installed: "StateIndex") -> KnownSpellings:
    """What a reset or load knows once ``installed`` is the state: the Evidence's state's
    spellings, the installed state's, and those of each type's checked (state-backed) list
    lines, so a collection the capture listed empty keeps its spelling; never those of a state
    it replaced."""
    listed = tuple((v.type, line.collection or line.path) for v in view.views if v.kind == "list" and v.type
                   for line in v.lines if line.state_backed)
    return KnownSpellings(tuple((c.type, c.path) for c in view.state.collections), len(installed.collections),
                          listed)


@dataclass
class StateIndex:
    evidence_id: str
    collections: dict[str, HeldCollection] = field(default_factory=dict)
    documents: dict[str, Any] = field(default_factory=dict)
    document_records: dict[str, tuple[int, ...]] = field(default_factory=dict)
    known: KnownSpellings | None = None
    """The spellings the last reset or load knew; None: only the held ones, in the index's order
    (a state built from a snapshot knows the snapshot's spellings)."""

    @classmethod
    def from_snapshot(cls, snapshot: StateSnapshot, *, adopt: bool = False) -> "StateIndex":
        """The index of a snapshot, its entity and document values deep-copied; with ``adopt``
        taken over as they are (nothing else keeps them, as for a freshly parsed data/add
        document, whose copy would cost more than parsing it)."""
        take = (lambda value: value) if adopt else copy.deepcopy
        index = cls(snapshot.evidence_id)
        for held in snapshot.collections:
            collection = HeldCollection(held.path, held.type, dict(held.args))
            for entity in held.entities:
                key = key_of(entity.id)
                collection.order.append(key)
                collection.entities[key] = take(entity.value)
                collection.ids[key] = entity.id
                collection.records[key] = entity.records
            index.collections[held.path] = collection
        for document in snapshot.documents:
            index.documents[document.path] = take(document.value)
            index.document_records[document.path] = document.records
        return index

    def snapshot(self, *, citations: bool = True) -> StateSnapshot:
        collections = tuple(
            CollectionState(path=c.path, type=c.type, args=dict(c.args), entities=tuple(
                Entity(id=c.ids[k], value=c.entities[k], records=c.records.get(k, ()) if citations else ())
                for k in c.order))
            for c in self.collections.values())
        documents = tuple(DocumentState(path=p, value=v, records=self.document_records.get(p, ()) if citations else ())
                          for p, v in self.documents.items())
        return StateSnapshot(evidence_id=self.evidence_id, collections=collections, documents=documents)

    def collections_of(self, type_name: str) -> list[HeldCollection]:
        """The held collections of the type, in the index's order (a list built by a loop: a served
        create asks several times, and a generator made a function and a frame each time)."""
        found = []
        for collection in self.collections.values():
            if collection.type == type_name:
                found.append(collection)
        return found

    def find_collection(self, path: str, type_name: str) -> HeldCollection | None:
        """The held collection a path names (see ``spelling_of``); None when no collection is
        held under the spelling it names, though that may be a known one a create makes."""
        exact = self.collections.get(path)
        if exact is not None and exact.type == type_name:
            return exact  # every segment verbatim: no other spelling fits as well
        spelling = self.spelling_of(path, type_name)
        held = self.collections.get(spelling) if spelling is not None else None
        return held if held is not None and held.type == type_name else None

    def spelling_of(self, path: str, type_name: str) -> str | None:
        """The collection spelling a path names among the held and known ones, each segment
        verbatim or either spelling once percent-decoded (write-effects "Serving"). The one the
        path spells verbatim in more segments wins; when two fit equally, the one holding
        entities wins, the earlier first entity in state order among held ones (the index's
        order) and the earlier known among emptied ones (``KnownSpellings``'s order)."""
        exact = self.collections.get(path)
        if exact is not None and exact.type == type_name:
            return path
        parts = split_path(path)
        order = self.known or KnownSpellings(installed=len(self.collections))
        best: tuple[tuple[int, int, int], str] | None = None
        candidates = [(c.path, position, bool(c.order)) for position, c in enumerate(self.collections.values())
                      if c.type == type_name]
        candidates += [(p, None, False) for t, p in order.unheld(self.collections) if t == type_name]
        for spelling, position, holding in candidates:
            theirs = split_path(spelling)
            if len(theirs) != len(parts) or not all(same_spelling(a, b) for a, b in zip(parts, theirs)):
                continue
            verbatim = sum(1 for a, b in zip(parts, theirs) if a == b)
            # held ones by their first entity's place in state order (the index's), emptied ones
            # by the order they became known
            place = position if holding else order.position((type_name, spelling), position)
            rank = (-verbatim, 0 if holding else 1, place)
            if best is None or rank < best[0]:
                best = (rank, spelling)
        return best[1] if best is not None else None

    def find_entity(self, collection: HeldCollection, raw_id: str, field_name: str, id_field: str,
                    either: Any = None, address: Any = None) -> tuple[str, dict[str, Any]] | None:
        """The entity a path segment names: the id decoded once, then as written. ``either``: the
        type's ``EitherKey`` when its item path takes the identity or another member; a value not
        shaped as the identity then names the one entity holding it at that member (none when
        several do: the value names no one entity). ``address``: the type's ``IdAddress`` when its
        identity is the entity's own address; the segment then names the identity it ends."""
        if either is not None and field_name == id_field and not either.names_identity(decode_once(raw_id)):
            holders = self.entities_holding(collection, raw_id, either.member)
            return holders[0] if len(holders) == 1 else None
        for probe in (decode_once(raw_id), raw_id):
            if field_name == id_field and address is not None:
                if "/" in probe:
                    continue
                key = address.identity_of(collection.path, probe)
                if key in collection.entities:
                    return key, collection.entities[key]
            elif field_name == id_field:
                if probe in collection.entities:
                    return probe, collection.entities[probe]
            else:
                for key in collection.order:
                    value = collection.entities[key].get(field_name)
                    if value is not None and key_of(value) == probe:
                        return key, collection.entities[key]
        return None


    def entities_holding(self, collection: HeldCollection, raw_value: str, field_name: str
                         ) -> list[tuple[str, dict[str, Any]]]:
        """Every entity holding a path segment's value at a key member (decoded once, else as
        written: the first spelling any entity holds), in collection order."""
        for probe in (decode_once(raw_value), raw_value):
            found = [(key, self_entity) for key in collection.order
                     if (self_entity := collection.entities[key]).get(field_name) is not None
                     and key_of(self_entity[field_name]) == probe]
            if found:
                return found
        return []


def _first_positions(spellings: tuple[Spelling, ...]) -> dict[Spelling, int]:
    positions: dict[Spelling, int] = {}
    for position, spelling in enumerate(spellings):
        positions.setdefault(spelling, position)
    return positions

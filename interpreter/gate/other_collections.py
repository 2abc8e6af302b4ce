"""An item read of one collection checks nothing another collection's write did to an entity with
the same id.

The gate keeps a write awaiting its check by ``("entity", type, id)``. Where the type's item path
names its collection (``/items/{collection}/{id}``, ``/users/{user}/posts/{id}``), ids repeat
across collections: each table of a generic collection segment numbers its rows on its own. A read
of ``/items/books/1`` answered as recorded shows nothing of an update of ``/items/authors/1``, so
it must neither confirm nor contradict that update, nor start the window after which a change of
the author counts as a side effect. Those writes are set aside for the read and put back after.
A shallow type's item path names an entity by its id alone (``EntityType.shallow_items``) and a
path-addressed type by its address: their ids do not repeat, and nothing is set aside.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import same_collection

from .findings import Pending, Tracking


@contextmanager
def other_collections_set_aside(record: Record, read_view: Any, entity_type: Any, track: Tracking,
                                records: dict[int, Record]) -> Iterator[None]:
    """While the item read ``record`` is checked, the writes awaiting a check at its entity's target
    that named the entity in another collection are out of ``track.pending``, and the target's last
    check is kept as it was for them."""
    if read_view.kind != "item" or entity_type is None or entity_type.shallow_items \
            or entity_type.address is not None:
        yield
        return
    mine = _collection_of(record.path, entity_type.collection_template)
    aside: dict[tuple, list[Pending]] = {}
    if mine is not None:
        for target, writes in track.pending.items():
            if target[0] != "entity" or target[1] != entity_type.name:
                continue
            elsewhere = [w for w in writes if _elsewhere(records[w.ordinal].path, mine, entity_type)]
            if elsewhere:
                aside[target] = elsewhere
        for target, writes in aside.items():
            track.pending[target] = [w for w in track.pending[target] if w not in writes]
            if not track.pending[target]:
                del track.pending[target]
    checked = {target: track.last_check.get(target) for target in aside}
    try:
        yield
    finally:
        if mine is not None:  # before the set-aside writes' last check is put back
            _note_collection_check(record, mine, entity_type, track)
        for target, writes in aside.items():
            track.pending[target] = sorted(track.pending.get(target, []) + writes, key=lambda w: w.ordinal)
            if checked[target] is None:
                track.last_check.pop(target, None)
            else:
                track.last_check[target] = checked[target]


def _note_collection_check(record: Record, mine: str, entity_type: Any, track: Tracking) -> None:
    """Keep the read as its entity's last check in its own collection, where it checked it."""
    parts = split_path(record.path)
    depth = len(split_path(entity_type.collection_template))
    if len(parts) != depth + 1:
        return
    target = ("entity", entity_type.name, unquote(parts[depth]))
    if track.last_check.get(target) == record.ordinal:
        track.collection_checks[(target, mine)] = record.ordinal


def last_check_in(track: Tracking, target: tuple, collection: str | None, entity_type: Any,
                  records: dict[int, Record]) -> int:
    """The entity's last check (0: none) in ``collection``, where the type's ids repeat across its
    collections (``collection`` not None): the gate keeps one last check per id, so when a read of
    another collection's entity with that id was the last, the last read of this one's counts
    (ann's post 1 read after a write is no check of bob's post 1, which the write may have changed)."""
    checked = track.last_check.get(target, 0)
    if not checked or collection is None or entity_type is None or checked not in records:
        return checked
    theirs = _collection_of(records[checked].path, entity_type.collection_template)
    if theirs is None or same_collection(theirs, collection):
        return checked
    return max((ordinal for (seen, where), ordinal in track.collection_checks.items()
                if seen == target and same_collection(where, collection)), default=0)


def _elsewhere(path: str, mine: str, entity_type: Any) -> bool:
    theirs = _collection_of(path, entity_type.collection_template)
    return theirs is not None and not same_collection(theirs, mine)


def _collection_of(path: str, template: str) -> str | None:
    """The prefix of ``path`` the collection template spans, when its literal segments match
    (None: the path lies on no collection of the type, as an RPC write's does)."""
    pieces, parts = split_path(template), split_path(path)
    if len(parts) < len(pieces):
        return None
    for piece, part in zip(pieces, parts):
        if not (piece.startswith("{") and piece.endswith("}")) and piece != part:
            return None
    return "/" + "/".join(parts[:len(pieces)])

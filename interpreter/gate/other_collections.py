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
        for target, writes in aside.items():
            track.pending[target] = sorted(track.pending.get(target, []) + writes, key=lambda w: w.ordinal)
            if checked[target] is None:
                track.last_check.pop(target, None)
            else:
                track.last_check[target] = checked[target]


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

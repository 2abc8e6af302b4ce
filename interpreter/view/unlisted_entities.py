"""Entities the initial window's item reads showed, per collection: a list recording of that
window that leaves one out proves no whole membership.

No write runs inside the initial window, so an entity an item read of the window showed is held
all through it. A list read of the same collection in that window that does not list it selects
part of the collection (TiddlyWiki's list leaves out the system tiddlers its item reads answer; a
list an application pages by default leaves out what its later pages hold), whatever its query
says: its line lists its recorded members (membership ``recorded``), not the whole collection.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType, Locator
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record

from .extract import collection_path

HeldByReads = dict[str, dict[str, set[str]]]
"""type name -> collection path -> ids (as text) the window's item reads showed."""


def held_by_item_reads(shapes: dict[str, Any], records: dict[int, Record], types: dict[str, EntityType],
                       window_reads: set[int]) -> HeldByReads:
    held: HeldByReads = {}
    for shape in shapes.values():
        entity_type = types.get(shape.type_name or "")
        if shape.kind != "item" or entity_type is None or shape.either is not None \
                or shape.key_field not in (None, entity_type.id_field):  # an alternate address: other keys
            continue
        for ordinal in shape.tool.record_ordinals:
            record = records[ordinal]
            if ordinal not in window_reads or ordinal in shape.other_shape or not record.succeeded \
                    or not record.response.is_json:
                continue
            entity = locate(record.response.json_value, shape.locator or Locator(kind="root"))
            if isinstance(entity, dict) and entity.get(entity_type.id_field) is not None:
                collection = collection_path(record.path, entity_type)
                held.setdefault(entity_type.name, {}).setdefault(collection, set()).add(
                    str(entity[entity_type.id_field]))
    return held


def leaves_out_held(listed: list[Any], record: Record, entity_type: EntityType, held: HeldByReads,
                    window_reads: set[int]) -> bool:
    """Whether a list recording of the initial window leaves out an entity the window's item
    reads showed in its collection."""
    if record.ordinal not in window_reads:
        return False
    wanted = held.get(entity_type.name, {}).get(collection_path(record.path, entity_type))
    if not wanted:
        return False
    shown = {str(m.get(entity_type.id_field)) for m in listed if isinstance(m, dict)}
    return not wanted <= shown

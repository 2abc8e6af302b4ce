"""What a write no built plan models may have changed (seeds: "The gate", "Writes"): below an
item the entity is unknown until a read shows it again, and when the path names no held entity,
every entity of that collection is; at a collection path, or above it, the collections it reaches
are not checked again (their lists) and their entities are unknown until a read shows each again.
Where the path names no held entity, the call's own record may say it reached fewer of them
(``reach``, the ``gate-reach`` table). A path reaches a collection whose segments are its own
verbatim or once percent-decoded, and names its entity as an update's does (decoded once, then as
written)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.shallow import at_item_path, item_segment
from capenv.interpreter.bundle.values import same_spelling
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import related_paths
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.view.extract import collection_path
from capenv.serving.state.index import StateIndex
from capenv.serving.state.shallow import item_collection_path
from capenv.serving.writes.calls import WriteEnv

from .findings import Tracking
from .reach import reached_keys


def unmodelled(record: Record, env: WriteEnv, copy: StateIndex, track: Tracking) -> None:
    """A write no built plan models: what it may have changed is unknown or not checked again.
    Each entity and collection it reaches remembers it as its latest unmodelled write, and a
    trace event says what it reached."""
    parts = split_path(record.path)
    scoped = False
    for entity_type in env.types.values():
        template = _segments(entity_type.collection_template)
        scoped = scoped or prefix(parts, template) or prefix(template, parts)
        if at_item_path(record.path, entity_type):  # a shallow type's item path, outside its collections
            scoped = True
            _below_item(record, entity_type, item_segment(record.path, entity_type), copy, track)
        elif len(parts) > len(template) and prefix(parts, template):
            _below_item(record, entity_type, parts[len(template)], copy, track)
        elif len(parts) == len(template) and prefix(parts, template):
            held = copy.find_collection(collection_path(record.path, entity_type), entity_type.name)
            # a plain spelling reaches an encoded one
            reach_collections(record, entity_type, [held.path if held is not None else collection_path(
                record.path, entity_type)], copy, track, "at the collection path")
        elif len(parts) < len(template) and prefix(template, parts):
            reached = [held.path for held in copy.collections_of(entity_type.name)
                       if prefix(split_path(held.path), parts)]
            reach_collections(record, entity_type, reached, copy, track, "above the collection paths")
    _reach_documents(record, parts, copy, track)
    if not scoped:
        _unscoped(record, track)


def _reach_documents(record: Record, parts: list[str], copy: StateIndex, track: Tracking) -> None:
    """The documents held at the write's path or below it may have changed too (a write at a
    document's own path that no plan models): a difference a later read of one shows is no side
    effect of the modelled writes before it. A document above the path (an API root) is not reached."""
    for path in copy.documents:
        held = split_path(path)
        if len(held) >= len(parts) and prefix(held, parts):
            track.latest_unmodelled[("document", path)] = record.ordinal


def _unscoped(record: Record, track: Tracking) -> None:
    """A path that relates to no type's collection paths (a batch or RPC endpoint) reaches no
    collection by the rules above, yet may have changed anything: a difference a later read shows
    is not pinned on the modelled writes before it as their side effect."""
    track.unscoped.append(record.ordinal)
    text = (f"record {record.ordinal} ({record.method} {record.path}), a write no built plan models, lies on no "
            "state type's path: what it changed is unknown, so a difference a later read shows is no side effect "
            "of the modelled writes before it")
    track.reach_events.append(TraceEvent(table="gate", rule_id=None, outcome="match", subject=f"record {record.ordinal}",
                                         evidence={"record": record.ordinal, "unscoped": True}, reason=text))


def unscoped_since(track: Tracking, since: int, ordinal: int) -> int | None:
    """The latest write of unknown reach (``_unscoped``) between two records, if any."""
    return next((o for o in reversed(track.unscoped) if since < o < ordinal), None)


def blamed_beside_unscoped(write: tuple[int, str, str], read_path: str, track: Tracking) -> bool:
    """Whether a modelled write since a read's last check stays to blame for the read's difference
    although a write of unknown reach (``_unscoped``) ran in that window too and may explain it: its
    path relates to the read's, segment by segment, and where it lies above the read it names what the
    read lies beneath: its own entity's item path (PATCH /boards/1 before GET /boards/1/cards/7) or,
    for a write at a collection path, the item path of one of its entities (a create of board 1), not
    another entity of that collection (a create of board 5, which only shares the collection path)."""
    ordinal, _, path = write
    if not related_paths(path, read_path):
        return False
    above, below = split_path(path), split_path(read_path)
    if len(below) <= len(above):
        return True  # the read at or above the write: its entity, or a list or parent the write shows in
    keys = {str(t[2]) for t in track.modelled_targets.get(ordinal, ()) if t[0] == "entity"}
    if ordinal in track.brought_keys:  # an outcome brought without attribution, at its entity
        keys.add(str(track.brought_keys[ordinal]))
    if not keys:
        return True  # what it wrote is no entity (a document, or an outcome nothing located)
    return (bool(above) and unquote(above[-1]) in keys) or unquote(below[len(above)]) in keys


@lru_cache(maxsize=None)
def _segments(template: str) -> list[str]:
    """A collection template's segments, split once per template, not per unmodelled write and
    type (callers only read them)."""
    return split_path(template)


def _below_item(record: Record, entity_type: object, segment: str, copy: StateIndex, track: Tracking) -> None:
    """The named entity is unknown; when the path names no held entity, every entity of that
    collection is (each is still checked, and a read shows it again)."""
    name = entity_type.name
    collection = item_collection_path(copy, record.path, entity_type)
    held = copy.find_collection(collection, name)
    found = copy.find_entity(held, segment, entity_type.id_field, entity_type.id_field, entity_type.either_key, entity_type.address) \
        if held is not None else None
    key = found[0] if found is not None else unquote(segment)
    why = ""
    if found is not None or held is None:
        keys = [key]
    else:  # the path names no held entity: those the call may have changed instead
        reached, why = reached_keys(record, name, held, track.reach_table, track.reach_events,
                                    min_string=track.reach_min_string,
                                    failed_create=record.ordinal in track.failed_creates)
        keys = list(dict.fromkeys([key, *reached]))
    ancestors = [k for k in held.entities if key.startswith(k + "/") and k not in keys] \
        if held is not None and entity_type.nested_ids else []
    keys += ancestors  # a path-like id lies below the item path of each of its ancestors (a file's directory)
    for each in keys:
        track.unknown.add((name, each))
        track.latest_unmodelled[("entity", name, each)] = record.ordinal
    where = held.path if held is not None else collection
    track.latest_unmodelled[("collection", where)] = record.ordinal
    if found is not None or held is None:
        reason = f"below the item path of {name} {key!r}: that entity is unknown until a read shows it again"
    elif why:
        reason = (f"below an item path naming no held {name} ({key!r}): {why}; the collection is still checked")
    else:
        reason = (f"below an item path naming no held {name} ({key!r}): every entity of {where} is unknown until "
                  f"a read shows it again ({len(held.entities)} held); the collection is still checked")
    if ancestors:
        reason += (f"; its path-like id {key!r} still lies below the item path of "
                   f"{', '.join(repr(k) for k in ancestors)} (an ancestor): unknown too")
    _trace(record, track, name, reason, {"collection": where, "unknown": keys})


def reach_collections(record: Record, entity_type: Any, collections: list[str], copy: StateIndex, track: Tracking,
                      where: str) -> None:
    """A write at or above collection paths: each collection is not checked again (its lists), and
    each entity it holds is unknown until a read shows it again (an item read checks an entity,
    not its collection)."""
    unknown: list[str] = []
    whys: list[str] = []
    for path in collections:
        track.unchecked.add(path)
        track.latest_unmodelled[("collection", path)] = record.ordinal
        held = copy.find_collection(path, entity_type.name)
        if held is None:
            continue
        below = [unquote(part) for part in split_path(held.path)[len(split_path(record.path)):]]
        keys, why = reached_keys(record, entity_type.name, held, track.reach_table, track.reach_events,
                                 parents=tuple(below), min_string=track.reach_min_string,
                                 failed_create=record.ordinal in track.failed_creates)
        for key in keys:
            track.unknown.add((entity_type.name, key))
            track.latest_unmodelled[("entity", entity_type.name, key)] = record.ordinal
        unknown.extend(keys)
        whys.extend([f"in {held.path}, {why}"] if why else [])
    if collections:
        held_text = (f"; its held {entity_type.name} it may have changed ({len(unknown)}) are unknown until a read "
                     f"shows each again" if unknown else "")
        _trace(record, track, entity_type.name, f"{where}: {', '.join(collections)} not checked again{held_text}"
               + "".join(f"; {w}" for w in whys), {"unchecked": collections, "unknown": unknown})


def _trace(record: Record, track: Tracking, type_name: str, reach: str, evidence: dict) -> None:
    text = f"record {record.ordinal} ({record.method} {record.path}), a write no built plan models, reaches {reach}"
    track.reaches[(record.ordinal, type_name)] = text
    track.reach_events.append(TraceEvent(table="gate", rule_id=None, outcome="match", subject=f"record {record.ordinal}",
                                         evidence={"record": record.ordinal, "type": type_name, **evidence},
                                         reason=text))


def made_unknown(track: Tracking, type_name: str, key: str) -> str | None:
    """What the latest unmodelled write to reach this entity was, and how it reached it."""
    ordinal = track.latest_unmodelled.get(("entity", type_name, key))
    if ordinal is None:
        return None
    return track.reaches.get((ordinal, type_name), f"record {ordinal}, a write no built plan models")


def prefix(longer: list[str], shorter: list[str]) -> bool:
    """``shorter`` begins ``longer``: each segment a parameter, or verbatim or either spelling once
    percent-decoded (serving's ``same_spelling``)."""
    # a segment without "%" decodes to itself: only such a pair needs serving's spelling test
    return all(a == b or a.startswith("{") or b.startswith("{") or (("%" in a or "%" in b) and same_spelling(a, b))
               for a, b in zip(longer, shorter))

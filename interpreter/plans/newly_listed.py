"""A create observed in a list read (seeds: "Exemplar", "The written entity": "…or for a
create, the one entity a collection read newly lists").

The first list read of the created entity's collection that lists it, with no other write
between the call and that read, observes the create when it is the one entity the read lists
that its collection did not hold just before the call (the initial state, brought forward by the
reads finished before the call began, the previous reads of that list included). A read listing
another new entity too cannot tell which one the call made.
"""

from __future__ import annotations

import bisect

from .timeline import ListRead, Sighting, Timeline, same_collection


def newly_listed(timeline: Timeline, type_name: str, key: str, ordinal: int, collection: str | None = None,
                 until: int | None = None) -> tuple[Sighting | None, str]:
    """The list sighting that observes the create ``ordinal`` of entity ``key`` (or None), and
    why, for the trace. ``collection`` (when known) limits the search to that collection;
    ``until`` stops it at that record (an earlier read that already shows the entity)."""
    call = timeline.records[ordinal]
    next_write = _next_write(timeline, ordinal)
    for read in timeline.list_reads:
        record = read.record
        if record.ordinal <= ordinal or record.started_at < call.finished_at or read.type != type_name:
            continue
        if until is not None and record.ordinal >= until:
            return None, f"no list read shows {key!r} before record {until}"
        if collection is not None and not same_collection(read.collection, collection):
            continue
        if key not in read.members:
            continue
        if next_write is not None and next_write < record.ordinal:
            return None, f"record {next_write} wrote before list record {record.ordinal} showed {key!r}"
        new = sorted(set(read.members) - _listed_before(timeline, read, ordinal))
        if new != [key]:
            return None, (f"list record {record.ordinal} newly lists {len(new)} entities ({', '.join(new[:5])}), "
                          f"not {key!r} alone")
        return (Sighting(record.ordinal, type_name, read.collection, key, read.members[key], "list"),
                f"list record {record.ordinal} newly lists {key!r} alone")
    return None, f"no later list read shows {key!r}"


def one_newly_listed(timeline: Timeline, type_name: str, ordinal: int, collection: str) -> tuple[Sighting | None, str]:
    """For a create whose answer names no id: the first plain list read (no query) of its
    collection after the call, with no other write between, and the one entity it newly lists
    (or None, and why)."""
    call = timeline.records[ordinal]
    next_write = _next_write(timeline, ordinal)
    for read in timeline.list_reads:
        record = read.record
        if record.ordinal <= ordinal or record.started_at < call.finished_at or read.type != type_name \
                or record.query or not same_collection(read.collection, collection):
            continue
        if next_write is not None and next_write < record.ordinal:
            return None, f"record {next_write} wrote before list record {record.ordinal} read the collection"
        new = sorted(set(read.members) - _listed_before(timeline, read, ordinal))
        if len(new) != 1:
            return None, f"list record {record.ordinal} newly lists {len(new)} entities ({', '.join(new[:5])}), not one"
        return (Sighting(record.ordinal, type_name, read.collection, new[0], read.members[new[0]], "list"),
                f"list record {record.ordinal} newly lists {new[0]!r} alone")
    return None, f"no later plain list read of {collection} shows what the call made"


def _next_write(timeline: Timeline, ordinal: int) -> int | None:
    at = bisect.bisect_right(timeline.write_ordinals, ordinal)
    return timeline.write_ordinals[at] if at < len(timeline.write_ordinals) else None


def _listed_before(timeline: Timeline, read: ListRead, ordinal: int) -> set[str]:
    """The ids the read's collection held just before the create ``ordinal`` began: the initial
    state, brought forward by every read finished before the call began (a list read of the
    line included, so an entity the line listed before is not new)."""
    held = {key for (type_name, path), ids in timeline.initial_ids.items()
            if type_name == read.type and same_collection(path, read.collection) for key in ids}
    for (type_name, key), sightings in timeline.by_entity.items():
        if type_name != read.type:
            continue
        seen = timeline.before(type_name, key, ordinal)
        if seen is None:
            continue
        if seen.value is None:
            held.discard(key)
        elif same_collection(seen.collection, read.collection):
            held.add(key)
    return held

"""Effects later writes erased (seeds: "The gate", "Attribution").

A check exercises the write tools that changed its entity or collection since the previous check
of it, less those whose effect later writes erased. A later update overwrites the fields it sets
(an increment adds to its field instead), a recorded outcome every field, and a create or delete
the whole entity. A write with nothing left on an entity no longer counts there, nor in a
collection where no entity it changed keeps any of its effect.

``Tracking.effects`` keeps, per modelled write (by ordinal), what survives of its effect on each
entity or document it changed, and ``Tracking.effect_collections`` the collections it changed;
a write's pending entries follow what survives.
"""

from __future__ import annotations

from .findings import WHOLE, Tracking


def remember_effect(track: Tracking, ordinal: int, applied: dict[tuple, set[str]]) -> None:
    """The effect a modelled write just applied, per entity or document, and its collections."""
    track.effects[ordinal] = {t: set(fields) for t, fields in applied.items() if t[0] in ("entity", "document")}
    for target in track.effects[ordinal]:
        track.effect_writers.setdefault(target, set()).add(ordinal)
    track.effect_collections[ordinal] = {t for t in applied if t[0] == "collection"}


def overwritten_by(applied: dict[tuple, set[str]], increments: set[str]) -> dict[tuple, set[str]]:
    """What a modelled write overwrites on each entity or document it changed: the fields it sets
    (an increment adds to its field instead), or the whole entity for a create or delete."""
    return {t: (set(fields) if WHOLE in fields else set(fields) - increments)
            for t, fields in applied.items() if t[0] in ("entity", "document")}


def erase(track: Tracking, target: tuple, fields: set[str], before: int) -> None:
    """Later writes (or a recorded outcome) overwrote ``fields`` of ``target`` (``*``: every field,
    the whole entity): drop them from the effect of each earlier write there."""
    if not fields:
        return
    writers = track.effect_writers.get(target, set())
    for ordinal in sorted(writers):
        effect = track.effects[ordinal]
        if ordinal >= before:
            break
        mine = effect[target]
        if WHOLE in fields:
            left: set[str] = set()
        elif WHOLE in mine:
            continue  # a create's or delete's membership survives an update of some fields
        else:
            left = mine - fields
        if left == mine:
            continue
        if left:
            effect[target] = left
        else:
            del effect[target]
            writers.discard(ordinal)
        _follow(track, ordinal, target, left)


def _follow(track: Tracking, ordinal: int, target: tuple, left: set[str]) -> None:
    """The write's pending entries follow what survives of its effect."""
    _narrow(track, target, ordinal, left)
    if target[0] != "entity":
        return
    survives = [f for t, f in track.effects.get(ordinal, {}).items() if t[0] == "entity"]
    for collection in track.effect_collections.get(ordinal, ()):
        if not survives:
            _narrow(track, collection, ordinal, set())
        else:
            fields = set().union(*survives)
            _narrow(track, collection, ordinal, fields, keep_whole=True)


def _narrow(track: Tracking, target: tuple, ordinal: int, left: set[str], keep_whole: bool = False) -> None:
    writes = track.pending.get(target)
    if not writes:
        return
    kept = []
    for write in writes:
        if write.ordinal == ordinal:
            if not left:
                continue
            if WHOLE not in write.changed:
                write.changed = write.changed & left
            elif not keep_whole:
                write.changed = set(left)
        kept.append(write)
    if kept:
        track.pending[target] = kept
    else:
        track.pending.pop(target, None)

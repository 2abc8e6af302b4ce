"""A recorded absence the copy cannot explain (DESIGN §6 "Deletes", seeds: "Not modelled": side
effects on other entities, a delete that takes its dependents with it).

A read that shows an entity absent — an item read answered with the type's absence (400, 404,
410, a 2xx null, or the answer ``view-absence-answers`` learned for the type), or a list line
that lists the whole collection without it — while the copy still holds the entity, shows that
something removed it. When no write that touched the entity and no unmodelled write that reached
it ran since a read last showed it present, the modelled writes in between removed it as a side
effect their plans do not model: serving them would leave the entity answering where the
application answers its absence. Each is contradicted, as side-effect, by that read, whatever
path it wrote: a cascade follows references, not paths (ending a session stops its kernel).
Those linked to it by id are blamed when any is; with none, a write no plan models that changed an
entity linked to it by id in between (a port's node, deleted by an unserved tool) may have removed
it, and no modelled write is blamed.

This holds for every view of a state type, state-backed or not, since replay would answer the
entity's recording too, and for a list whose check failed earlier (its membership is still
evidence). An entity the recordings already showed absent is not blamed twice.
"""

from __future__ import annotations

import re

from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import Any

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline, own_collection, same_collection
from capenv.interpreter.view.views import is_absence
from capenv.serving.reads.render import locate
from capenv.serving.state.index import StateIndex
from capenv.serving.state.shallow import item_collection_path
from capenv.serving.writes.calls import WriteEnv

from .default_pages import cut_short
from .findings import GateNote, GateRun, Tracking
from .item_keys import named_entity
from .other_collections import last_check_in
from .pages import past_the_page
from .presence import listed_since
from .reidentified import renamed
from .unmodelled import blamed_beside_unscoped, unscoped_since

LOCATION = "interpreter/gate/absences.py:blame_absences"


def absent_held(record: Record, read_view: Any, env: WriteEnv, copy: StateIndex, track: Tracking,
                run: GateRun) -> list[tuple[str, str, str]]:
    """(type, collection, key) of each entity the read shows absent that the copy holds, less
    unknown ones and those of a collection not checked again."""
    entity_type = env.types.get(read_view.type or "") if read_view.type else None
    if entity_type is None or record.method != "GET":
        return []
    if read_view.kind == "item":
        if not is_absence(record, env.absence_statuses, read_view):
            return []
        collection = item_collection_path(copy, record.path, entity_type, read_view.key_field)
        found = named_entity(copy, record.path, entity_type, read_view)
        if found is None or collection in track.unchecked:
            return []
        held = copy.find_collection(collection, entity_type.name)
        keys = [(held.path if held is not None else collection, found[0])]
    elif read_view.kind == "list" and read_view.state_backed:
        keys = _unlisted(record, read_view, entity_type, copy, track, run)
    else:
        return []
    # an unknown entity only when a read-only POST listed it: it may have shown it present after
    # what made it unknown (``blame_absences`` weighs which came last)
    return [(entity_type.name, where, key) for where, key in keys
            if (entity_type.name, key) not in track.unknown
            or listed_since(run.listings, entity_type.name, key, record.ordinal) is not None]


def _unlisted(record: Record, read_view: Any, entity_type: Any, copy: StateIndex, track: Tracking,
              run: GateRun) -> list[tuple[str, str]]:
    """Held entities a line listing the whole collection does not list."""
    if not record.succeeded or not record.response.is_json:
        return []
    chosen = run.choose_list_line(read_view, record.path, record.query)
    if chosen is None:
        return []
    line = chosen[0]
    if line.membership != "all" or line.queries or past_the_page(line, read_view, entity_type.name, copy, run.paging):
        return []
    held = copy.find_collection(line.collection or line.path, entity_type.name)
    if held is None or held.path in track.unchecked or cut_short(record, read_view, held):
        return []  # (a list its default page cut short says nothing of the members beyond it)
    members = locate(record.response.json_value, read_view.locator)
    if not isinstance(members, list):
        return []
    shown = [m for m in members if isinstance(m, dict)]
    objects = [m for m in shown if entity_type.id_field in m]
    if len(objects) < len(shown):
        return []  # members without the identity (a projection leaving it out) name no one as absent
    listed = {str(m[entity_type.id_field]) for m in objects}
    # an entity listed under a new id with all else alike was named anew, not removed (``reidentified``):
    # only an object under an id the copy does not hold can be its new name (the copy's ids, once
    # per read, not once per unlisted entity)
    held_ids = set(map(str, held.order))
    fresh = [m for m in objects if m[entity_type.id_field] is not None and str(m[entity_type.id_field]) not in held_ids]
    gone = []
    for key in held.order:
        if str(key) in listed:
            continue
        if fresh and renamed(held.entities[key], str(key), fresh, entity_type.id_field, held_ids,
                             run.reidentified_table) is not None:
            run.redrawn.setdefault(entity_type.name, set()).add(str(key))  # serving refuses its item calls
            continue
        gone.append((held.path, key))
    return gone


def _in_collection(ordinal: int, mine: str | None, entity_type: Any, records: dict[int, Record]) -> int:
    """The ordinal of a write kept by (type, id), or 0 when its record named another collection's
    entity with that id (the gate keys entities by id: ann's post 1 written is no news of bob's)."""
    if not ordinal or mine is None:
        return ordinal
    theirs = own_collection(records[ordinal].path, entity_type)
    return 0 if theirs is not None and not same_collection(theirs, mine) else ordinal


def blame_absences(record: Record, read_view: Any, absent: list[tuple[str, str, str]], env: WriteEnv,
                   copy: StateIndex, track: Tracking, run: GateRun, timeline: Timeline,
                   records: dict[int, Record]) -> None:
    """Contradict, as side-effect, the modelled writes that ran between the last read showing each
    absent entity present and this read, and did not touch it: those whose entity names it or is
    named by it, when any does, else all of them."""
    id_fields = {name: t.id_field for name, t in env.types.items()}
    for type_name, collection, key in absent:
        entity = ("entity", type_name, key)
        # the last read showing it present in its own collection (another's entity with its id is not it)
        mine = own_collection(collection, env.types[type_name])
        seen = timeline.before(type_name, key, record.ordinal, collection=mine)
        listed = listed_since(run.listings, type_name, key, record.ordinal)
        noted = track.absent_noted.get((type_name, key), 0)
        track.absent_noted[(type_name, key)] = record.ordinal
        if seen is not None and seen.value is None or noted > (seen.ordinal if seen is not None else 0):
            continue  # the recordings showed it absent before: whoever removed it was blamed then
        if track.pending.get(entity):
            continue  # a write to it awaits its check: the read judges that write (a create it does not show)
        since = max(seen.ordinal if seen is not None else 0,
                    last_check_in(track, entity, mine, env.types[type_name], records),
                    _in_collection(track.last_touched.get(entity, 0), mine, env.types[type_name], records),
                    listed or 0)
        reached = [track.latest_unmodelled.get(t, 0) for t in (entity, ("collection", collection))]
        reached += [track.changed_by_unattributed.get(entity, 0)]
        if max(reached) > since:
            continue  # a write no plan models reached it since: it may have removed it
        window = [(o, tool, path) for o, tool, path in modelled_between(track, since, record.ordinal)
                  if entity not in track.modelled_targets.get(o, ())]
        if not any(_blamable(run, tool) for _, tool, _ in window):
            continue  # every write in between is blamed already (or has no plan): nothing to weigh
        held = copy.find_collection(collection, type_name)
        value = held.entities.get(key) if held is not None else None
        # a cascade follows references: the writes to an entity naming it, or named by it, caused it
        # when any did; with none, any write in between may have
        links = IdLinks(value, key, type_name, id_fields, timeline, run.settings, run.sighting_texts)
        linked = [w for w in window if links.to(track.modelled_targets.get(w[0], frozenset()), w[0])]
        if not linked and _unmodelled_linked(track, links, since, record.ordinal):
            continue  # a write no plan models changed an entity linked to it by id since: its cascade may have removed it
        unscoped = unscoped_since(track, since, record.ordinal)
        if unscoped is not None and not linked:
            # one of unknown reach ran too: it may have removed it, as may any write in between, but it
            # shows neither a write linked to it by id nor one on a path related to the read's did not
            # (those stay unproven); the others it may explain
            window = [w for w in window if blamed_beside_unscoped(w, record.path, track)]
        for ordinal, tool, path in linked or window:
            found = run.findings.get(tool)
            if not _blamable(run, tool):
                continue
            found.side_effect_by = record.ordinal
            shown = f"record {seen.ordinal} showed it" if seen is not None else "the state holds it"
            if listed is not None and (seen is None or listed > seen.ordinal):
                shown = f"record {listed} (a read-only POST) listed it"
            found.notes.append(GateNote(
                record.ordinal,
                f"shows {type_name} {key!r} absent ({_how(record, read_view)}) although no write that touched "
                f"it ran since {shown}; record {ordinal} ({records[ordinal].method} {path}) ran between"
                f"{' on an entity linked to it by id' if linked else ''} and its plan does not remove it: a side "
                "effect on another entity that serving would not make"
                + (f"; record {unscoped} ({records[unscoped].method} {records[unscoped].path}), a write of unknown "
                   "reach (on no state type's path), ran since too and may have removed it, but does not show this "
                   "write did not: unproven" if unscoped is not None else ""),
                kind="side-effect", location=LOCATION,
                evidence={"absent": {"type": type_name, "id": key}, "write": ordinal,
                          "shown_present_by": max(seen.ordinal if seen is not None else 0, listed or 0) or None,
                          "linked_by_id": bool(linked)}))


def _unmodelled_linked(track: Tracking, links: "IdLinks", since: int, before: int) -> bool:
    """Whether a write no plan models changed, after ``since`` and before ``before``, an entity
    linked by id to the absent one (a node deleted by a tool serving does not model, whose port
    the application removed with it): a cascade follows references, so that write may have
    removed it, and no modelled write linked to it is to blame."""
    return any(since < ordinal < before and target[0] == "entity" and links.to(frozenset({target}), ordinal)
               for target, ordinal in track.latest_unmodelled.items())


def modelled_between(track: Tracking, since: int, before: int) -> list[tuple[int, str, str]]:
    """The modelled writes with an ordinal strictly between ``since`` and ``before`` (they are
    kept in ordinal order)."""
    writes = track.modelled_since
    return writes[bisect_right(writes, since, key=_ordinal):bisect_left(writes, before, key=_ordinal)]


def _ordinal(write: tuple[int, str, str]) -> int:
    return write[0]


def _blamable(run: GateRun, tool: str) -> bool:
    found = run.findings.get(tool)
    return found is not None and found.side_effect_by is None


class IdLinks:
    """Whether an entity (absent, or changed) is linked by id to what a write changed: it names an
    entity the write changed by its id (a session's kernel, a comment's post), or that entity, as
    last read before the write, names it. A short id may equal any number, so it names an entity
    only under a member named after its type. Judged against many writes, the texts the entity
    holds are read once and each other entity's sighting once, for every entity judged
    (``sighting_texts``, the replay's ``GateRun.sighting_texts``)."""

    def __init__(self, value: Any, key: str, type_name: str, id_fields: dict[str, str], timeline: Timeline,
                 settings: dict[str, Any], sighting_texts: dict[int, tuple[Any, dict[str, set[str]]]] | None = None
                 ) -> None:
        self.key, self.type_name, self.id_fields = key, type_name, id_fields
        self.timeline, self.settings = timeline, settings
        self.identities = frozenset(id_fields.values())
        self.texts = _texts(value, id_fields.get(type_name, ""), self.identities)
        self.naming_sightings: dict[int, tuple[Any, bool]] = {}
        self.sighting_texts = sighting_texts if sighting_texts is not None else {}

    def to(self, targets: frozenset, ordinal: int,
           written: tuple[tuple[tuple, dict[str, Any]], ...] = ()) -> bool:
        """``written``: the entities the write left in the copy (``Tracking.written``); each that
        names this entity links it too (a create's book naming its author, which no read before the
        create shows)."""
        for target in targets:
            if target[0] != "entity":
                continue
            _, type_name, key = target
            link = _link(type_name, self.settings)
            if any(link.names(key, member) for member in self.texts.get(key, ())):
                return True
            seen = self.timeline.before(type_name, key, ordinal)
            if seen is not None and self._names_me(seen, type_name):
                return True
        mine = _link(self.type_name, self.settings)
        return any(target in targets and any(mine.names(self.key, member) for member in
                                             _texts(value, self.id_fields.get(target[1], ""),
                                                    self.identities).get(self.key, ()))
                   for target, value in written)

    def _names_me(self, seen: Any, type_name: str) -> bool:
        """Whether the sighting's value names this entity (the sighting kept beside its verdict,
        so its id is not reused while the verdict is)."""
        found = self.naming_sightings.get(id(seen))
        if found is None:
            link = _link(self.type_name, self.settings)
            texts = self.sighting_texts.get(id(seen))
            if texts is None or texts[0] is not seen:  # kept beside its texts: its id is not reused
                texts = self.sighting_texts[id(seen)] = (
                    seen, _texts(seen.value, self.id_fields.get(type_name, ""), self.identities))
            members = texts[1].get(self.key, ())
            found = self.naming_sightings[id(seen)] = (seen, any(link.names(self.key, m) for m in members))
        return found[1]


def _link(type_name: str, settings: dict[str, Any]) -> _Link:
    return _link_of(type_name, int(settings["absence_link_name_prefix"]), int(settings["absence_link_short_id"]),
                    tuple(settings["absence_link_reference_words"]))


@lru_cache(maxsize=None)
def _link_of(type_name: str, size: int, short: int, reference_words: tuple[str, ...]) -> _Link:
    """One ``_Link`` per type and settings (asked for per write weighed and per entity judged)."""
    return _Link(type_name, size, short, reference_words)


class _Link:
    """What a member holding an id must look like to name an entity of ``type_name``."""

    def __init__(self, type_name: str, size: int, short: int, reference_words: tuple[str, ...] = ()) -> None:
        # the name's beginning, or one of its words' (an issue's "category" names issue_categories)
        words = [w for w in re.split(r"[^a-z0-9]+", type_name.lower()) if w]
        self.prefixes = tuple(dict.fromkeys([type_name.lower()[:size]] + [w[:size] for w in words]))
        self.short = short
        self.reference_words = reference_words

    def names(self, key: str, member: str) -> bool:
        """A long id anywhere; a short one under a member whose name begins as the type's name or one
        of its words, or under a reference (its last word a reference word) one of whose other words
        does (parent_region_id names regions, ownerUserId users)."""
        if len(key) >= self.short or member.lower().startswith(self.prefixes):
            return True
        words = _words(member)
        return (len(words) > 1 and words[-1] in self.reference_words
                and any(word.startswith(self.prefixes) for word in words[:-1]))


def _words(member: str) -> list[str]:
    """A member name's words, lower case: split on other characters and at camelCase humps."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", member)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def _texts(value: Any, own_id: str, identities: frozenset[str] = frozenset()) -> dict[str, set[str]]:
    """Every scalar anywhere in ``value`` (not the entity's own identity ``own_id``), as text, with
    the members that hold it. A nested object's ``id`` is named by the member holding the object; its
    member named as a type's identity field (``identities``) by both: a copy nested whole, as
    ``{"project": {"slug": "mobile", ...}}``, names project mobile as ``project``."""
    found: dict[str, set[str]] = {}
    stack: list[tuple[Any, str, bool]] = [(value, "", True)]
    while stack:
        current, member, top = stack.pop()
        if isinstance(current, dict):
            stack.extend((v, member if k == "id" and not top else k, False)
                         for k, v in current.items() if not (top and k == own_id))
            if not top and member:
                stack.extend((v, member, False) for k, v in current.items()
                             if k != "id" and k in identities and not isinstance(v, (dict, list)))
        elif isinstance(current, list):
            stack.extend((v, member, False) for v in current)
        elif not isinstance(current, bool) and current is not None:
            found.setdefault(str(current), set()).add(member)
    return found


def _how(record: Record, read_view: Any) -> str:
    if read_view.kind == "list":
        return "a list of the whole collection without it"
    return f"a recorded {record.status}"

"""Where each entity was seen along the capture: item reads, list reads and write answers.

Plans look up the entity as held just before a call and the first read that shows it after;
every sighting keeps its record, so a plan can cite where it learned a value. List reads are also
kept whole (``list_reads``), with the initial state's ids and the write calls, so a create can be
observed in the one entity a list newly shows (``newly_listed``).

Reads are gathered when the timeline is built. Write answers (a 2xx create's or update's
response carrying the entity) are added by the plan builder, which knows each write's type and
entity (``add_answer``); they are kept apart from the reads, so every lookup that names no
``via`` (a create's link and observation, the gate's checks) sees reads only, as before.
"""

from __future__ import annotations

import bisect

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import EntityType, ReadView, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.shallow import at_item_path, item_prefix
from capenv.interpreter.bundle.values import locate, same_spelling
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.view.extract import collection_path
from capenv.interpreter.view.read_gate import item_query_answered
from capenv.interpreter.view.views import is_absence
from capenv.interpreter.view.window import is_write


READS = ("item", "list")


def same_collection(a: str, b: str) -> bool:
    """Two collection paths name one collection, segment by segment as serving compares spellings
    (verbatim, or both once percent-decoded)."""
    mine, theirs = split_path(a), split_path(b)
    return len(mine) == len(theirs) and all(same_spelling(x, y) for x, y in zip(mine, theirs))


def numbered_apart(entity_type: EntityType) -> bool:
    """Ids may repeat across the type's collections: its collection template takes a parameter and
    its item path names the collection (``/users/{user}/posts/{id}``, ``/classes/{class}/{id}``),
    where each parent or table numbers its entities on its own. A shallow type's item path names an
    entity by its id alone, and a path-addressed type by its address: their ids do not repeat."""
    return "{" in entity_type.collection_template and not entity_type.shallow_items \
        and entity_type.address is None


def own_collection(path: str, entity_type: EntityType) -> str | None:
    """The collection a call's path names its entity in, where the type numbers its collections
    apart (``numbered_apart``) and the path lies on one of them: an entity with the same id in
    another collection is another entity. None: any collection's sighting is the entity's."""
    if not numbered_apart(entity_type):
        return None
    parts, template = split_path(path), split_path(entity_type.collection_template)
    if len(parts) < len(template) or any(a != b and not b.startswith("{") for a, b in zip(parts, template)):
        return None
    return collection_path(path, entity_type)


def in_collection(sighting: "Sighting", collection: str | None) -> bool:
    """The sighting lies in ``collection`` (any, when None)."""
    return collection is None or same_collection(sighting.collection, collection)


@dataclass(frozen=True)
class Sighting:
    ordinal: int
    type: str
    collection: str
    key: str
    value: dict[str, Any] | None
    """None: the read recorded the entity absent (400/404/410 or JSON null)."""
    via: str
    """item, list or response."""


@dataclass(frozen=True)
class ListRead:
    record: Record
    type: str
    collection: str
    members: dict[str, dict[str, Any]]
    """The entities it lists, by id, in list order."""


@dataclass
class Timeline:
    records: dict[int, Record]
    types: dict[str, EntityType]
    by_entity: dict[tuple[str, str], list[Sighting]] = field(default_factory=dict)
    item_reads_by_id: dict[str, list[tuple[Record, ReadView]]] = field(default_factory=dict)
    """Every item read by decoded path id, in timeline order: a create's link looks up each
    returned id (scanning every item read per candidate made linking quadratic)."""
    answers: dict[tuple[str, str], list[Sighting]] | None = None
    """Write answers showing an entity (via "response"), by entity; None until the plan builder
    has added them (``add_answer``)."""
    list_reads: list[ListRead] = field(default_factory=list)
    """Every successful JSON list read of a state type, in timeline order."""
    initial_ids: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    """The initial state's entity ids, by (type, collection path as recorded)."""
    write_ordinals: list[int] = field(default_factory=list)
    """Every call that may have changed state (``is_write``), in timeline order."""
    start_ordered: bool = False
    """Ordinals follow start times (as ``load_evidence`` numbers records), so a sighting that
    started after a call began cannot have finished before it: lookups may bisect."""
    collection_reads: dict[tuple[str, str], dict[str, list[Record]]] | None = None
    """(collection, id field) -> key -> the successful JSON GETs of it holding that key, built on
    first use (``collection_reads.collection_read_holding``)."""
    key_targets: dict[int, str] = field(default_factory=dict)
    """The identity each recorded call of a key-addressed write named (``plans/item_keys``):
    the plan and the gate keep their targets by identity."""
    absent_keys: dict[int, str] = field(default_factory=dict)
    """An absence read naming its entity by a key member (a name): the identity of the entity the
    reads showed holding that value, by the read's ordinal."""
    json_gets: dict[str, list[Record]] | None = None
    """Path -> its successful JSON GETs in ordinal order, built on first use (``collection_reads``)."""
    sweeps: dict[str, "ReadSweep"] = field(default_factory=dict, repr=False, compare=False)
    """Type -> its reads by end, swept forward by ``reads_before``, built on first use."""
    merged: dict[tuple[str, str], tuple[int, Any, int, list[Sighting]]] = field(
        default_factory=dict, repr=False, compare=False)
    """(type, key) -> the entity's reads and write answers in timeline order, with what it was
    made from (how many reads, the answers' dict and how many answers): ``held_before`` is asked
    per entity and call, and sorted them anew each time."""

    def add(self, sighting: Sighting) -> None:
        self.by_entity.setdefault((sighting.type, sighting.key), []).append(sighting)
        self.sweeps.clear()

    def reads_before(self, type_name: str, ordinal: int) -> dict[str, Sighting]:
        """Every entity of the type with a read ``before`` finds for the call ``ordinal``, in
        ``by_entity`` order, with that read. Plans ask this call after call, each time for every
        entity of a type, so the type's reads are swept by end once, picking up where the previous
        (earlier) call of the same pass left off."""
        sweep = self.sweeps.get(type_name)
        if sweep is None:
            sweep = self.sweeps[type_name] = ReadSweep(self, type_name)
        latest = sweep.latest_by(self.records[ordinal].started_at)
        found = {}
        for key in sweep.keys:
            held = latest.get(key)
            if held is None:
                continue
            seen = held[1] if held[1].ordinal != ordinal else self.before(type_name, key, ordinal)
            if seen is not None:
                found[key] = seen
        return found

    def collection_at(self, path: str, entity_type: EntityType, key: str) -> str:
        """The collection a path names an entity in: its prefix as deep as the collection template,
        or at a shallow type's item path (``EntityType.shallow_items``) the collection the entity was
        last seen in (a list, a create's answer), since the path names it by its id alone; the item
        path's own prefix when it was never seen in one."""
        if not at_item_path(path, entity_type):
            return collection_path(path, entity_type)
        seen = [s for s in (*self.by_entity.get((entity_type.name, key), ()),
                            *((self.answers or {}).get((entity_type.name, key), ()))) if s.via != "item"]
        return max(seen, key=lambda s: s.ordinal).collection if seen else item_prefix(path, entity_type)

    def add_answer(self, sighting: Sighting) -> None:
        """A 2xx write's response that carries the entity, located by its id."""
        if self.answers is None:
            self.answers = {}
        if sighting.via != "response" or sighting.value is None:
            raise ValueError("a write answer is a sighting via 'response' showing the entity")
        self.answers.setdefault((sighting.type, sighting.key), []).append(sighting)

    def sightings(self, type_name: str, key: str, via: tuple[str, ...] = READS) -> list[Sighting]:
        """The entity's sightings of those kinds, in timeline (start) order."""
        if "response" in via and self.answers:
            return [s for s in self._merged(type_name, key) if s.via in via]
        return [s for s in self.by_entity.get((type_name, key), []) if s.via in via]

    def _merged(self, type_name: str, key: str) -> list[Sighting]:
        """The entity's reads and write answers ordered by ordinal (a stable sort: a read before an
        answer of the same ordinal), made again only when either has grown or the answers changed."""
        reads = self.by_entity.get((type_name, key), [])
        answers = (self.answers or {}).get((type_name, key), [])
        made = self.merged.get((type_name, key))
        if made is None or made[0] != len(reads) or made[1] is not self.answers or made[2] != len(answers):
            made = (len(reads), self.answers, len(answers), sorted(reads + answers, key=lambda s: s.ordinal))
            self.merged[(type_name, key)] = made
        return made[3]

    def before(self, type_name: str, key: str, ordinal: int, *, via: tuple[str, ...] = READS,
               collection: str | None = None) -> Sighting | None:
        """The latest sighting that finished before the call ``ordinal`` began (reads only unless
        ``via`` names "response"); with ``collection``, the latest in that collection."""
        start = self.records[ordinal].started_at
        # the latest in timeline order: walking back, the first that qualifies (an entity's
        # sightings grow with every list read, and plans ask for each entity of a type)
        found = self.sightings(type_name, key, via) if "response" in via and self.answers \
            else self.by_entity.get((type_name, key), ())  # reads only: no filtered copy to make
        end = len(found)
        if self.start_ordered:  # an entity's sightings grow with every list read: skip the later ones
            end = bisect.bisect_right(found, start, key=self._started)
        for index in range(end - 1, -1, -1):
            sighting = found[index]
            if sighting.via in via and self.records[sighting.ordinal].finished_at <= start \
                    and sighting.ordinal != ordinal and in_collection(sighting, collection):
                return sighting
        return None

    def held_before(self, type_name: str, key: str, ordinal: int,
                    other_callers: frozenset[int] = frozenset(), collection: str | None = None) -> Sighting | None:
        """The entity as held just before the call ``ordinal`` began: the latest read, brought
        forward by the write answers recorded after it, each finished before the call began.

        An answer's members replace the ones held (a write's answer may leave fields out, which
        the write kept). A read that began before an applied answer's write had finished may show
        the entity from before that write, so it is passed over. The sighting returned cites the
        last record applied (its ``via``); its value is None when the latest read found the
        entity absent and no answer followed. ``other_callers``: records sent as another caller than
        the principal, whose absence answers are that caller's view (an entity hidden from it), so
        they show nothing absent. ``collection``: only sightings in that collection (ids repeat
        across the type's collections)."""
        start = self.records[ordinal].started_at
        held: Sighting | None = None
        answered_until = None  # when the latest applied answer's write finished
        found = self._merged(type_name, key) if self.answers \
            else self.by_entity.get((type_name, key), [])  # reads only: no filtered copy to make
        end = len(found)
        if self.start_ordered:  # one that started after the call began finished after it: skipped below
            end = bisect.bisect_right(found, start, key=self._started)
        for index in range(end):
            sighting = found[index]
            record = self.records[sighting.ordinal]
            if record.finished_at > start or sighting.ordinal == ordinal:
                continue
            if sighting.value is None and sighting.ordinal in other_callers:
                continue
            if not in_collection(sighting, collection):
                continue
            if sighting.via == "response":
                value = dict(sighting.value or {})
                if held is not None and held.value is not None:
                    value = {**held.value, **value}
                held = Sighting(sighting.ordinal, sighting.type, sighting.collection, sighting.key, value, "response")
                answered_until = record.finished_at if answered_until is None else max(answered_until,
                                                                                      record.finished_at)
            elif answered_until is None or record.started_at >= answered_until:
                held = sighting
        return held

    def seen_before(self, type_name: str, key: str, ordinal: int, collection: str | None = None) -> bool:
        sighting = self.before(type_name, key, ordinal, collection=collection)
        return sighting is not None and sighting.value is not None

    def first_after(self, type_name: str, key: str, ordinal: int, *, via: tuple[str, ...] = ("item", "list"),
                    collection: str | None = None) -> Sighting | None:
        """The first sighting that began after the call ``ordinal`` ended; with ``collection``, the
        first in that collection (ids repeat across a type's collections: another's entity is no
        sighting of this one)."""
        end = self.records[ordinal].finished_at
        found = self.by_entity.get((type_name, key), [])
        first = bisect.bisect_left(found, end, key=self._started) if self.start_ordered else 0
        for sighting in found[first:]:
            if sighting.via in via and self.records[sighting.ordinal].started_at >= end \
                    and in_collection(sighting, collection):
                return sighting
        return None

    def _started(self, sighting: Sighting) -> Any:
        return self.records[sighting.ordinal].started_at


class ReadSweep:
    """A type's read sightings ordered by end and, for each moment swept to, each entity's latest
    read ended by then (by its place in ``by_entity``, as ``Timeline.before`` walks back)."""

    def __init__(self, timeline: Timeline, type_name: str):
        self.keys = [key for (t, key) in timeline.by_entity if t == type_name]
        events = sorted(((timeline.records[s.ordinal].finished_at, position, key, s)
                         for key in self.keys
                         for position, s in enumerate(timeline.by_entity[(type_name, key)]) if s.via in READS),
                        key=lambda event: event[0])
        self.ends = [event[0] for event in events]
        self.events = [event[1:] for event in events]
        # One cursor per pass of the plans over the calls (a pass asks in time order; the next one
        # starts over): how far it has swept, and each entity's latest read so far.
        self.cursors: list[tuple[int, dict[str, tuple[int, Sighting]]]] = []

    def latest_by(self, moment: Any) -> dict[str, tuple[int, Sighting]]:
        """Each entity's latest read ended at or before ``moment``, with its place (not to be changed)."""
        upto = bisect.bisect_right(self.ends, moment)
        behind = [index for index, (applied, _) in enumerate(self.cursors) if applied <= upto]
        if behind:
            chosen = max(behind, key=lambda index: self.cursors[index][0])
            applied, latest = self.cursors[chosen]
        else:
            chosen, applied, latest = len(self.cursors), 0, {}
            self.cursors.append((0, latest))
        for position, key, sighting in self.events[applied:upto]:
            held = latest.get(key)
            if held is None or position > held[0]:
                latest[key] = (position, sighting)
        self.cursors[chosen] = (upto, latest)
        return latest


def build_timeline(view: ViewResult, manifest: Manifest, records: dict[int, Record]) -> Timeline:
    types = {t.name: t for t in view.types}
    timeline = Timeline(records, types)
    tool_of = {o: t.name for t in manifest.tools for o in t.record_ordinals}
    read_only = {p.tool for p in view.read_only_posts}
    timeline.write_ordinals = [o for o in sorted(records) if is_write(records[o], tool_of, read_only)]
    starts = [records[o].started_at for o in sorted(records)]
    timeline.start_ordered = all(a <= b for a, b in zip(starts, starts[1:]))
    for held in view.state.collections:
        timeline.initial_ids.setdefault((held.type, held.path), set()).update(str(e.id) for e in held.entities)
    views = {v.tool: v for v in view.views}
    for ordinal in sorted(records):
        record = records[ordinal]
        read_view = views.get(tool_of.get(ordinal, ""))
        if read_view is None or read_view.kind not in ("item", "list") or read_view.type not in types:
            continue
        if ordinal in read_view.other_shape_records:
            continue  # another shape than the view reads (a query reshaping it): no sighting of the state
        if ordinal in read_view.malformed_id_records:
            continue  # refused for the id's shape (view-malformed-ids): no sighting of the state
        entity_type = types[read_view.type]
        collection = collection_path(record.path, entity_type)
        if read_view.kind == "item":
            raw_id = split_path(record.path)[-1]
            if entity_type.shallow_items:
                collection = timeline.collection_at(record.path, entity_type, _key_for(
                    timeline, entity_type, read_view, unquote(raw_id)))
            if entity_type.address is not None and read_view.key_field in (None, entity_type.id_field):
                # the path's value ends the entity's own address, its identity (IdAddress)
                raw_id = entity_type.address.identity_of(collection, unquote(raw_id))
            timeline.item_reads_by_id.setdefault(unquote(raw_id), []).append((record, read_view))
            if is_absence(record, view.budgets.absence_statuses, read_view):
                key = _key_for(timeline, entity_type, read_view, unquote(raw_id))
                if key != unquote(raw_id):
                    timeline.absent_keys[ordinal] = key
                timeline.add(Sighting(ordinal, entity_type.name, collection, key, None, "item"))
                continue
            if not record.succeeded or not record.response.is_json:
                continue
            if not item_query_answered(read_view, record.query, records):
                continue  # serving replays this query (it may reshape the entity): no sighting of the state
            located = locate(record.response.json_value, read_view.locator)
            if isinstance(located, dict) and entity_type.id_field in located:
                timeline.add(Sighting(ordinal, entity_type.name, collection, str(located[entity_type.id_field]),
                                      located, "item"))
        elif record.succeeded and record.response.is_json:
            located = locate(record.response.json_value, read_view.locator)
            if not isinstance(located, list):
                continue
            listed: dict[str, dict[str, Any]] = {}
            for member in located:
                if isinstance(member, dict) and entity_type.id_field in member:
                    timeline.add(Sighting(ordinal, entity_type.name, collection, str(member[entity_type.id_field]),
                                          member, "list"))
                    listed.setdefault(str(member[entity_type.id_field]), member)
            timeline.list_reads.append(ListRead(record, entity_type.name, collection, listed))
    return timeline


def _key_for(timeline: Timeline, entity_type: EntityType, view: ReadView, path_id: str) -> str:
    """An absence read by a key field (a name) names the entity whose key held that value; so does
    one at an item path also taking another member (``EitherKey``) with a value not shaped as an id."""
    field = view.key_field
    either = entity_type.either_key
    if field in (None, entity_type.id_field) and either is not None and not either.names_identity(path_id):
        field = either.member
    if field in (None, entity_type.id_field):
        return path_id
    for (type_name, key), sightings in timeline.by_entity.items():
        if type_name == entity_type.name and any(
                s.value is not None and str(s.value.get(field)) == path_id for s in sightings):
            return key
    return path_id

"""Link a create to the type its returned id is read under (seeds: "A POST whose path gives
it no target is a create into the type its returned id is read under")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from capenv.interpreter.bundle.models import EntityType, Locator, StateSnapshot
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.shallow import at_item_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.answer_places import AnswerPlaceContext
from capenv.interpreter.rules_engine.evaluate import evaluate_table
from capenv.interpreter.rules_engine.loader import RuleSet
from capenv.interpreter.view.extract import collection_path

from .collection_reads import collection_read_holding
from .timeline import Timeline, own_collection, same_collection

ANSWER_PLACES = "write-answer-places"


@dataclass(frozen=True)
class Link:
    type: EntityType
    collection: str
    id_value: Any
    observed: dict[str, Any] | None
    """The entity located in the call's own response, when it carries more than the id."""
    locator: Locator | None


def _scalar(value: Any) -> bool:
    """A string or integer (not a boolean): what an id may be."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _entity_members(body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The members of ``body`` holding one object, or a one-element array of one (Ghost's
    ``{"posts": [{…}]}``), with the pointer segments leading to it."""
    found = []
    for name, value in body.items():
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            found.append((f"{name}/0", value[0]))
        elif isinstance(value, dict):
            found.append((name, value))
    return found


def returned_ids(body: Any, is_identity_member: Callable[[str], bool], min_length: int) -> list[tuple[Any, str]]:
    """Ids a create's answer names: identity members of the body, of an object member or of the
    one object of a one-element array member (where none names one: of those inside an object
    member), or a scalar body or sole member (of ``min_length`` characters or more). (value,
    where) pairs."""
    found: list[tuple[Any, str]] = []
    if _scalar(body):
        if len(str(body)) >= min_length:
            found.append((body, "/"))
        return found
    if not isinstance(body, dict):
        return found
    if len(body) == 1:
        (name, value), = body.items()
        if _scalar(value) and len(str(value)) >= min_length:
            found.append((value, f"/{name}"))
    for name, value in body.items():
        if _scalar(value) and is_identity_member(name):
            found.append((value, f"/{name}"))
    for name, value in _entity_members(body):
        for inner, inner_value in value.items():
            if _scalar(inner_value) and is_identity_member(inner):
                found.append((inner_value, f"/{name}/{inner}"))
    if not found:  # an envelope around an envelope ({"data": {"note": {…}}})
        for name, value in body.items():
            for inner_name, inner in _entity_members(value) if isinstance(value, dict) else ():
                found.extend((v, f"/{name}/{inner_name}/{k}") for k, v in inner.items()
                             if _scalar(v) and is_identity_member(k))
    unique, seen = [], set()
    for value, where in found:
        if (str(value), where) not in seen:
            seen.add((str(value), where))
            unique.append((value, where))
    return unique


def ids_answered(body: Any, id_field: str, envelopes: list[Locator]) -> list[str]:
    """The ids a create's answer returned where its observation may look them up: at the top (a
    scalar body, the identity field, or a sole scalar member) or in an envelope member, where the
    type's item views locate their entity (Kinto's {"data": {"id": …}}). An id elsewhere in the
    answer may name another entity, whose read must not be taken for the created one."""
    if _scalar(body):
        return [str(body)]
    if not isinstance(body, dict):
        return []
    found = [body[id_field]] if _scalar(body.get(id_field)) else []
    if len(body) == 1 and _scalar(next(iter(body.values()))):
        found.append(next(iter(body.values())))
    for locator in envelopes:
        enveloped = locate(body, locator) if locator.kind != "root" else None
        if isinstance(enveloped, dict) and _scalar(enveloped.get(id_field)):
            found.append(enveloped[id_field])
    return list(dict.fromkeys(str(value) for value in found))


def names_collection_of(path: str, entity_type: EntityType) -> bool:
    """The call's own path is a collection path of the type (each parameter any segment)."""
    parts, template = split_path(path), split_path(entity_type.collection_template)
    return len(parts) == len(template) and all(a == b or b.startswith("{") for a, b in zip(parts, template))


def names_collection_below(tool_template: str, entity_type: EntityType) -> bool:
    """The tool's path is a collection path of the type plus one literal segment: a create posted
    to ``/registration_tokens/new`` or ``/things/create`` names the type's collection too. A
    parameter there (``/api/contents/{path...}``, a folder's contents) names no such word."""
    parts, template = split_path(tool_template), split_path(entity_type.collection_template)
    return (len(parts) == len(template) + 1 and not parts[-1].startswith("{")
            and names_collection_of("/" + "/".join(parts[:-1]), entity_type))


def identity_of(is_identity_member: Callable[[str], bool],
                target: EntityType | None) -> Callable[[str], bool]:
    """Identity members of a create's answer: those named as identities, and the identity field of
    ``target``, the type whose collection the call's path names (``names_collection_of``, or
    ``names_collection_below`` for a literal segment after it), which
    names the entity whatever the field is called (an entry addressed by its ``kind`` or ``code``)."""
    if target is None:
        return is_identity_member
    return lambda name: name == target.id_field or is_identity_member(name)


def names_id_alone(body: Any) -> bool:
    """Whether a create's answer names its id alone: a scalar, a sole scalar member (the identity
    field or another), or a sole member holding an object of one scalar member ({"data": {"id": …}})."""
    if _scalar(body):
        return True
    if not isinstance(body, dict) or len(body) != 1:
        return False
    (value,) = body.values()
    return _scalar(value) or (isinstance(value, dict) and len(value) == 1 and _scalar(next(iter(value.values()))))


def link_create(call: Record, timeline: Timeline, initial: StateSnapshot, candidates: list[tuple[Any, str]],
                other_write_between: Callable[[int, int], bool], min_length: int,
                type_read_before: Callable[[str, int], bool], places: AnswerPlaces,
                target: EntityType | None = None) -> tuple[Link | None, list[str]]:
    """The first later item read naming a returned id, of a state type, with the entity new.

    A short id may be any type's, so it links only to a type a read showed before the call: an
    entity of it, or a list of ``target``'s collection, the one the call's own path names, even an
    empty one (``GET /segments`` answering ``{"segments": []}`` before ``POST /segments`` answers
    ``{"id": 1, ...}``): the path and that read say whose id it is.

    Returns the link (or None) and, per candidate, why it did not link (for the trace).
    """
    misses: list[str] = []
    held = [(c.type, c.path, str(e.id)) for c in initial.collections for e in c.entities]
    for value, where in candidates:
        key = str(value)
        read = next(((r, v) for r, v in timeline.item_reads_by_id.get(key, ())
                     if r.started_at >= call.finished_at and r.succeeded
                     and r.response.is_json and r.response.json_value is not None
                     and _read_in_call_collection(r, timeline.types[v.type], call)), None)
        if read is None:
            misses.append(f"{where}={key!r}: no later item read names it"
                          + (" in the collection the call names" if timeline.item_reads_by_id.get(key) else ""))
            continue
        record, view = read
        entity_type = timeline.types[view.type]
        mine = own_collection(call.path, entity_type)  # ids repeat across the type's collections
        either = entity_type.either_key
        if either is not None and view.key_field in (None, entity_type.id_field) and not either.names_identity(key):
            # the item path takes either key, and this value is not shaped as the identity: the read
            # names the entity by its other key member (a name), which is no id the create returned
            misses.append(f"{where}={key!r}: record {record.ordinal} names its {entity_type.name} entity by "
                          f"{either.member!r}, not by its identity")
            continue
        if other_write_between(call.ordinal, record.ordinal):
            misses.append(f"{where}={key!r}: another tool wrote before record {record.ordinal} read it")
            continue
        if any(t == entity_type.name and k == key and (mine is None or same_collection(path, mine))
               for t, path, k in held) or timeline.seen_before(entity_type.name, key, call.ordinal, mine):
            misses.append(f"{where}={key!r}: a {entity_type.name} entity with that id existed before the call")
            continue
        where_made = collection_path(call.path if at_item_path(record.path, entity_type) else record.path,
                                     entity_type)  # a shallow type's item read names no collection
        if not names_collection_of(where_made, entity_type):
            # posted beside the collection (POST /customer, listed at /customers): the entity lies in
            # the type's collection, which only a template naming no parameter spells for every call
            if "{" in entity_type.collection_template:
                misses.append(f"{where}={key!r}: the call's path {call.path} names no collection of "
                              f"{entity_type.name} ({entity_type.collection_template})")
                continue
            where_made = entity_type.collection_template
        listed = collection_read_holding(timeline, where_made, entity_type.id_field, key, call)
        if listed is not None:
            misses.append(f"{where}={key!r}: a {entity_type.name} entity with that id existed before the call "
                          f"(record {listed.ordinal}, GET {listed.path}, held it)")
            continue
        if len(key) < min_length and not type_read_before(entity_type.name, call.ordinal) \
                and not _target_listed_before(timeline, target, entity_type, call):
            misses.append(f"{where}={key!r}: a short id links only to a type read before the call (an entity, "
                          "or a list of the collection the call's path names)")
            continue
        observed, locator = entity_in_answer(call.response.json_value, entity_type.id_field, key, places,
                                             item_read_place=view.locator)
        return Link(entity_type, where_made, value, observed, locator), misses
    return None, misses


def _read_in_call_collection(read: Record, entity_type: EntityType, call: Record) -> bool:
    """The item read lies in the collection the call names, where the read's type numbers its
    collections apart and the call's path names one of them (bob's post 2 is not ann's post 2)."""
    mine = own_collection(call.path, entity_type)
    return mine is None or same_collection(collection_path(read.path, entity_type), mine)


def _target_listed_before(timeline: Timeline, target: EntityType | None, entity_type: EntityType,
                          call: Record) -> bool:
    """A successful list read of the collection the call's path names finished before the call."""
    if target is None or target.name != entity_type.name:
        return False
    return any(read.type == target.name and read.collection == call.path
               and read.record.finished_at <= call.started_at for read in timeline.list_reads)


class AnswerPlaces:
    """The ``write-answer-places`` table's rank of each kind of place in a write's answer, asked
    once per build (a place's rank depends on its kind and on being the item read's place alone)."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.table = ruleset.table(ANSWER_PLACES)
        self.ranks: dict[tuple[str, bool], int | None] = {}

    def rank(self, kind: str, item_read_place: bool) -> int | None:
        """The place's rank (lower tried first), or None: the table does not search it."""
        if (kind, item_read_place) not in self.ranks:
            context = AnswerPlaceContext(kind=kind, item_read_place=item_read_place)
            rank = evaluate_table(self.table, context, subject=f"{kind} place").yields.get("rank")
            self.ranks[(kind, item_read_place)] = None if rank is None else int(rank)
        return self.ranks[(kind, item_read_place)]


def _member_places(body: Any, within: tuple[str, ...]) -> list[Locator]:
    """The members of ``body`` that may hold one entity: an object, or a one-element array of one;
    and, one level down, those of a member's object (``{"data": {"post": {…}}}``), each after its
    member."""
    found: list[Locator] = []
    if not isinstance(body, dict):
        return found
    for name, value in body.items():
        if isinstance(value, dict):
            found.append(Locator(kind="member", member=name, within=within))
            if not within:
                found.extend(_member_places(value, (name,)))
        elif isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            found.append(Locator(kind="singleton", member=name, within=within))
    return found


def entity_in_answer(body: Any, id_field: str, key: str, places: AnswerPlaces,
                     item_read_place: Locator | None = None) -> tuple[dict[str, Any] | None, Locator | None]:
    """The entity in a write's answer, located by its identity as item views locate it; an answer
    naming the id alone (the id field, or one member) does not count as showing the entity.

    The places are searched in the order the ``write-answer-places`` table ranks them, those of one
    rank in the answer's member order. ``item_read_place``: where the item read that showed the
    entity found it (Alerta's ``{"customer": {...}, "id": ..., "status": "ok"}`` is read back as
    ``{"customer": {...}}``)."""
    options = [Locator(kind="root"), *_member_places(body, ())]
    if item_read_place is not None and item_read_place not in options:
        options.insert(0, item_read_place)
    ranked = [(rank, position, locator) for position, locator in enumerate(options)
              if (rank := places.rank(locator.kind, locator == item_read_place)) is not None]
    for _, _, locator in sorted(ranked, key=lambda entry: entry[:2]):
        entity = locate(body, locator)
        if isinstance(entity, dict) and str(entity.get(id_field)) == key and len(entity) > 1:
            return entity, locator
    return None, None

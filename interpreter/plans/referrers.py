"""Which members of the state's entities name the entities a delete removes (``WritePlan.referrers``).

The spec models a delete as removing the entity alone and leaves referential rules unmodelled: an
application may delete an issue's time entries with it, clear a comment's post, or refuse to
delete a referenced tracker. Serving a delete of an entity something refers to would then answer
every later read of the referring entities as if nothing happened, a wrong answer; so serving
refuses exactly those deletes (``serving/writes/referrers``) and keeps serving the others, which
are what the capture showed. Which members refer is read from every entity the capture shows
(the initial state and each later sighting), one member of one type at a time (its value, or each
element of its array), top-level or inside the entity's objects at any depth (a JSON:API
resource's ``relationships.author.data``, a note's ``context.post_id``; an array on the way is
crossed element by element), by the ``delete-referrers`` table: a member naming the type, object
values repeating or summarising the entity they name, or, where ids of several types collide, a
member all of whose ids the type holds and that no other type explains. Only members holding an
id the deleted type's entities hold are judged, so a plan with no referrer keeps the bytes it had.
A bulk delete is judged as an item one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from capenv.interpreter.bundle.body_members import body_object
from capenv.interpreter.bundle.jsonvalue import canonical
from capenv.interpreter.bundle.models import EntityType, Referrer, WritePlan, member_holders
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.predicates.create_values import json_text
from capenv.interpreter.predicates.delete_referrers import DeleteReferrerContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext
from .references import known_ids

TABLE = "delete-referrers"
MIN_MEMBERS_SETTING = ("plans", "referrer_min_projected_members")
"""How many members an object must repeat of the entity its id names to show more than an id does."""


def with_referrers(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built delete plan with the members naming its type's entities, and their traces."""
    ctx.plan_of = {p.tool: p for p in plans}
    deletes = {id(p) for p in plans if _removes(p) and p.type is not None and p.build_reason is None}
    if not deletes or TABLE not in ctx.ruleset.tables:
        return plans
    entities, explaining = sightings(ctx)
    out = []
    try:
        for plan in plans:
            if id(plan) not in deletes:
                out.append(plan)
                continue
            referrers, events = referrers_judged(ctx, plan.type, entities, explaining)
            if not events:
                out.append(plan)
                continue
            out.append(plan.model_copy(update={"referrers": referrers, "traces": plan.traces + events}))
    finally:
        _WORDS.clear()
    return out


_WORDS: dict[int, tuple[dict[str, Any], frozenset[str]]] = {}
"""id(entity) -> (entity, the words of its text values), while ``with_referrers`` runs: every object
of a member is held against every entity of the type, and splitting an entity's texts anew each time
was half of a build (Label Studio's tasks)."""


def _words(entity: dict[str, Any]) -> frozenset[str]:
    held = _WORDS.get(id(entity))
    if held is not None and held[0] is entity:
        return held[1]
    words = frozenset(w for v in entity.values() if isinstance(v, str) for w in v.split())
    _WORDS[id(entity)] = (entity, words)
    return words


def _removes(plan: WritePlan) -> bool:
    return plan.effect == "delete" or (plan.effect == "bulk" and plan.bulk_effect == "delete")


class _Sightings:
    """Every entity value the capture shows, per type, with what the judging reads of them worked
    out once per build step rather than once per deleted type and explaining type: each type's
    candidate members, each member's occurrences, and per id the distinct values of a type."""

    def __init__(self, seen: dict[str, list[dict[str, Any]]]) -> None:
        self.seen = seen
        self._distinct: dict[str, dict[bytes, list[Any]]] = {}
        self._members: dict[tuple[str, str], list[Member]] = {}
        self._occurrences: dict[tuple[str, Member], list[Occurrence]] = {}
        self._held: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}

    def of(self, type_name: str) -> list[dict[str, Any]]:
        return self.seen.get(type_name, [])

    def distinct(self, type_name: str) -> list[list[Any]]:
        """Each value of the type once, in the order first seen, with how many times the capture
        shows it (``[value, count]``): every list read shows an unchanged entity again, and each
        candidate member's occurrences were read from every copy. A later copy names only ids its
        first one named already, so the ids keep their first-seen order."""
        if type_name not in self._distinct:
            counted: dict[bytes, list[Any]] = {}
            for value in self.of(type_name):
                held = counted.get(text := canonical(value))
                if held is None:
                    counted[text] = [value, 1]
                else:
                    held[1] += 1
            self._distinct[type_name] = counted
        return list(self._distinct[type_name].values())

    def members(self, type_name: str, id_field: str) -> list[Member]:
        key = (type_name, id_field)
        if key not in self._members:
            self._members[key] = list(_candidate_members([v for v, _ in self.distinct(type_name)], id_field))
        return self._members[key]

    def occurrences(self, type_name: str, member: Member) -> list[Occurrence]:
        key = (type_name, member)
        if key not in self._occurrences:
            self._occurrences[key] = _occurrences(self.distinct(type_name), member)
        return self._occurrences[key]

    def held(self, target: EntityType) -> dict[str, list[dict[str, Any]]]:
        key = (target.name, target.id_field)
        if key not in self._held:
            self._held[key] = _held_by_id(target, [v for v, _ in self.distinct(target.name)])
        return self._held[key]


def sightings(ctx: PlanContext) -> tuple[_Sightings, _Explanations]:
    """The capture's entity values and the explaining rules' judgements, worked out once per plan
    context: the delete referrers and the reference copies read the same ones (each built its own,
    walking every entity value of the capture again for the same candidate members)."""
    made = ctx.__dict__.get("sightings")
    if made is None:
        entities = _Sightings(_entities_seen(ctx))
        made = ctx.__dict__["sightings"] = (entities, _Explanations(ctx, entities))
    return made


def _entities_seen(ctx: PlanContext) -> dict[str, list[dict[str, Any]]]:
    """Per type, every entity value the capture shows: the initial state and each later sighting."""
    seen: dict[str, list[dict[str, Any]]] = {}
    for collection in ctx.view.state.collections:
        seen.setdefault(collection.type, []).extend(e.value for e in collection.entities if isinstance(e.value, dict))
    for sightings in (ctx.timeline.by_entity, ctx.timeline.answers or {}):
        for (type_name, _), values in sightings.items():
            seen.setdefault(type_name, []).extend(s.value for s in values if isinstance(s.value, dict))
    return seen


class _Explanations:
    """Which types a member names by the table's explaining rules (``explains``), judged once per
    member: where the deleted type holds every id a member names, another type explaining it (an
    issue's status, whose ids are also user ids) says the member names that type instead."""

    def __init__(self, ctx: PlanContext, entities: _Sightings) -> None:
        # what it reads of the context, not the context: kept on it (``sightings``), holding it
        # would make the whole context cyclic garbage, walked again by the collector
        self._types, self._ruleset, self._entities = ctx.view.types, ctx.ruleset, entities
        self._min_members = _min_members(ctx)
        self._held = {t.name: entities.held(t) for t in ctx.view.types}
        self._judged: dict[tuple[str, Member, str], list[str]] = {}

    def _referring_words(self, referring: str) -> list[str]:
        return next((own_words(t) for t in self._types if t.name == referring), [])

    def of(self, referring: str, member: Member, field: str) -> list[str]:
        """The types explaining ``referring.member`` (ids compared with ``field`` inside objects)."""
        key = (referring, member, field)
        if key not in self._judged:
            occurrences = self._entities.occurrences(referring, member)
            explained = []
            for candidate in self._types:
                if (member.id_member is not None and candidate.id_field != field) or not self._held[candidate.name]:
                    continue
                context = _context(occurrences, member, own_words(candidate),
                                   self._held[candidate.name], self._min_members,
                                   self._referring_words(referring))
                subject = f"{referring}.{member.spelled} -> {candidate.name}"
                if context.held and evaluate(self._ruleset, TABLE, context, subject=subject).yields.get("explains"):
                    explained.append(candidate.name)
            self._judged[key] = explained
        return self._judged[key]


def referrers_judged(ctx: PlanContext, type_name: str, entities: _Sightings, explaining: _Explanations
                     ) -> tuple[tuple[Referrer, ...], tuple[TraceEvent, ...]]:
    """The members naming ``type_name``'s entities and their traces, judged once per build."""
    if type_name not in ctx.judged_referrers:
        ctx.judged_referrers[type_name] = _referrers_of(ctx, type_name, entities, explaining)
    return ctx.judged_referrers[type_name]


def _referrers_of(ctx: PlanContext, type_name: str, entities: _Sightings,
                  explaining: _Explanations) -> tuple[tuple[Referrer, ...], tuple[TraceEvent, ...]]:
    target = next(t for t in ctx.view.types if t.name == type_name)
    held = entities.held(target)
    if not held:
        return (), ()
    words = own_words(target)
    referrers: list[Referrer] = []
    events: list[TraceEvent] = []
    for other in ctx.view.types:
        for member in entities.members(other.name, target.id_field):
            if member.id_member is None and not member.within and (member.name == other.id_field or (
                    other.name == type_name and _aliases_identity([v for v, _ in entities.distinct(other.name)],
                                                                  member.name,
                                                                  target.id_field))):
                continue  # the entity's own identity (a Strapi documentId, a zone's name) names no other
            context = _context(entities.occurrences(other.name, member), member, words, held, _min_members(ctx),
                               own_words(other))
            if not context.held:
                continue  # names no entity of the type: nothing to judge
            if len(context.held) == len(context.values):  # every id held: another type may be named alike
                others = [t for t in explaining.of(other.name, member, target.id_field) if t != type_name]
                context = context.model_copy(update={"explained_by": others,
                                                     "dangling_refusals": _dangling_refusals(ctx, other, member)})
            subject = f"{other.name}.{member.spelled} -> {type_name}"
            decision = evaluate(ctx.ruleset, TABLE, context, subject=subject)
            events.extend(decision.events)
            if decision.yields.get("referrer"):
                referrers.append(Referrer(type=other.name, member=member.name, within=member.within,
                                          id_member=member.id_member, many=member.many,
                                          rule_id=str(decision.rule_id)))
    return tuple(referrers), tuple(events)


def _dangling_refusals(ctx: PlanContext, referring: EntityType, member: Member) -> int:
    """Recorded writes to ``referring``'s collection (its last own word ends the path) that sent the
    top-level member a scalar no type's entity holds and were refused (4xx) with an answer naming it."""
    if member.within or member.id_member is not None or member.many:
        return 0
    words = own_words(referring)
    if not words:
        return 0
    if ctx.known_ids is None:
        ctx.known_ids = {key for ids in known_ids(ctx.timeline).values() for key in ids}
    count = 0
    for record, body, segments in _refused_bodies(ctx):
        if member.name not in body:
            continue
        if segments[-1:] != words[-1:] and segments[-2:-1] != words[-1:]:
            continue
        value = body[member.name]
        if isinstance(value, (dict, list, bool)) or value is None or json_text(value) in ctx.known_ids:
            continue
        count += f'"{member.name}"' in (record.response.text or "")
    return count


def _refused_bodies(ctx: PlanContext) -> list[tuple[Any, dict[str, Any], list[str]]]:
    """The recorded calls that may change state refused 4xx with a JSON object body (read inside
    its tool's envelope: ``{"spans": [{…}]}``), with their path's segments: read once per plan
    context and plans by tool (``_dangling_refusals`` asked every record again per member)."""
    made = ctx.__dict__.get("refused_bodies")
    if made is None or made[0] is not ctx.plan_of:
        found = []
        for record in ctx.records.values():
            if not record.changes_state or not 400 <= record.status < 500:
                continue
            body = record.request.json_value if record.request.is_json else None
            plan = ctx.plan_of.get(ctx.tool_of.get(record.ordinal, ""))
            body = body_object(plan, body) if plan is not None else body
            if isinstance(body, dict):
                found.append((record, body, split_path(record.path)))
        made = ctx.__dict__["refused_bodies"] = (ctx.plan_of, found)
    return made[1]


def _aliases_identity(values: list[dict[str, Any]], member: str, id_field: str) -> bool:
    """Every entity holding the member holds its own identity there (PowerDNS's zone name)."""
    holding = [v for v in values if member in v]
    return bool(holding) and all(same_json(v[member], v.get(id_field)) for v in holding)


def own_words(entity_type: EntityType) -> list[str]:
    """The literal segments of the type's collection path that no parameter follows: a word a
    parameter follows names a parent collection (``projects`` of ``/projects/{project_id}/versions``)."""
    segments = split_path(entity_type.collection_template)
    return [s for i, s in enumerate(segments) if not s.startswith("{")
            and not (i + 1 < len(segments) and segments[i + 1].startswith("{"))]


def _held_by_id(target: EntityType, values: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per id, every value the capture shows the entity holding (a rename shows two), each once
    (every list read shows an unchanged entity again, the same JSON)."""
    held: dict[str, dict[bytes, dict[str, Any]]] = {}
    for value in values:
        text = json_text(value.get(target.id_field))
        if text is not None:
            held.setdefault(text, {}).setdefault(canonical(value), value)
    return {text: list(distinct.values()) for text, distinct in held.items()}


class Member(NamedTuple):
    """A member that may name entities: its name, the members leading to the objects holding it
    (``within``; empty: top-level), the member holding the id inside its objects (``id_member``;
    None: its value is the id), and whether it holds an array of such values (``many``)."""

    name: str
    within: tuple[str, ...]
    id_member: str | None
    many: bool

    @property
    def spelled(self) -> str:
        return ".".join((*self.within, self.name)) + ("[]" if self.many else "")


def _candidate_members(values: list[dict[str, Any]], id_field: str) -> Iterator[Member]:
    """Each member holding scalars, and each holding objects with the identity field, alone or as
    an array's elements (``many``): the entity's own, and those of every object inside it, at any
    depth (``within``). Inside a nested object the identity field's own scalar is left out: the
    object holding it is the candidate (``id_member``)."""
    kinds: dict[tuple[tuple[str, ...], str, bool], set[bool]] = {}
    for value in values:
        _collect_kinds(value, (), id_field, kinds)
    for (within, member, many), objects in sorted(kinds.items()):
        yield Member(member, within, id_field if True in objects else None, many)


def _collect_kinds(value: dict[str, Any], within: tuple[str, ...], id_field: str,
                   kinds: dict[tuple[tuple[str, ...], str, bool], set[bool]]) -> None:
    for member, inner in value.items():
        many = isinstance(inner, list)
        for element in inner if many else (inner,):
            if isinstance(element, dict):
                if id_field in element:
                    kinds.setdefault((within, member, many), set()).add(True)
                _collect_kinds(element, (*within, member), id_field, kinds)
            elif isinstance(element, (str, int)) and not isinstance(element, bool):
                if within and member == id_field:
                    continue  # the id of the object holding it, judged as that object
                kinds.setdefault((within, member, many), set()).add(False)


def _min_members(ctx: PlanContext) -> int:
    return int(ctx.ruleset.setting(*MIN_MEMBERS_SETTING))


class Occurrence(NamedTuple):
    """An id a member names: its text, the object naming it (with ``id_member``; else None), and
    how many of the capture's values show it there (copies of one value counted, not walked)."""

    text: str
    inner: Any
    count: int


def _occurrences(values: list[list[Any]], member: Member) -> list[Occurrence]:
    """Each id the member names, in the order the values (``[value, count]``) show them:
    ``(id text, the object naming it, count)`` with ``id_member``, else ``(id text, None, count)``
    for each string or integer."""
    found: list[Occurrence] = []
    for value, count in values:
        for inner in _member_values((value,), member):
            if member.id_member is not None:
                if not isinstance(inner, dict):
                    continue
                text = json_text(inner.get(member.id_member))
            else:
                text = json_text(inner) if isinstance(inner, (str, int)) and not isinstance(inner, bool) else None
                inner = None
            if text is not None:
                found.append(Occurrence(text, inner, count))
    return found


def _context(occurrences: list[Occurrence], member: Member, words: list[str],
             held: dict[str, list[dict[str, Any]]], min_members: int,
             referring_words: list[str]) -> DeleteReferrerContext:
    id_member = member.id_member
    named: dict[str, None] = {}
    objects = projections = composed = bare = 0
    for text, inner, count in occurrences:
        named[text] = None
        if id_member is not None and text in held:
            objects += count
            if len(inner) >= min_members and any(
                    all(k in entity and same_json(v, entity[k]) for k, v in inner.items()) for entity in held[text]):
                projections += count
            if len(inner) >= min_members and _names_by_its_words(inner, id_member, text, held):
                composed += count
            bare += count * (set(inner) == {id_member})
    return DeleteReferrerContext(member=member.name, within=list(member.within), id_member=id_member,
                                 type_words=words, referring_words=referring_words, values=list(named),
                                 held=[t for t in named if t in held], objects=objects, projections=projections,
                                 composed=composed, bare=bare, many=member.many)


def _member_values(values: Iterable[dict[str, Any]], member: Member) -> Iterator[Any]:
    """The member's value in each entity (through the objects ``within`` leads to, as
    ``Referrer.holders`` reads them), or each element of its array (``many``)."""
    for value in values:
        for inner in (member_holders(value, member.within, member.name) if member.within
                      else (value.get(member.name),)):
            if not member.many:
                yield inner
            elif isinstance(inner, list):
                yield from inner


def _names_by_its_words(inner: dict[str, Any], id_member: str, text: str,
                        held: dict[str, list[dict[str, Any]]]) -> bool:
    """The object summarises the entity its id names and tells it from the type's others: some
    value of that entity composes it and, where the type holds others, not every other does (a
    dashboard's created_by "Ada Admin" is composed by every dashboard's changed_by_name, and so
    names none of them)."""
    if not any(_summarises(inner, id_member, entity) for entity in held[text]):
        return False
    others = [values for key, values in held.items() if key != text]
    return not others or not all(any(_summarises(inner, id_member, e) for e in values) for values in others)


def _summarises(inner: dict[str, Any], id_member: str, entity: dict[str, Any]) -> bool:
    """Each of the object's members but its id is the entity's value under that name, or text made
    only of the words of the entity's text values (a name joined from firstname and lastname)."""
    for name, value in inner.items():
        if name == id_member or (name in entity and same_json(value, entity[name])):
            continue
        if not (isinstance(value, str) and value.split()):
            return False
        words = _words(entity)
        if not all(w in words for w in value.split()):
            return False
    return True

"""Members counting another type's entities that name each entity (the ``referrer-counts`` table).

A project's ``task_number`` counts the tasks whose ``project`` names it; a task's
``total_annotations`` the annotations held under its path. Serving a create or delete of a task
would change the tasks alone and leave the project answering the old count: a wrong answer where
the capture never read the project again after such a write, so the gate had nothing to contradict
it with. The initial state shows the relation before any write.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from capenv.interpreter.bundle.models import ViewResult, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.referrer_counts import ReferrerCountContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "referrer-counts"


def counted_referrers(view: ViewResult, ruleset: RuleSet, shown: "Sightings | None" = None
                      ) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[TraceEvent, ...]]]:
    """Per type whose entities are counted: the counts (``projects.task_number``), the members by which
    its entities name the counted ones (``{arg}`` for a collection below their item path), and the
    decisions that say so. ``shown``: the capture's reads and writes; a count a read shows unchanged
    just after a recorded write made or removed an entity naming it counts nothing."""
    if TABLE not in ruleset.tables or view.state is None:
        return {}
    held: dict[str, dict[str, dict[str, Any]]] = {}
    for collection in view.state.collections:
        for entity in collection.entities:
            if isinstance(entity.value, dict):
                held.setdefault(collection.type, {})[str(entity.id)] = entity.value
    found: dict[str, tuple[list[str], list[str], list[TraceEvent]]] = {}
    for referrer_type, by, named in _namings(view, held):
        for counted_type, entities in held.items():
            if counted_type == referrer_type:
                continue
            tally = Counter(v for v in named.get(counted_type, ()) if v in entities)
            if not tally:
                continue
            for member, values in _integer_members(entities).items():
                if any(values[key] != tally.get(key, 0) for key in entities):
                    continue  # the predicate's first condition, checked here so only candidates are traced
                unchanged = shown.unchanged_after(counted_type, member, referrer_type, by) if shown else None
                context = ReferrerCountContext(type_name=counted_type, member=member, referrer_type=referrer_type,
                                               reference=by, counts=[(values[k], tally.get(k, 0)) for k in entities],
                                               unchanged_after=unchanged)
                decision = evaluate(ruleset, TABLE, context, subject=f"{counted_type}.{member} and {referrer_type}")
                if decision.yields.get("counts"):
                    counts, members, events = found.setdefault(referrer_type, ([], [], []))
                    counts.append(f"{counted_type}.{member}")
                    if by not in members:
                        members.append(by)
                    events.extend(decision.events)
    return {name: (tuple(c), tuple(m), tuple(e)) for name, (c, m, e) in found.items()}


def _namings(view: ViewResult, held: dict[str, dict[str, dict[str, Any]]]):
    """(referrer type, how it names, {counted type: the names, one per referrer}) for each way a type's
    entities name others: a top-level member (not its identity) whose values are ids some other type
    holds, or the parameter of its collection path below another type's item path."""
    types = {t.name: t for t in view.types}
    for referrer_type, entities in held.items():
        id_field = types[referrer_type].id_field if referrer_type in types else "id"
        members = {m for value in entities.values() for m in value if m != id_field}
        for member in sorted(members):
            names = [str(v[member]) for v in entities.values()
                     if isinstance(v.get(member), (int, str)) and not isinstance(v.get(member), bool)]
            if names:
                yield referrer_type, member, {other: names for other in held if other != referrer_type}
    below: dict[tuple[str, str, str], list[str]] = {}
    for collection in view.state.collections if view.state is not None else ():
        mine = types.get(collection.type)
        if mine is None or not collection.args or not collection.entities:
            continue
        for other in view.types:
            param = _item_param_above(other.item_template, mine.collection_template)
            if param is not None and param in collection.args:
                below.setdefault((collection.type, param, other.name), []).extend(
                    [collection.args[param]] * len(collection.entities))
    for (referrer_type, param, other), names in sorted(below.items()):
        yield referrer_type, "{" + param + "}", {other: names}


def _item_param_above(item_template: str | None, collection_template: str) -> str | None:
    """The parameter of ``item_template`` where ``collection_template`` lies below it, else None."""
    if not item_template:
        return None
    item, below = split_path(item_template), split_path(collection_template)
    if len(below) <= len(item) or not item or not item[-1].startswith("{") or not below[len(item) - 1].startswith("{"):
        return None
    if any(a != b and not (a.startswith("{") and b.startswith("{")) for a, b in zip(item, below)):
        return None
    return below[len(item) - 1].strip("{}")  # named as the collection's arguments name it


def _integer_members(entities: dict[str, dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Each member (top-level, or one object deep as ``count.posts``) every entity holds as an integer."""
    found: dict[str, dict[str, int]] = {}
    for key, value in entities.items():
        for name, held in value.items():
            inner = held.items() if isinstance(held, dict) else ()
            for member, number in [(name, held)] + [(f"{name}.{k}", v) for k, v in inner]:
                if isinstance(number, int) and not isinstance(number, bool):
                    found.setdefault(member, {})[key] = number
    return {m: values for m, values in found.items() if len(values) == len(entities)}


class Sightings:
    """What the capture shows of counted entities around the recorded writes of their referrers."""

    def __init__(self, view: ViewResult, manifest: Manifest, records: dict[int, Record],
                 plans: list[WritePlan]) -> None:
        self._view, self._records, self._plans = view, records, plans
        self._tool_of = {o: tool for tool in manifest.tools for o in tool.record_ordinals}
        self._writes = sorted(o for o, r in records.items() if r.method not in ("GET", "HEAD", "OPTIONS"))
        self._types = {t.name: t for t in view.types}

    def unchanged_after(self, counted_type: str, member: str, referrer_type: str, by: str) -> int | None:
        """The first read showing an entity's ``member`` as it was just before a recorded write of a
        referrer naming it, with no other write between (its record), else None."""
        seen = self._member_sightings(counted_type, member)
        for ordinal, named in self._referrer_writes(referrer_type, by):
            before = [value for o, key, value in seen if o < ordinal and key == named]
            after = next(((o, value) for o, key, value in seen if o > ordinal and key == named), None)
            if not before or after is None or after[1] != before[-1]:
                continue
            if any(ordinal < w < after[0] for w in self._writes):
                continue
            return after[0]
        return None

    def _member_sightings(self, counted_type: str, member: str) -> list[tuple[int, str, Any]]:
        entity_type = self._types.get(counted_type)
        views = {v.tool: v for v in self._view.views
                 if v.type == counted_type and v.kind in ("item", "list") and v.locator is not None}
        if entity_type is None or not views:
            return []
        found = []
        for ordinal in sorted(self._records):
            record, tool = self._records[ordinal], self._tool_of.get(ordinal)
            view = views.get(tool.name) if tool is not None else None
            if view is None or record.method != "GET" or not record.response.is_json:
                continue
            located = locate(record.response.json_value, view.locator)
            for entity in (located if isinstance(located, list) else [located]):
                if isinstance(entity, dict) and entity_type.id_field in entity:
                    found.append((ordinal, str(entity[entity_type.id_field]), _member(entity, member)))
        return found

    def _referrer_writes(self, referrer_type: str, by: str) -> list[tuple[int, str]]:
        """(record, the id of the counted entity it named) of each successful recorded create or
        delete of a referrer."""
        held = {str(e.id): e.value for c in (self._view.state.collections if self._view.state else ())
                if c.type == referrer_type for e in c.entities if isinstance(e.value, dict)}
        found = []
        for plan in self._plans:
            if plan.type != referrer_type or plan.effect not in ("create", "delete"):
                continue
            for ordinal in sorted(o for o, t in self._tool_of.items() if t.name == plan.tool):
                record = self._records[ordinal]
                if not 200 <= record.status < 300:
                    continue
                args = _arguments(plan.template, record.path)
                if by.startswith("{"):
                    named = args.get(by.strip("{}"))
                elif plan.effect == "create":
                    body = record.request.json_value if record.request.is_json else None
                    named = body.get(by) if isinstance(body, dict) else None
                else:
                    entity = held.get(next(reversed(args.values()), "")) if args else None
                    named = entity.get(by) if entity else None
                if isinstance(named, (int, str)) and not isinstance(named, bool):
                    found.append((ordinal, str(named)))
        return found


def _member(entity: dict[str, Any], member: str) -> Any:
    outer, _, inner = member.partition(".")
    value = entity.get(outer)
    return value.get(inner) if inner and isinstance(value, dict) else value


def _arguments(template: str, path: str) -> dict[str, str]:
    """The path's value of each parameter of ``template`` (segments aligned), in order."""
    return {t.strip("{}"): p for t, p in zip(split_path(template), split_path(path)) if t.startswith("{")}

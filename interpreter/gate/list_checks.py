"""A list failing only for where one create placed its entity (seeds: "The gate", "Attribution").

The plan's insert rule was the first candidate the capture admitted; a later list may show
another. When another of the create's candidates (the ``insert-candidates`` table's sorted,
first and last yields) reproduces the list, that candidate becomes the plan's rule, unless an
earlier list check already relied on the rule. Where yet another order (another candidate, or a
sort by another member of the entities) puts the create in the same place with the list in order,
the list does not prove the candidate: the rule is unproven (``insert.first-unproven``'s case),
and serving refuses a list showing a served create beside another rather than guess its place.
"""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.insert import insert_index, sort_key
from capenv.interpreter.bundle.models import EntityType, InsertRule, WritePlan
from capenv.interpreter.predicates.clock_formats import learn_clock_format
from capenv.serving.state.index import HeldCollection

TABLE = "insert-candidates"


def insert_candidates(entity_type: EntityType, entity: dict[str, Any],
                      table: Any = None) -> list[InsertRule]:
    """The table's candidates in its order (the build's table; the packaged one when none is
    given), each a rule serving can apply to this entity."""
    if table is None:
        from capenv.interpreter.rules_engine import load_rules

        table = load_rules().tables.get(TABLE)
    if table is None:
        return []
    clocks = [name for name, value in entity.items() if learn_clock_format(value) is not None]
    found: list[InsertRule] = []
    for rule in table.rules:
        kind, descending = rule.yields.get("kind"), bool(rule.yields.get("descending"))
        if kind in ("first", "last"):
            fields: list[str | None] = [None]
        elif rule.yields.get("by") == "id":
            fields = [entity_type.id_field]
        else:
            fields = list(clocks)
        for name in fields:
            candidate = InsertRule(rule_id=rule.id, kind=kind, field=name, descending=descending)
            if not any(_same_rule(candidate, known) for known in found):
                found.append(candidate)
    return found


def replace_placement(plan: WritePlan, entity_type: EntityType, collection: HeldCollection, key: str,
                      reproduces: Callable[[], bool], table: Any = None
                      ) -> tuple[InsertRule, list[str]] | None:
    """The first other candidate whose placement of ``key`` among the collection's other members
    makes ``reproduces()`` true, and the other orders placing it alike (``other_explanations``:
    then the rule is unproven); the collection keeps that order. None (order restored) otherwise."""
    if key not in collection.entities:
        return None
    entity = collection.entities[key]
    original = list(collection.order)
    others = [k for k in original if k != key]
    current = plan.insert or InsertRule(rule_id="insert.default-last", kind="last")
    tried: set[int] = {original.index(key)}
    for candidate in insert_candidates(entity_type, entity, table):
        if _same_rule(candidate, current):
            continue
        index = insert_index([collection.entities[k] for k in others], entity, candidate)
        if index in tried:
            continue
        tried.add(index)
        collection.order[:] = others[:index] + [key] + others[index:]
        if reproduces():
            alike = other_explanations(candidate, entity_type, [collection.entities[k] for k in others], entity,
                                       index, table)
            # another order puts the create where the list shows it: which one the application keeps
            # the capture cannot tell, so serving places it so but refuses a list showing it beside another
            return (candidate.model_copy(update={"unproven": True, "alike": tuple(alike)}) if alike
                    else candidate), alike
    collection.order[:] = original
    return None


def other_explanations(chosen: InsertRule, entity_type: EntityType, others: list[dict[str, Any]],
                       entity: dict[str, Any], index: int, table: Any = None) -> list[str]:
    """The orders other than ``chosen`` that put ``entity`` at ``index`` among ``others`` (the
    members listed beside it, in their listed order) with the whole list kept in order: another
    insert candidate (first, or a sort by the identity or a clock), or a sort by another scalar
    member of the entities (a tax rule listed first is also first by its lower rate)."""
    listed = others[:index] + [entity] + others[index:]
    found: list[str] = []
    for candidate in insert_candidates(entity_type, entity, table):
        if _same_rule(candidate, chosen) or insert_index(others, entity, candidate) != index:
            continue
        if candidate.kind != "sorted" or _in_order(listed, candidate.field, candidate.descending):
            found.append(_described(candidate))
    taken = {chosen.field} | {entity_type.id_field}
    for field, value in entity.items():
        if field in taken or not _scalar(value) or any(not _scalar(m.get(field)) or field not in m for m in others):
            continue
        if all(sort_key(m.get(field)) == sort_key(value) for m in others):  # one value throughout orders nothing
            continue
        for descending in (False, True):
            sort = InsertRule(rule_id="gate.another-member", kind="sorted", field=field, descending=descending)
            if _in_order(listed, field, descending) and insert_index(others, entity, sort) == index:
                described = _described(sort)
                if described not in found:
                    found.append(described)
    return found


def _scalar(value: Any) -> bool:
    return value is not None and isinstance(value, (str, int, float, bool))


def _in_order(members: list[dict[str, Any]], field: str | None, descending: bool) -> bool:
    keys = [sort_key(m.get(field)) for m in members]
    return all((a >= b) if descending else (a <= b) for a, b in zip(keys, keys[1:]))


def _described(rule: InsertRule) -> str:
    if rule.kind != "sorted":
        return rule.kind
    return f"{rule.field} {'descending' if rule.descending else 'ascending'}"


def _same_rule(a: InsertRule, b: InsertRule) -> bool:
    return (a.kind, a.field if a.kind == "sorted" else None, a.descending if a.kind == "sorted" else False) == \
        (b.kind, b.field if b.kind == "sorted" else None, b.descending if b.kind == "sorted" else False)

"""A list failing only for where one create placed its entity (seeds: "The gate", "Attribution").

The plan's insert rule was the first candidate the capture admitted; a later list may show
another. When another of the create's candidates (the ``insert-candidates`` table's sorted,
first and last yields) reproduces the list, that candidate becomes the plan's rule, unless an
earlier list check already relied on the rule.
"""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.insert import insert_index
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
                      reproduces: Callable[[], bool], table: Any = None) -> InsertRule | None:
    """The first other candidate whose placement of ``key`` among the collection's other members
    makes ``reproduces()`` true; the collection keeps that order. None (order restored) otherwise."""
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
            return candidate
    collection.order[:] = original
    return None


def _same_rule(a: InsertRule, b: InsertRule) -> bool:
    return (a.kind, a.field if a.kind == "sorted" else None, a.descending if a.kind == "sorted" else False) == \
        (b.kind, b.field if b.kind == "sorted" else None, b.descending if b.kind == "sorted" else False)

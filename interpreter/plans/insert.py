"""A create's insert rule (seeds: "List position"), decided by the ``insert-candidates`` table.

The context holds the initial window's whole listings of the collection (of its type's other
collections when the window listed none of it: one application orders them alike), the created entity,
the members held just before the create, and the first later whole listing that shows it.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType, InsertRule
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.predicates.insert_order import InsertCandidateContext
from capenv.interpreter.predicates.update_values import instant_and_format
from capenv.interpreter.rules_engine import TraceEvent, evaluate

TABLE = "insert-candidates"


def _whole_listings(ctx: Any, collection: str | None, type_name: str | None = None, plain: bool = False
                    ) -> list[tuple[int, list[dict[str, Any]]]]:
    """(ordinal, members) of every whole listing of the collection (with ``type_name`` instead,
    of every collection of that type; ``plain``: only those read without a query), in timeline order."""
    found = []
    for view in ctx.view.views:
        if view.kind != "list" or (type_name is not None and view.type != type_name):
            continue
        for line in view.lines:
            if (type_name is None and line.collection != collection) or line.membership != "all" \
                    or (plain and line.query):
                continue
            for ordinal in line.all_record_ordinals:
                members = locate(ctx.records[ordinal].response.json_value, view.locator)
                if isinstance(members, list):
                    found.append((ordinal, [m for m in members if isinstance(m, dict)]))
    return sorted(found, key=lambda item: item[0])


def insert_rule(ctx: Any, entity_type: EntityType, collection: str, exemplar: Any, observed: dict[str, Any]
                ) -> tuple[InsertRule, list[TraceEvent]]:
    listings = _whole_listings(ctx, collection)
    window = set(ctx.view.window.read_ordinals)
    initial = [members for ordinal, members in listings if ordinal in window]
    if not initial:  # a collection made during the session: its type's other collections show the order
        initial = [members for ordinal, members in _whole_listings(ctx, None, entity_type.name) if ordinal in window]
    key = str(observed.get(entity_type.id_field))
    later = next((members for ordinal, members in listings
                  if ctx.records[ordinal].started_at >= exemplar.finished_at
                  and any(str(m.get(entity_type.id_field)) == key for m in members)), None)
    previous = [e for e in ctx.type_entities(entity_type.name, exemplar.ordinal)
                if str(e.get(entity_type.id_field)) != key]
    # a clock names an instant (an epoch number only within the clock settings' years: a count of 0
    # is no creation time listing the entities in another order)
    clocks = [name for name, value in observed.items() if instant_and_format(value) is not None]
    after = [members for ordinal, members in _whole_listings(ctx, collection, plain=True)
             if ctx.records[ordinal].started_at >= exemplar.finished_at]
    context = InsertCandidateContext(id_field=entity_type.id_field, initial_orders=initial, created=observed,
                                     clock_fields=clocks, previous_members=previous, later_members=later,
                                     later_orders=after)
    decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{entity_type.name} insert")
    yields = decision.yields
    field = None
    if yields.get("kind") == "sorted":
        field = entity_type.id_field if yields.get("by") == "id" else next(
            (e.evidence.get("field") for e in decision.events if e.outcome == "match" and e.evidence.get("field")),
            clocks[0] if clocks else None)
    rule = InsertRule(rule_id=decision.rule_id or "insert.default-last", kind=yields.get("kind", "last"), field=field,
                      descending=bool(yields.get("descending")), unproven=bool(yields.get("unproven")),
                      unproven_anywhere=bool(yields.get("unproven_anywhere")))
    return rule, list(decision.events)

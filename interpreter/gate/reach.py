"""Which held entities of a collection a write no built plan models reached, where its path alone
names none of them (the ``gate-reach`` table; seeds: "The gate", "Writes").

The path rules say where a write lies; a call at or above a collection path, or below an item path
naming no held entity, may have changed any entity the collection holds, so each is unknown until
a read shows it again. Its own record can say less: a call that answered 201 Created made new
entities, and a held entity it changed too it names by id (an upsert's row, a copy's source, a
get-or-create's answer); a call refused because its JSON body did not parse acted on nothing it
does not name, and a create tool's call answered with an error made at most a new entity. The table decides; its trace and the reach event say which entities the
call could have touched and why it could not touch the others.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterator

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.gate_reach import GateReachContext
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate_table
from capenv.serving.state.index import HeldCollection

TABLE = "gate-reach"


def reached_keys(record: Record, type_name: str, held: HeldCollection, table: Any,
                 events: list[TraceEvent], parents: tuple[str, ...] = (), min_string: int = 0,
                 failed_create: bool = False) -> tuple[list[str], str]:
    """The held keys the call may have changed, and why (a clause for the reach event); the
    table's trace joins ``events``. ``parents``: the collection's path values below the call's
    path (a write above it that names one of them may have replaced what holds the collection).
    The call names a held entity by its id, or by one of its strings ``min_string`` characters or
    longer (an upsert by a natural key answered 201 names its rows so). ``failed_create``: the call
    is one of a create tool's, answered with an error."""
    every = list(held.entities)
    if table is None or not every:
        return every, ""
    values = set(_values(record.request.json_value if record.request.is_json else None))
    values.update(v for _, v in record.query)
    values.update(_values(record.response.json_value if record.response.is_json else None))
    parent = next((p for p in parents if p in values), None)
    if parent is not None:
        return every, f"it names {parent!r}, which holds {held.path}: every entity there may have changed"
    long_values = {v for v in values if len(v) >= min_string} if min_string > 0 else set()
    named = tuple(k for k in every if str(k) in values or _names_by_text(held.entities[k], long_values))
    unparsed = record.request.json_error is not None
    context = GateReachContext(method=record.method, status=record.status, held=len(every), named=named,
                               body_unparsed=unparsed, failed_create=failed_create)
    decision = evaluate_table(table, context, subject=f"record {record.ordinal} {type_name} {held.path}")
    events.extend(decision.events)
    if decision.yields.get("reach") != "named":
        return every, ""
    rule = decision.matched[0] if decision.matched else TABLE
    basis = decision.yields.get("basis")
    because = (f"it answered {record.status} to a body that is not JSON, so it acted on nothing it does not name,"
               if basis == "unparsed-body"
               else f"it is a create tool's call answered {record.status}, so at most it made a new entity,"
               if basis == "failed-create"
               else f"it answered {record.status}, so it made new entities,")
    if named:
        why = (f"{because} and names held {type_name} "
               f"{', '.join(repr(k) for k in named)} by id or a string of theirs ({rule}): only those are unknown, the other "
               f"{len(every) - len(named)} it could not have touched")
    else:
        why = (f"{because} and names none of the {len(every)} held "
               f"{type_name} by id or a string of theirs ({rule}): it could not have touched them")
    return list(named), why


def _names_by_text(entity: Any, long_values: set[str]) -> bool:
    """The call carries one of the entity's own strings at least ``min_string`` long: one of
    ``long_values``, the call's strings that long (none: no entity's values are walked)."""
    return bool(long_values) and any(text in long_values for text in _values(entity) if isinstance(text, str))


def _values(value: Any) -> Iterator[str]:
    """Every scalar of a JSON value as an id would be spelled (an integral number without its
    fraction too), object members' values included, their names not."""
    if isinstance(value, dict):
        for member in value.values():
            yield from _values(member)
    elif isinstance(value, list):
        for element in value:
            yield from _values(element)
    elif isinstance(value, str):
        yield value
    elif isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        yield str(value)
        if value == int(value):
            yield str(int(value))

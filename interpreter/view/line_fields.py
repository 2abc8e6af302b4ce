"""Which members a list line renders from the state (``view-line-fields``).

A line's recordings may show fewer members than its view's: a query that projects (``fields=``,
``_col=``), or a page that happened to list entities without an optional member. ``build_views``
keeps the line's own members (``ListLine.shown_fields``); this pass asks the table, and a line that
merely listed entities lacking the member renders each entity with every member the view shows, as
the other lines do (a page sorted otherwise lists entities that hold it, and must show it).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from capenv.interpreter.bundle.models import EntityType, ListLine, ReadView
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.line_fields import LackedMember, LineFieldsContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .member_naming import without_member_naming

TABLE = "view-line-fields"


def with_line_fields(view: ReadView, records: dict[int, Record], types: dict[str, EntityType],
                     write_ordinals: list[int], ruleset: RuleSet, traces: list[TraceEvent]) -> ReadView:
    """The list view with each line that only listed entities lacking optional members showing them.
    ``write_ordinals``: every write of the capture, sorted (a sighting pairs only with another that
    no write comes between)."""
    entity_type = types.get(view.type or "")
    if view.kind != "list" or entity_type is None or TABLE not in ruleset.tables \
            or not any(line.shown_fields for line in view.lines):
        return view
    lines = tuple(_judged(line, view, entity_type, records, write_ordinals, ruleset, traces)
                  if line.shown_fields else line for line in view.lines)
    return view.model_copy(update={"lines": lines})


def _judged(line: ListLine, view: ReadView, entity_type: EntityType, records: dict[int, Record],
            write_ordinals: list[int], ruleset: RuleSet, traces: list[TraceEvent]) -> ListLine:
    id_field = entity_type.id_field
    own = set(line.shown_fields)
    listed: dict[str, list[int]] = {}
    for ordinal, member in _members(line.record_ordinals, view, records):
        listed.setdefault(str(member.get(id_field)), []).append(ordinal)
    # the collection's other lines: a view over several collections holds several schemas
    elsewhere = _members([o for other in view.lines if other is not line and other.collection == line.collection
                          for o in other.record_ordinals], view, records)
    objects = [m for _, m in _members(line.record_ordinals, view, records)]
    names_members = without_member_naming(line.query, objects, ruleset) != line.query

    def same_moment(key: str, ordinal: int) -> bool:  # the line listed it with no write between
        return any(_no_write_between(write_ordinals, ordinal, seen) for seen in listed.get(key, ()))

    shown_here = {name for _, m in elsewhere for name in m}  # the other members of the view are other collections'
    lacked = []
    for name in view.shown_fields:
        if name in own or name not in shown_here:
            continue
        held = sorted({str(m.get(id_field)) for o, m in elsewhere if name in m and same_moment(str(m.get(id_field)), o)})
        # lacked beside an entity of the same answer holding it: optional, not projected away
        answering = {o for o, m in elsewhere if name in m}
        lacking = sorted({str(m.get(id_field)) for o, m in elsewhere if name not in m and o in answering})
        seen = {str(m.get(id_field)) for _, m in elsewhere} & set(listed)
        listed_lacking = sorted({str(m.get(id_field)) for _, m in elsewhere if name not in m} & seen)
        lacked.append(LackedMember(name=name, held_by_listed=held, lacked_elsewhere=lacking,
                                   listed_seen=sorted(seen), listed_lacking=listed_lacking))
    if not lacked:  # it shows every member its collection shows: the view's others are other collections'
        return line
    context = LineFieldsContext(tool=view.tool, query=[list(pair) for pair in line.query], lacked=lacked,
                                query_names_members=names_members)
    decision = evaluate(ruleset, TABLE, context, subject=f"{view.tool} line {line.path}?{_query_text(line)}")
    traces.extend(decision.events)
    if decision.yields.get("own_fields", True):
        return line
    optional = {m.name for m in lacked}
    return line.model_copy(update={"shown_fields": tuple(f for f in view.shown_fields if f in own or f in optional)})


def _no_write_between(write_ordinals: list[int], first: int, second: int) -> bool:
    low, high = min(first, second), max(first, second)
    return bisect_right(write_ordinals, low) == bisect_left(write_ordinals, high)


def _members(ordinals: Any, view: ReadView, records: dict[int, Record]) -> list[tuple[int, dict[str, Any]]]:
    found = []
    for ordinal in ordinals:
        record = records.get(ordinal)
        if record is None or not record.succeeded or not record.response.is_json:
            continue
        members = locate(record.response.json_value, view.locator) if view.locator is not None else None
        if isinstance(members, list):
            found += [(ordinal, m) for m in members if isinstance(m, dict)]
    return found


def _query_text(line: ListLine) -> str:
    return "&".join(f"{k}={v}" for k, v in line.query)

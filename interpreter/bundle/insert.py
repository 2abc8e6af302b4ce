"""Where a created entity goes in its collection's order, by the plan's insert rule."""

from __future__ import annotations

from typing import Any, Sequence

from capenv.interpreter.bundle.models import InsertRule


def sort_key(value: Any) -> tuple:
    """Numbers before strings; numbers by value, strings by text (digit strings by value)."""
    if isinstance(value, bool) or value is None:
        return (2, 0, str(value))
    if isinstance(value, (int, float)):
        return (0, value, "")
    text = str(getattr(value, "text", value))
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0, text)


def insert_index(members: Sequence[dict[str, Any]], entity: dict[str, Any], rule: InsertRule) -> int:
    """The index the new entity takes among ``members`` (which do not hold it yet): before the
    first member it sorts before (after every equal one)."""
    kind, field, descending = rule.kind, rule.field, rule.descending  # a model's attributes, read once
    if kind == "first":
        return 0
    if kind == "last" or field is None:
        return len(members)
    mine = sort_key(entity.get(field))
    if members:  # the common case: a new sequence value or clock sorts after every member
        last = sort_key(members[len(members) - 1].get(field))
        if (mine >= last) if not descending else (mine <= last):
            return len(members)
    for index, member in enumerate(members):
        theirs = sort_key(member.get(field))
        if (mine < theirs) if not descending else (mine > theirs):
            return index
    return len(members)

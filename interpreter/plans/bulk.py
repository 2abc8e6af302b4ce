"""Bulk writes (seeds: "Bulk writes"): how a body names its entities, and whether the
exemplar's answer lets serving answer any ids.

A body names its entities as an array of ids of one JSON kind, or of objects carrying the
type's id field, at the root or as the body's one array member. An ids member applies the
body's other members to every id; an element its own members; a root id array updates nothing.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import Address, EntityType, FieldRule


def address_of(body: Any, entity_type: EntityType) -> tuple[Address | None, list[Any], str]:
    """The address a body uses, the ids it names, and (when None) why it names no entities."""
    member, items = None, None
    if isinstance(body, list):
        items = body
    elif isinstance(body, dict):
        arrays = [name for name, value in body.items() if isinstance(value, list)]
        if len(arrays) == 1:
            member, items = arrays[0], body[arrays[0]]
    if items is None or not items:
        return None, [], "the body names no entities (no array of ids or elements at the root or in one member)"
    if all(isinstance(i, dict) and entity_type.id_field in i for i in items):
        return Address(by="elements", member=member), [i[entity_type.id_field] for i in items], ""
    kinds = {json_kind(i) for i in items}
    if len(kinds) == 1 and kinds <= {"integer", "string"}:
        return Address(by="ids", member=member, kind=kinds.pop()), list(items), ""
    return None, [], "the body's array mixes kinds or holds objects without the id field"


def same_address(a: Address, b: Address) -> bool:
    return (a.by, a.member, a.kind) == (b.by, b.member, b.kind)


def update_fields(body: Any, address: Address, id_field: str) -> list[FieldRule]:
    """An ids member applies the body's other members (echo); elements their own members."""
    if address.by == "ids":
        if address.member is None or not isinstance(body, dict):
            return []
        return [FieldRule(field=name, rule_id="bulk.other-member", op="echo", params={"member": name})
                for name in body if name != address.member]
    elements = body[address.member] if address.member else body
    names: list[str] = []
    for element in elements:
        names += [k for k in element if k != id_field and k not in names]
    return [FieldRule(field=name, rule_id="bulk.element-member", op="echo", params={"member": name})
            for name in names]


def response_fits(answer: Any, has_body: bool, ids: list[Any], id_field: str) -> str | None:
    """None when serving can answer any ids with this response shape, else why not."""
    if not has_body or answer is None:
        return None
    if isinstance(answer, list):
        if len(answer) == len(ids) and all(isinstance(a, dict) and a.get(id_field) == i for a, i in zip(answer, ids)):
            return None
        return "the answer is an array that is not one element per id"
    text_ids = {str(i) for i in ids}
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif not isinstance(value, bool) and value is not None:
            found.append(str(value))

    walk(answer)
    if text_ids & set(found):
        return "the answer names the recorded ids"
    if str(len(ids)) in found:
        return "the answer holds a number equal to how many ids it named (a count)"
    return None

"""The JSON Schema of recorded JSON bodies: the shape every one of them has, and nothing more.

A replayed answer is its recording's body verbatim, so where a description must admit a
recorded answer that the state-rendered shape does not (Datasette's ``?_shape=array`` answers a
bare array where its rows are otherwise an object's member), the recordings' own shape is
exact: each value's JSON type, an object's members (required where every recording held them)
and an array's items, merged over the recordings so that each of them fits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from capenv.interpreter.bundle.jsonvalue import JsonNumber, json_kind


def shape_of_all(values: Iterable[Any]) -> dict[str, Any] | None:
    """The narrowest schema of this kind that every value fits; None for no value."""
    found: dict[str, Any] | None = None
    for value in values:
        shape = shape_of(value)
        found = shape if found is None else merged(found, shape)
    return found


def shape_of(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        shape: dict[str, Any] = {"type": "object"}
        if value:
            shape["properties"] = {name: shape_of(member) for name, member in value.items()}
            shape["required"] = list(value)
        return shape
    if isinstance(value, list):
        items = shape_of_all(value)
        return {"type": "array", **({"items": items} if items is not None else {})}
    return {"type": _scalar_type(value)}


def merged(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """A schema both ``one`` and ``other`` fit: their types together, an object's members merged
    (required only where both require them), an array's items merged."""
    types = _types(one) | _types(other)
    if "number" in types:
        types.discard("integer")  # every integer is a number
    shape: dict[str, Any] = {"type": sorted(types) if len(types) > 1 else next(iter(types))}
    properties = _merged_members(one.get("properties", {}), other.get("properties", {}))
    if properties:
        shape["properties"] = properties
    required = _required(one, other)
    if required:
        shape["required"] = required
    items = [s["items"] for s in (one, other) if "items" in s]
    if items:
        shape["items"] = merged(*items) if len(items) == 2 else items[0]
    return shape


def _merged_members(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    found = dict(one)
    for name, shape in other.items():
        found[name] = merged(found[name], shape) if name in found else shape
    return found


def _required(one: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """Members every object of both holds; a side that is never an object asks nothing of objects."""
    objects = [s for s in (one, other) if "object" in _types(s)]
    if len(objects) == 1:
        return list(objects[0].get("required", ()))
    held = set(other.get("required", ()))
    return [name for name in one.get("required", ()) if name in held]


def _types(shape: dict[str, Any]) -> set[str]:
    kind = shape["type"]
    return set(kind) if isinstance(kind, list) else {kind}


def _scalar_type(value: Any) -> str:
    if isinstance(value, JsonNumber):
        return "number"  # an integer past 64 bits is kept as its text: a schema's "integer" would refuse it
    return json_kind(value)

"""Predicates on how a bulk write's body names its entities (seeds: "Bulk writes").

Context ``bulk-body``: one call's JSON body and the type's id field. A body names its entities
as an array of ids of one JSON kind, or of objects carrying the id field, at the root or as the
body's one array member ({"IDs": […], "Read": true}, [{"Id": 9}]). The evidence names the
member (None at the root) and, for ids, their kind: the plan's address.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("bulk-body")
class BulkBodyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    body: Any = None
    """The call's JSON body (None when it sent none, or no JSON)."""
    id_field: str = "id"


class PlaceParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: Literal["root", "member"]
    """Where the array is: the body itself, or the body's one array member."""
    member_names: list[str] = Field(default_factory=list)
    """For ``at: member``, the names the member may have; empty: any name (IDs, ids, items)."""


class IdsParams(PlaceParams):
    kinds: list[str] = Field(min_length=1)
    """The JSON kinds an id may be; every id must be of one of them, all of the same kind."""


def _array(ctx: BulkBodyContext, params: PlaceParams) -> tuple[str | None, list[Any]] | Miss:
    """The named array (root, or the body's one array member) and its member name; a non-empty one."""
    found = _located_array(ctx, params)
    if not isinstance(found, Miss) and not found[1]:
        return Miss("the array is empty")
    return found


def _located_array(ctx: BulkBodyContext, params: PlaceParams) -> tuple[str | None, list[Any]] | Miss:
    if params.at == "root":
        if not isinstance(ctx.body, list):
            return Miss(f"the body is {json_kind(ctx.body) if ctx.body is not None else 'absent'}, not an array")
        return None, ctx.body
    if not isinstance(ctx.body, dict):
        return Miss("the body is no object")
    arrays = [name for name, value in ctx.body.items() if isinstance(value, list)]
    if len(arrays) != 1:
        return Miss(f"the body has {len(arrays)} array members, not one")
    if params.member_names and arrays[0] not in params.member_names:
        return Miss(f"its array member {arrays[0]!r} is none of {params.member_names}")
    return arrays[0], ctx.body[arrays[0]]


@predicate("body_names_ids", context="bulk-body", params=IdsParams)
def body_names_ids(ctx: BulkBodyContext, params: IdsParams) -> Outcome:
    """The body (or its one array member) is a non-empty array of ids of one JSON kind."""
    found = _array(ctx, params)
    if isinstance(found, Miss):
        return found
    member, items = found
    kinds = {json_kind(item) for item in items}
    if len(kinds) != 1 or not kinds <= set(params.kinds):
        return Miss(f"the array holds {sorted(kinds)}, not ids of one kind of {params.kinds}")
    return Match({"member": member, "kind": kinds.pop(), "count": len(items)})


@predicate("body_names_elements", context="bulk-body", params=PlaceParams)
def body_names_elements(ctx: BulkBodyContext, params: PlaceParams) -> Outcome:
    """The body (or its one array member) is a non-empty array of objects carrying the id field."""
    found = _array(ctx, params)
    if isinstance(found, Miss):
        return found
    member, items = found
    if not all(isinstance(item, dict) and ctx.id_field in item for item in items):
        return Miss(f"not every element is an object carrying {ctx.id_field!r}")
    return Match({"member": member, "kind": None, "count": len(items)})

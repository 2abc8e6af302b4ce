"""Predicates admitting a bulk write's members (seeds: "Bulk writes").

Context ``bulk-member``: one member of a bulk call's body, or of one of its elements, with the
address the body uses. An ids member applies the body's other members to every id, an element
its own members; a root id array updates nothing.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("bulk-member")
class BulkMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    place: Literal["body", "element"] = "body"
    """A member of the body itself, or of one element of its elements array."""
    by: Literal["ids", "elements"]
    entities_member: str | None = None
    """The body member holding the ids or elements (None: they are the body)."""
    id_field: str = "id"


class AddressParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    by: list[Literal["ids", "elements"]] = Field(min_length=1)


@predicate("bulk_member_names_entities", context="bulk-member")
def bulk_member_names_entities(ctx: BulkMemberContext, params: BaseModel) -> Outcome:
    """The body member holding the ids or elements the call names."""
    if ctx.place == "body" and ctx.member == ctx.entities_member:
        return Match({"by": ctx.by})
    return Miss(f"not the member holding the {ctx.by}")


@predicate("bulk_member_is_element_identity", context="bulk-member")
def bulk_member_is_element_identity(ctx: BulkMemberContext, params: BaseModel) -> Outcome:
    """An element's id field: it names the entity the element updates."""
    if ctx.place == "element" and ctx.member == ctx.id_field:
        return Match()
    return Miss(f"not an element's {ctx.id_field!r}")


@predicate("bulk_member_in_element", context="bulk-member")
def bulk_member_in_element(ctx: BulkMemberContext, params: BaseModel) -> Outcome:
    """A member of one of the body's elements."""
    return Match() if ctx.place == "element" else Miss("a member of the body, not of an element")


@predicate("bulk_member_beside_entities", context="bulk-member", params=AddressParams)
def bulk_member_beside_entities(ctx: BulkMemberContext, params: AddressParams) -> Outcome:
    """A body member beside the member holding the entities, when the body names them in one of
    some ways (ids, elements)."""
    if ctx.place != "body" or ctx.entities_member is None or ctx.member == ctx.entities_member:
        return Miss("not a body member beside the entities' member")
    if ctx.by not in params.by:
        return Miss(f"the body names its entities by {ctx.by}, not {'/'.join(params.by)}")
    return Match({"beside": ctx.entities_member})

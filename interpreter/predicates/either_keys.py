"""Predicates on an item path whose one parameter takes either the entity's identity or another
key member (Prefect's ``/api/v2/concurrency_limits/{id_or_name}``): whether the capture proves each
spelling, and how a value tells which one it is.

Context ``item-either-key``: the item tool's successful reads split by the member their answered
entity holds the path value at: the identity or the one other member.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.models import shaped_as
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("item-either-key")
class EitherKeyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    identity: str
    """The member the entity is keyed by (the identity candidate)."""
    member: str
    """The other member some reads named the entity by."""
    identity_values: list[str] = Field(default_factory=list)
    """Path values of the reads whose entity held the value at ``identity``."""
    member_values: list[str] = Field(default_factory=list)
    """Path values of the reads whose entity held the value at ``member`` (and not at ``identity``)."""


class MinEachParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_each: int = Field(ge=1)


class Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    pattern: str
    ignore_case: bool = False
    base64_of: str | None = None
    """The value is also base64 of text matching this whole (a Relay global id: ``Project:1``)."""


class ShapesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    shapes: list[Shape] = Field(min_length=1)


@predicate("either_spelling_read", context="item-either-key", params=MinEachParams)
def either_spelling_read(ctx: EitherKeyContext, params: MinEachParams) -> Outcome:
    """At least ``min_each`` reads named the entity by its identity, and as many by the member."""
    if len(ctx.identity_values) < params.min_each:
        return Miss(f"{len(ctx.identity_values)} read(s) named it by {ctx.identity!r}, fewer than {params.min_each}")
    if len(ctx.member_values) < params.min_each:
        return Miss(f"{len(ctx.member_values)} read(s) named it by {ctx.member!r}, fewer than {params.min_each}")
    return Match({"by_identity": len(ctx.identity_values), "by_member": len(ctx.member_values)})


@predicate("identity_values_shaped", context="item-either-key", params=ShapesParams)
def identity_values_shaped(ctx: EitherKeyContext, params: ShapesParams) -> Outcome:
    """Every identity value has the first of some identifier shapes that no member value has: a
    value of that shape names the identity, any other the member."""
    for shape in params.shapes:
        def shaped(value: str, shape: Shape = shape) -> bool:
            return shaped_as(value, shape.pattern, shape.ignore_case, shape.base64_of)
        if ctx.identity_values and all(shaped(v) for v in ctx.identity_values):
            clash = [v for v in ctx.member_values if shaped(v)]
            if clash:
                return Miss(f"the {ctx.member} value {clash[0]!r} is shaped as a {shape.name} too: a value's shape "
                            "cannot tell which member it names")
            return Match({"shape": shape.name, "pattern": shape.pattern, "ignore_case": shape.ignore_case,
                          "base64_of": shape.base64_of})
    return Miss(f"the {ctx.identity} values share none of the shapes {', '.join(s.name for s in params.shapes)}")

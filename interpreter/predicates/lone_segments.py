"""Predicates on a lone identifier-shaped path value: the one value the capture shows under a
collection path (``/relations/1``, ``/snapshots/67bb06f5-…``), which ``manifest-segments`` alone
keeps literal, since one value does not vary.

Context ``lone-segment``: the value, the segment rule that found it identifier-shaped, what the
successful creates posted to its parent path answered as the identity of what they made, and, for a
token, where the capture shows the application issued it (an earlier answer) or a client sent it as
a credential (a request header).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("lone-segment")
class LoneSegmentContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    value: str
    """The lone value (as the path spells it)."""
    shape_rule: str | None = None
    """The ``manifest-segments`` rule that found it identifier-shaped."""
    created_here: list[str] = Field(default_factory=list)
    """Identity values the successful POSTs to the parent path answered at the top of their answer
    (or of its one envelope member): the ids of what each made there."""
    listed_here: list[str] = Field(default_factory=list)
    """Identity values the successful GETs of the parent path listed (the identity members of the
    objects of its array): the ids of the entities held there."""
    issued_by: int | None = None
    """For a token (its shape rule yields ``token_model``): the ordinal of the first answer, before
    the first call naming the value in its path, whose body or headers carried the value whole (a
    login's token, a signed link on a page)."""
    sent_in_headers: list[str] = Field(default_factory=list)
    """For a token: the request headers (lower case) some call sent the value in, whole."""


class ShapeRulesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    shape_rules: list[str] = Field(min_length=1)


@predicate("lone_value_created_here", context="lone-segment")
def lone_value_created_here(ctx: LoneSegmentContext, params: BaseModel) -> Outcome:
    """A successful POST to the parent path answered the value as the identity of what it made: the
    path is that entity's item path, a value the application gave, not a word of the route."""
    if ctx.value in ctx.created_here:
        return Match({"value": ctx.value, "created": len(ctx.created_here)})
    return Miss(f"no successful POST to its parent path answered {ctx.value!r} as the identity it made"
                + (f" (they answered {', '.join(repr(v) for v in ctx.created_here[:3])})" if ctx.created_here else ""))


@predicate("lone_value_listed_here", context="lone-segment")
def lone_value_listed_here(ctx: LoneSegmentContext, params: BaseModel) -> Outcome:
    """A successful read of the parent path listed the value as an entity's identity: the path is
    that entity's item path (a PATCH of one listed user at /users/{uuid}, never read there)."""
    if ctx.value in ctx.listed_here:
        return Match({"value": ctx.value, "listed": len(ctx.listed_here)})
    return Miss(f"no successful read of its parent path listed {ctx.value!r} as an entity's identity")


@predicate("lone_value_shaped_by", context="lone-segment", params=ShapeRulesParams)
def lone_value_shaped_by(ctx: LoneSegmentContext, params: ShapeRulesParams) -> Outcome:
    """The value was found identifier-shaped by one of the given ``manifest-segments`` rules (an
    integer, a UUID, a token), not by a name-like rule that needs its siblings."""
    if ctx.shape_rule in params.shape_rules:
        return Match({"shape_rule": ctx.shape_rule})
    return Miss(f"shaped by {ctx.shape_rule!r}, none of {', '.join(params.shape_rules)}")


@predicate("lone_value_issued_before", context="lone-segment")
def lone_value_issued_before(ctx: LoneSegmentContext, params: BaseModel) -> Outcome:
    """An answer before the first call naming the value in its path carried it: the application
    issued the token to the client (a login's answer, a signed link on a page), a value it gave and
    not a word of the route."""
    if ctx.issued_by is not None:
        return Match({"value": ctx.value, "answer": ctx.issued_by})
    return Miss(f"no earlier answer carried {ctx.value!r}")


class HeaderNamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    headers: list[str] = Field(min_length=1)
    """Request header names, lower case."""


@predicate("lone_value_sent_in_header", context="lone-segment", params=HeaderNamesParams)
def lone_value_sent_in_header(ctx: LoneSegmentContext, params: HeaderNamesParams) -> Outcome:
    """A call sent the value in one of the given request headers (a credential: Authorization, a
    cookie): a value the client holds, not a word of the route."""
    sent = [name for name in ctx.sent_in_headers if name in params.headers]
    if sent:
        return Match({"value": ctx.value, "headers": sent})
    return Miss(f"no call sent {ctx.value!r} in {', '.join(params.headers)}"
                + (f" (only in {', '.join(ctx.sent_in_headers)})" if ctx.sent_in_headers else ""))

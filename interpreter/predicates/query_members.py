"""Predicates on a member the entities of one type show in some reads only: whether it is the
entity's own or added by the query those reads were sent with (an embed: PocketBase's
``expand=post`` puts the related post under ``expand``; JSON:API's ``include`` alike), or left out
by it (a projection no learned query explains).

Context ``query-member``: what the successful item and list reads of the type show of the member,
split by whether the read was sent with a query.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("query-member")
class QueryMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The member: its name at the top of the entity, or its keys inside it joined with dots
    (``title.raw``, ``attributes.assignedto.username``, ``*`` for any array index)."""
    type: str
    """The entity type whose reads show it."""
    plain_reads: int = 0
    """Reads of the type sent without a query that show at least one entity (for a nested member,
    one holding an object where the member would sit)."""
    plain_showing: int = 0
    """Of those, how many show the member on an entity."""
    query_showing: int = 0
    """Reads sent with a query that show the member on an entity."""
    query_lacking: int = 0
    """Reads sent with a query that leave the member out of an entity a read of it without a query
    shows it on."""
    query_names: list[str] = []
    """The query parameters those reads sent (every one of them, sorted)."""
    query_reshaped: int = 0
    """Reads sent with a query that show the (top-level) member on an entity as an object, or an
    array holding objects, where reads of that entity without a query show it as a scalar or an
    array of scalars (a reference id the query expands into the entity it names: DRF's
    ``?expand=track``)."""
    holders: int = 0
    """Entities (by id) that reads sent with a query show the member on."""
    holders_read_plainly: int = 0
    """Of those, how many a read without a query showed holding the object the member sits in
    (for a top-level member, showing the entity at all)."""


class PlainParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_plain_reads: int = Field(ge=1)
    """Reads without a query showing entities, none with the member, that prove it is not the entity's."""


@predicate("query_member_only_under_query", context="query-member", params=PlainParams)
def query_member_only_under_query(ctx: QueryMemberContext, params: PlainParams) -> Outcome:
    """Only reads sent with a query show the member, while at least ``min_plain_reads`` reads of
    the type without a query show its entities without it."""
    if ctx.query_showing == 0:
        return Miss("no read sent with a query shows it")
    if ctx.plain_showing:
        return Miss(f"{ctx.plain_showing} read(s) without a query show it: the entity's own")
    if ctx.plain_reads < params.min_plain_reads:
        return Miss(f"{ctx.plain_reads} read(s) without a query show the type, fewer than {params.min_plain_reads}")
    return Match({"query_showing": ctx.query_showing, "plain_reads": ctx.plain_reads,
                  "query": ctx.query_names})


class UnreadParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_plain_reads: int = Field(ge=1)
    """Reads without a query showing other entities holding the member's object without the member:
    the object is the entity's own (not one the query adds), while the member is in question."""
    max_read_plainly: int = Field(ge=0)
    """Holders a read without a query showed holding the member's object, at most: with more, such a
    read shows whether the object lacks the member."""


@predicate("query_member_in_an_object_unread_without_query", context="query-member", params=UnreadParams)
def query_member_in_an_object_unread_without_query(ctx: QueryMemberContext, params: UnreadParams) -> Outcome:
    """A member nested in an object (its name holds a dot, no ``*``: no array element) that only
    reads sent with a query show,
    on entities of which at most ``max_read_plainly`` were shown holding that object by a read
    without one: the reads without a query show other entities' objects only, so nothing tells
    whether these entities' objects hold the member of their own."""
    keys = ctx.name.split(".")
    if len(keys) == 1:
        return Miss("a top-level member: leaving it out leaves no object partly")
    if "*" in keys:
        return Miss("a member of array elements: an element list is no one object an entity holds")
    if ctx.query_showing == 0:
        return Miss("no read sent with a query shows it")
    if ctx.plain_showing:
        return Miss(f"{ctx.plain_showing} read(s) without a query show it: the entity's own")
    if ctx.plain_reads < params.min_plain_reads:
        return Miss(f"{ctx.plain_reads} read(s) without a query show the object it sits in, fewer than "
                    f"{params.min_plain_reads}: the object is the query's")
    if ctx.holders_read_plainly > params.max_read_plainly:
        return Miss(f"{ctx.holders_read_plainly} of the {ctx.holders} entities showing it under a query were "
                    f"read without one holding its object, more than {params.max_read_plainly}")
    return Match({"holders": ctx.holders, "holders_read_plainly": ctx.holders_read_plainly,
                  "query": ctx.query_names})


class LeftOutParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_plain_showing: int = Field(ge=1)
    """Reads without a query showing the member, which prove the entity holds it."""


@predicate("query_member_left_out_under_query", context="query-member", params=LeftOutParams)
def query_member_left_out_under_query(ctx: QueryMemberContext, params: LeftOutParams) -> Outcome:
    """A read sent with a query leaves the member out of an entity that reads of it without a query
    show it on, and at least ``min_plain_showing`` such reads show it."""
    if ctx.query_lacking == 0:
        return Miss("no read sent with a query leaves it out of an entity that holds it")
    if ctx.plain_showing < params.min_plain_showing:
        return Miss(f"{ctx.plain_showing} read(s) without a query show it, fewer than {params.min_plain_showing}")
    return Match({"query_lacking": ctx.query_lacking, "plain_showing": ctx.plain_showing, "query": ctx.query_names})


class ReshapedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_plain_showing: int = Field(ge=1)
    """Reads without a query showing the member, which prove the shape the entity holds it in."""


@predicate("query_member_reshaped_under_query", context="query-member", params=ReshapedParams)
def query_member_reshaped_under_query(ctx: QueryMemberContext, params: ReshapedParams) -> Outcome:
    """A read sent with a query shows the member as an object (or objects) on an entity that reads
    without a query show holding a scalar (or scalars) there, and at least ``min_plain_showing``
    such reads show it."""
    if ctx.query_reshaped == 0:
        return Miss("no read sent with a query shows it in another shape than reads without one")
    if ctx.plain_showing < params.min_plain_showing:
        return Miss(f"{ctx.plain_showing} read(s) without a query show it, fewer than {params.min_plain_showing}")
    return Match({"query_reshaped": ctx.query_reshaped, "plain_showing": ctx.plain_showing,
                  "query": ctx.query_names})

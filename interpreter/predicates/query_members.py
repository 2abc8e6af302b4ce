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

"""Predicates on a list view's unqueried reads in the gate's replay (``view-default-page-caps``).

Context ``default-page-evidence``: for one list view, the number of members each unqueried read
of a whole line listed while the replayed state held more than that (``capped``: the reads that
may show a default page size), and the most members any unqueried read of it listed.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("default-page-evidence")
class DefaultPageContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    capped: list[int]
    """Per unqueried read listing fewer members than the state held: how many it listed."""
    largest_listed: int
    """The most members any unqueried read of the view listed."""


class ReadsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_reads: int = Field(ge=1)


class SizeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_size: int = Field(ge=1)


@predicate("page_cap_one_size", context="default-page-evidence")
def page_cap_one_size(ctx: DefaultPageContext, params: BaseModel) -> Outcome:
    """Every read listing fewer members than the state held listed the same number."""
    sizes = sorted(set(ctx.capped))
    if not sizes:
        return Miss("no unqueried read listed fewer members than the state held")
    if len(sizes) > 1:
        return Miss(f"reads listing fewer members than the state held listed {sizes}: no one page size")
    return Match({"size": sizes[0]})


@predicate("page_cap_seen_in_reads", context="default-page-evidence", params=ReadsParams)
def page_cap_seen_in_reads(ctx: DefaultPageContext, params: ReadsParams) -> Outcome:
    """At least some reads listed fewer members than the state held (one may be an unmodelled change)."""
    if len(ctx.capped) < params.min_reads:
        return Miss(f"{len(ctx.capped)} read(s) listed fewer members than the state held, fewer than "
                    f"{params.min_reads}")
    return Match({"reads": len(ctx.capped)})


@predicate("page_cap_never_exceeded", context="default-page-evidence")
def page_cap_never_exceeded(ctx: DefaultPageContext, params: BaseModel) -> Outcome:
    """No unqueried read listed more members than the capped reads did."""
    size = max(ctx.capped, default=0)
    if ctx.largest_listed > size:
        return Miss(f"an unqueried read listed {ctx.largest_listed} members, more than the {size} of the others")
    return Match({"largest_listed": ctx.largest_listed})


@predicate("page_cap_size_at_least", context="default-page-evidence", params=SizeParams)
def page_cap_size_at_least(ctx: DefaultPageContext, params: SizeParams) -> Outcome:
    """The page holds at least some members (a page of one reads as a singleton, not a page)."""
    size = max(ctx.capped, default=0)
    if size < params.min_size:
        return Miss(f"a page of {size} is below {params.min_size}")
    return Match({"size": size})

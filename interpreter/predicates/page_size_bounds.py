"""Predicates on a list read refused while it named a page size (``view-page-size-bounds``).

Context ``page-size-refusal``: one recorded read answered with a client error whose query names
a parameter with the page-size role: its status, the parameter's value as sent (decoded), and
the integer values successful reads of the same parameter sent anywhere in the capture.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("page-size-refusal")
class PageSizeRefusalContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    status: int
    value: str
    accepted: list[int]
    """The integer values successful reads of the parameter sent."""


class StatusParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)


@predicate("page_size_refused_with", context="page-size-refusal", params=StatusParams)
def page_size_refused_with(ctx: PageSizeRefusalContext, params: StatusParams) -> Outcome:
    """The read was answered with one of some client-error statuses."""
    if ctx.status in params.statuses:
        return Match({"status": ctx.status})
    return Miss(f"answered {ctx.status}, not {', '.join(map(str, params.statuses))}")


@predicate("page_size_beyond_accepted", context="page-size-refusal")
def page_size_beyond_accepted(ctx: PageSizeRefusalContext, params: BaseModel) -> Outcome:
    """The refused value is an integer above every accepted one or below every accepted one, so
    the refusal says the application bounds the size (not why another member was refused)."""
    try:
        value = int(ctx.value.strip())
    except ValueError:
        return Miss(f"{ctx.value!r} is no integer: a refusal of its spelling, not of its size")
    if not ctx.accepted:
        return Miss("no successful read sent the parameter: nothing shows which sizes are answered")
    low, high = min(ctx.accepted), max(ctx.accepted)
    if low <= value <= high:
        return Miss(f"{value} lies within the accepted sizes {low}-{high}: the refusal was for something else")
    return Match({"refused": value, "accepted": [low, high]})

"""Predicates on a write no built plan models whose path alone would reach every held entity of a
collection (at or above its path, or below an item path naming no held entity).

Context ``gate-reach``: the call's method and status, how many entities the collection holds, the
held ids the call names anywhere in its body, query or answer (the ones it may have touched though
its path names none of them), and whether its request body declared a JSON media type and did not
parse.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("gate-reach")
class GateReachContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str
    status: int
    held: int = Field(ge=0)
    """How many entities the reached collection holds."""
    named: tuple[str, ...] = ()
    """The held ids the call names as a value anywhere in its body, query or answer."""
    body_unparsed: bool = False
    """The request declared a JSON media type and its body did not parse as JSON."""
    failed_create: bool = False
    """The call is one of a tool whose built plan is a create (its successful calls made new
    entities at the collection), answered with an error status."""


class StatusParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: tuple[int, ...] = Field(min_length=1)


@predicate("reach_answered_created", context="gate-reach", params=StatusParams)
def reach_answered_created(ctx: GateReachContext, params: StatusParams) -> Outcome:
    """The call answered one of ``statuses`` (201 Created: it made new resources, RFC 9110
    15.3.2), so what it made is new; a held entity it changed too it would name (an id its body
    sends, as an upsert's row or a copy's source does, or its answer shows)."""
    if ctx.status not in params.statuses:
        return Miss(f"answered {ctx.status}, not {'/'.join(str(s) for s in params.statuses)}")
    return Match({"status": ctx.status, "named": list(ctx.named), "not_reached": ctx.held - len(ctx.named)})


class StatusRangeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    low: int = Field(ge=100, le=599)
    high: int = Field(ge=100, le=599)


@predicate("reach_failed_create", context="gate-reach", params=StatusRangeParams)
def reach_failed_create(ctx: GateReachContext, params: StatusRangeParams) -> Outcome:
    """A call of a create tool (its successful calls made new entities) answered a status from
    ``low`` to ``high``: at most it made a new entity, as its successful calls do; a held entity it
    changed too it would name (an id or a string of theirs its body sends, as a reference does)."""
    if not ctx.failed_create:
        return Miss("its tool's built plan is no create, or the call succeeded")
    if not params.low <= ctx.status <= params.high:
        return Miss(f"answered {ctx.status}, not {params.low}-{params.high}")
    return Match({"status": ctx.status, "named": list(ctx.named), "not_reached": ctx.held - len(ctx.named)})


@predicate("reach_body_unparsed", context="gate-reach", params=StatusRangeParams)
def reach_body_unparsed(ctx: GateReachContext, params: StatusRangeParams) -> Outcome:
    """The call's body declared JSON but is none, and it was refused with a status from ``low`` to
    ``high``: a request whose body cannot be read is turned away before anything acts on what it
    asks (a body parser answers before any handler runs), so what it may have touched it names in
    its query or answer (its body names nothing)."""
    if not ctx.body_unparsed:
        return Miss("its request body parsed, or declared no JSON media type")
    if not params.low <= ctx.status <= params.high:
        return Miss(f"answered {ctx.status}, not {params.low}-{params.high}")
    return Match({"status": ctx.status, "named": list(ctx.named), "not_reached": ctx.held - len(ctx.named)})

"""Predicates on a write no built plan models whose path alone would reach every held entity of a
collection (at or above its path, or below an item path naming no held entity).

Context ``gate-reach``: the call's method and status, how many entities the collection holds, and
the held ids the call names anywhere in its body, query or answer (the ones it may have touched
though its path names none of them).
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

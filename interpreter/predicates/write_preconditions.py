"""Predicates on the request headers a write tool's successful calls sent (context
``write-precondition``): a conditional header (``If-Match`` naming the ETag a read answered)
makes the application check the entity's version before it writes, which a plan does not model.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("write-precondition")
class WritePreconditionContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    calls: int = 0
    """How many successful calls the tool recorded."""
    sent: dict[str, list[int]] = Field(default_factory=dict)
    """Request header names (lower case) the tool's successful calls sent, with those calls' records."""


class HeaderNamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Header names, matched case-insensitively."""


@predicate("every_call_sent_precondition_header", context="write-precondition", params=HeaderNamesParams)
def every_call_sent_precondition_header(ctx: WritePreconditionContext, params: HeaderNamesParams) -> Outcome:
    """Every successful call of the tool sent one of the conditional headers (the application may
    require it: no recorded call shows it writing without one)."""
    for name in (n.lower() for n in params.names):
        sent = ctx.sent.get(name, [])
        if sent and len(set(sent)) >= ctx.calls:
            return Match({"header": name, "records": sorted(set(sent))[:3]})
        if sent:
            return Miss(f"{len(set(sent))} of {ctx.calls} successful calls sent {name}: the others wrote without it")
    return Miss(f"no call sent {', '.join(params.names)}")

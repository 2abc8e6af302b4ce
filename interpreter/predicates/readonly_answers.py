"""Read-only POST way 1: every successful call answers as the GET of its path did just before.

Context ``readonly-ways``. A status lookup that posts the jobs it names answers what a GET
of the same path answered: the call shows state and changes none. Each call carries the
successful GET of its path that finished last before it began, and the writes that may fall
between the two (chosen by the builder, since what counts as a write depends on which tools
are still taken to be read-only). Answers are compared as JSON by value.
"""

from __future__ import annotations

from pydantic import BaseModel

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .readonly_contexts import WaysContext, same_body


@predicate("calls_answer_as_prior_get", context="readonly-ways")
def calls_answer_as_prior_get(ctx: WaysContext, params: BaseModel) -> Outcome:
    """Every successful call (at least one) answers as the successful GET of its path that
    finished last before it began, with no write between."""
    successful = [call for call in ctx.calls if call.succeeded]
    if not successful:
        return Miss("no call succeeded")
    pairs = []
    for call in successful:
        get = call.prior_get
        if get is None:
            return Miss(f"call #{call.ordinal}: no successful GET of its path finished before it began")
        if call.writes_since_prior_get:
            return Miss(f"call #{call.ordinal}: write #{call.writes_since_prior_get[0]} may fall between "
                        f"GET #{get.ordinal} and the call")
        if not same_body(call.response_kind, call.response, get.body_kind, get.body):
            return Miss(f"call #{call.ordinal} answers otherwise than GET #{get.ordinal}")
        pairs.append([call.ordinal, get.ordinal])
    return Match({"calls_and_gets": pairs})

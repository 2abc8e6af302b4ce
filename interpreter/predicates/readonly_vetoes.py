"""Read-only POST vetoes: what keeps a tool a write although a way says it only reads.

Context ``readonly-vetoes``. A call that was redirected or went unanswered shows nothing of
what it did; a call answered 201 Created says itself that it made something. A related GET line that reads differently just before and just after a call,
or finds its entity on one side only, shows the call changed something, provided no other
write falls between the two reads (the builder lists those; the calls of tools still taken
to be read-only are no writes there).

Only answers that show state are compared: two successful reads by status and body (JSON by
value), or a successful read against an absence. Any other answer (401, 403, a 5xx, a
redirect) shows neither state, so a pair holding one is passed over.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .readonly_contexts import Observation, VetoesContext, same_body


class AbsenceParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    absent_statuses: list[int] = Field(min_length=1)
    """Statuses of a read that finds no entity (400, 404, 410)."""


@predicate("some_call_redirected_or_unanswered", context="readonly-vetoes")
def some_call_redirected_or_unanswered(ctx: VetoesContext, params: BaseModel) -> Outcome:
    """A call of the tool was redirected (3xx) or went unanswered (status 0)."""
    redirected = [call.ordinal for call in ctx.calls if call.redirected]
    unanswered = [call.ordinal for call in ctx.calls if call.status == 0]
    if redirected or unanswered:
        return Match({"redirected": redirected, "unanswered": unanswered})
    return Miss(f"all {len(ctx.calls)} calls were answered without a redirect")


class StatusParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """Statuses by which an application says the call made something (201 Created)."""


@predicate("some_call_answered_status", context="readonly-vetoes", params=StatusParams)
def some_call_answered_status(ctx: VetoesContext, params: StatusParams) -> Outcome:
    """A call of the tool was answered with one of ``statuses``: the application itself says it
    made a resource, whatever words the path holds (a collection named ``entry_list``)."""
    created = [call.ordinal for call in ctx.calls if call.status in params.statuses]
    if created:
        return Match({"calls": created})
    return Miss(f"none of {len(ctx.calls)} calls was answered {', '.join(map(str, params.statuses))}")


@predicate("related_read_changed", context="readonly-vetoes")
def related_read_changed(ctx: VetoesContext, params: BaseModel) -> Outcome:
    """A related GET line answered successfully just before and just after a call, differently,
    with no other write between."""
    compared = 0
    for obs in _clean(ctx.observations):
        if obs.before.succeeded and obs.after.succeeded:
            compared += 1
            if obs.before.status != obs.after.status or not same_body(
                    obs.before.body_kind, obs.before.body, obs.after.body_kind, obs.after.body):
                return Match(_evidence(obs))
    return Miss(_nothing_shown(ctx, compared, "reads the same on both sides"))


@predicate("related_entity_on_one_side", context="readonly-vetoes", params=AbsenceParams)
def related_entity_on_one_side(ctx: VetoesContext, params: AbsenceParams) -> Outcome:
    """A related GET line finds its entity on one side of a call only (an absence status on the
    other), with no other write between."""
    compared = 0
    for obs in _clean(ctx.observations):
        before_absent = obs.before.status in params.absent_statuses
        after_absent = obs.after.status in params.absent_statuses
        if (obs.before.succeeded or before_absent) and (obs.after.succeeded or after_absent):
            compared += 1
            if before_absent != after_absent:
                return Match(_evidence(obs))
    return Miss(_nothing_shown(ctx, compared, "finds or misses its entity on both sides alike"))


def _clean(observations: list[Observation]) -> list[Observation]:
    """The pairs with no other write between: only they can show what the call did."""
    return [obs for obs in observations if not obs.writes_between]


def _evidence(obs: Observation) -> dict:
    return {"call": obs.call, "line": obs.line, "before": obs.before.ordinal, "after": obs.after.ordinal,
            "statuses": [obs.before.status, obs.after.status]}


def _nothing_shown(ctx: VetoesContext, compared: int, same: str) -> str:
    spoiled = len(ctx.observations) - len(_clean(ctx.observations))
    if not ctx.observations:
        return "no related GET line was read just before and just after a call"
    text = f"{compared} related read pair(s) compared; each {same}" if compared else "no related read pair compared"
    return text + (f" ({spoiled} pair(s) had another write between)" if spoiled else "")

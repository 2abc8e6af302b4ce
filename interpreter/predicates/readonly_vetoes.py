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


class NewIdentityParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    credential_members: list[str] = Field(min_length=1)
    """Members that make an answer a session's ({"user": {"id": …}, "access_token": …}): a login
    answering the person it signed in, read after it, made nothing; the session ways judge it."""


@predicate("answered_identity_read_after", context="readonly-vetoes", params=NewIdentityParams)
def answered_identity_read_after(ctx: VetoesContext, params: NewIdentityParams) -> Outcome:
    """A successful call answered a value (a member of its answer object, or of an object one member
    deep) that nothing before it showed at the call's path (no read of the path plus that value, no
    read of the path listing it), and a later successful GET of the call's path plus that value
    shows it: the call made an entity of the collection it posted to, whatever status it answered
    (a create answered 200 at a path ending in a query word, /entry_list)."""
    tried = 0
    for call in ctx.calls:
        if not call.succeeded or not isinstance(call.answer, dict):
            continue
        objects = _answer_objects(call.answer)
        credentials = sorted({name for obj in objects for name in obj} & set(params.credential_members))
        if credentials:
            continue  # a session's answer
        tried += 1
        for member, value in _scalars(objects):
            later = next((read for read in call.item_reads if read.side == "after" and read.succeeded
                          and read.segment == value and value in dict(_scalars(_answer_objects(read.body))).values()
                          ), None)
            if later is None or _shown_before(call, value):
                continue
            return Match({"call": call.ordinal, "member": member, "identity": value, "read": later.ordinal})
    if not tried:
        return Miss("no successful call answered an object other than a session's")
    return Miss(f"{tried} call(s) answered an object; none answered an identity new at its path that a later "
                "read of the path plus it shows")


def _answer_objects(value: object) -> list[dict]:
    """An answer object and the objects one member deep in it (an envelope's entity)."""
    if not isinstance(value, dict):
        return []
    return [value] + [inner for inner in value.values() if isinstance(inner, dict)]


def _scalars(objects: list[dict]) -> list[tuple[str, str]]:
    """The text and number members of some objects as (name, text), booleans and null left out."""
    return [(name, str(value)) for obj in objects for name, value in obj.items()
            if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value)]


def _shown_before(call: object, value: str) -> bool:
    """A read before the call showed the value at its path: a successful read of the path plus it,
    or a read of the path holding an object (at the top, in a list, one member deep) carrying it."""
    if any(read.side == "before" and read.succeeded and read.segment == value for read in call.item_reads):
        return True
    for read in call.reads_before:
        body = read.body
        rows = body if isinstance(body, list) else [body] + [
            row for inner in (body.values() if isinstance(body, dict) else ())
            for row in (inner if isinstance(inner, list) else [inner])]
        if any(value == text for row in rows for _, text in _scalars(_answer_objects(row))):
            return True
    return False

"""Predicates on how the application answered an item write (a DELETE) of an id it did not hold.

Context ``absence-write``: one recorded successful item write: its method, status, what its body
holds, and what the capture shows of the id its path names (removed by a successful delete before
the call began with nothing naming it since, never shown, or shown). Such a call is the
application's own answer to writing a missing entity (Strapi 5 deletes a missing document with a
204), which serving then gives instead of an item view's 404.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("absence-write")
class AbsenceWriteContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str
    status: int
    body: str
    """What the body holds: null, empty-object, zero-count (an object counting nothing:
    ``{"raw": [], "affected": 0}``), object, array, scalar, text, none (no body)."""
    id_history: str
    """deleted, never-shown or shown (as ``view-absence-answers`` reads an item read's id)."""


class WriteMethodsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    methods: list[str] = Field(min_length=1)


class WriteHistoryParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    histories: list[str] = Field(min_length=1)


class SuccessBodiesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    bodies: list[str] = Field(min_length=1)
    """What a 2xx body may hold: none, null, empty-object, zero-count, ..."""


class StatusesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)


@predicate("absent_write_status_in", context="absence-write", params=StatusesParams)
def absent_write_status_in(ctx: AbsenceWriteContext, params: StatusesParams) -> Outcome:
    """The write answered one of some statuses."""
    if ctx.status in params.statuses:
        return Match({"status": ctx.status})
    return Miss(f"answered {ctx.status}, not {' or '.join(str(s) for s in params.statuses)}")


@predicate("absent_write_method_in", context="absence-write", params=WriteMethodsParams)
def absent_write_method_in(ctx: AbsenceWriteContext, params: WriteMethodsParams) -> Outcome:
    """The write's method is one of some methods."""
    if ctx.method.upper() in {m.upper() for m in params.methods}:
        return Match({"method": ctx.method})
    return Miss(f"method {ctx.method}, not {'/'.join(params.methods)}")


@predicate("absent_write_id_history", context="absence-write", params=WriteHistoryParams)
def absent_write_id_history(ctx: AbsenceWriteContext, params: WriteHistoryParams) -> Outcome:
    """What the capture shows of the id the write names is one of some histories."""
    if ctx.id_history in params.histories:
        return Match({"id_history": ctx.id_history})
    return Miss(f"the id is {ctx.id_history}, not {' or '.join(params.histories)}")


@predicate("absent_write_answers_success", context="absence-write", params=SuccessBodiesParams)
def absent_write_answers_success(ctx: AbsenceWriteContext, params: SuccessBodiesParams) -> Outcome:
    """The write answered a 2xx whose body holds no entity."""
    if 200 <= ctx.status < 300 and ctx.body in params.bodies:
        return Match({"status": ctx.status, "body": ctx.body})
    return Miss(f"answered {ctx.status} with {ctx.body}, not a 2xx with {' or '.join(params.bodies)}")

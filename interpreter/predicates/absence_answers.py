"""Predicates on how the application answered an item read of an id it did not hold.

Context ``absence-read``: one recorded item read that did not show its entity: its status,
what its body holds, and what the capture shows of the id the path names (removed by a
successful delete before the read began, never shown by any successful answer, shown, or
unknown).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("absence-read")
class AbsenceReadContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    status: int
    body: str
    """What the body holds: null, empty-object, object, array, scalar, text, none (no body); an
    object whose envelope member holds an empty array where the item view reads its entity is
    empty-array."""
    id_history: str
    """deleted (a successful delete removed it before the read began, nothing named it since),
    never-shown (no successful answer or write of the capture showed it), shown, or unknown."""
    parent_shown: bool = True
    """Whether any successful call of the capture named a path at or below the read's parent (its
    path without the id): false under a parent the application never answered (a collection it does
    not have), whose absence answer is about that parent, not about the id."""


class HistoryParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    histories: list[str] = Field(min_length=1)


class NoEntityParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """Error statuses that answer an absence (the body is not looked at)."""
    success_bodies: list[str] = Field(default_factory=list)
    """What a 2xx body may hold to answer an absence (null, empty-object, empty-array)."""


@predicate("read_id_history", context="absence-read", params=HistoryParams)
def read_id_history(ctx: AbsenceReadContext, params: HistoryParams) -> Outcome:
    """What the capture shows of the id the read names is one of some histories."""
    if ctx.id_history in params.histories:
        return Match({"id_history": ctx.id_history})
    return Miss(f"the id is {ctx.id_history}, not {' or '.join(params.histories)}")


@predicate("read_parent_never_shown", context="absence-read")
def read_parent_never_shown(ctx: AbsenceReadContext, params: BaseModel) -> Outcome:
    """No successful call of the capture named a path at or below the read's parent."""
    if not ctx.parent_shown:
        return Match({"parent_shown": False})
    return Miss("a successful call named a path at or below the read's parent")


@predicate("read_answers_no_entity", context="absence-read", params=NoEntityParams)
def read_answers_no_entity(ctx: AbsenceReadContext, params: NoEntityParams) -> Outcome:
    """The read answered one of some error statuses, or a 2xx whose body holds no entity
    (null, an empty object)."""
    if ctx.status in params.statuses:
        return Match({"status": ctx.status, "body": ctx.body})
    if 200 <= ctx.status < 300 and ctx.body in params.success_bodies:
        return Match({"status": ctx.status, "body": ctx.body})
    bodies = f" or a 2xx with {' or '.join(params.success_bodies)}" if params.success_bodies else ""
    return Miss(f"answered {ctx.status} with {ctx.body}, not {', '.join(map(str, params.statuses))}{bodies}")

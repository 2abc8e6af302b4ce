"""Predicates on an item read the application refused for its id's shape (``view-malformed-ids``).

Context ``malformed-id-read``: one recorded item read answered with an error that is no absence
the gate accepts: its status, the shape of the id its path names (``id_shape``: integer, uuid,
else length and character classes), the shapes of the ids the type holds (the initial state and
the tool's successful reads) and of the ids its learned absence answer was recorded for.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("malformed-id-read")
class MalformedIdReadContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    status: int
    id_shape: str
    held_shapes: list[str]
    """Shapes of the ids the type holds in the initial state and the tool answered with success."""
    absence_shapes: list[str]
    """Shapes of the ids the tool's learned absence answer was recorded for."""


class StatusParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)


@predicate("read_refused_with", context="malformed-id-read", params=StatusParams)
def read_refused_with(ctx: MalformedIdReadContext, params: StatusParams) -> Outcome:
    """The read was answered with one of some client-error statuses."""
    if ctx.status in params.statuses:
        return Match({"status": ctx.status})
    return Miss(f"answered {ctx.status}, not {', '.join(map(str, params.statuses))}")


@predicate("id_shaped_unlike_held", context="malformed-id-read")
def id_shaped_unlike_held(ctx: MalformedIdReadContext, params: BaseModel) -> Outcome:
    """The id's shape is none of the held ids' shapes (at least one is known) nor of the learned
    absence's ids."""
    if not ctx.held_shapes:
        return Miss("the capture shows no held id of the type to compare its shape with")
    if ctx.id_shape in ctx.held_shapes:
        return Miss(f"the id is shaped as held ids are ({ctx.id_shape})")
    if ctx.id_shape in ctx.absence_shapes:
        return Miss(f"the id is shaped as the learned absence's ids are ({ctx.id_shape})")
    return Match({"id_shape": ctx.id_shape, "held_shapes": sorted(ctx.held_shapes),
                  "absence_shapes": sorted(ctx.absence_shapes)})

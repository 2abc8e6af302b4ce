"""Predicates on a member an update's answer shows beside the entity that the entity does not
hold: whether the application adds it, with one value, to every write answer of the type.

Context ``answer-addition``: the member, whether any read of the type shows it, how many
recorded write answers show an entity of the type, and the member's value in each that shows it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("answer-addition")
class AnswerAdditionContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    read_shows: bool
    """Some item or list read of the type shows the member on an entity."""
    answers: int
    """The recorded write answers showing an entity of the type (creates' and updates')."""
    values: list[Any]
    """The member's value in each of those answers that shows it."""


class MinAnswersParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_answers: int = Field(ge=1)


@predicate("answer_member_constant_unread", context="answer-addition", params=MinAnswersParams)
def answer_member_constant_unread(ctx: AnswerAdditionContext, params: MinAnswersParams) -> Outcome:
    """No read shows the member; every write answer of the type shows it, at least
    ``min_answers`` of them, all with the first one's value."""
    if ctx.read_shows:
        return Miss(f"a read of the type shows {ctx.member}: a field of the entity, not an addition")
    if len(ctx.values) < ctx.answers:
        return Miss(f"{len(ctx.values)} of {ctx.answers} write answers show {ctx.member}")
    if ctx.answers < params.min_answers:
        return Miss(f"{ctx.answers} write answers show an entity of the type, fewer than {params.min_answers}")
    differing = [v for v in ctx.values if not same_json(v, ctx.values[0])]
    if differing:
        return Miss(f"an answer shows {ctx.member} with another value ({differing[0]!r} beside {ctx.values[0]!r})")
    return Match({"answers": ctx.answers})

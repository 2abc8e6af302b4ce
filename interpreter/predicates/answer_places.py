"""Predicates on a place in a write's answer where the written entity may sit (the
``write-answer-places`` table: in which order a create's or an update's answer is searched for
the entity its identity names).

Context ``answer-place``: the place's kind (the answer itself, an object under one of its members,
the one object of a one-element array under one) and whether it is where the item read that
showed the entity found it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("answer-place")
class AnswerPlaceContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["root", "member", "singleton"]
    """The answer itself, an object under one of its members, or the one object of a one-element
    array under one."""
    item_read_place: bool = False
    """The item read that showed the entity found it here (its view's locator)."""


class PlaceKindParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: tuple[Literal["root", "member", "singleton"], ...] = Field(min_length=1)


@predicate("place_is_item_read_place", context="answer-place", params=NoParams)
def place_is_item_read_place(ctx: AnswerPlaceContext, params: NoParams) -> Outcome:
    """The place is where the item read that showed the entity found it: the application answers
    the entity there, whatever else the answer carries beside it."""
    if not ctx.item_read_place:
        return Miss("not where the item read found the entity")
    return Match({"kind": ctx.kind})


@predicate("place_kind_is", context="answer-place", params=PlaceKindParams)
def place_kind_is(ctx: AnswerPlaceContext, params: PlaceKindParams) -> Outcome:
    """The place is of one of ``kinds``."""
    if ctx.kind not in params.kinds:
        return Miss(f"a {ctx.kind} place, not {'/'.join(params.kinds)}")
    return Match({"kind": ctx.kind})

"""Predicates on a field an update's exemplar answered that another recorded answer of the tool
left out: whether the application answers it only for an entity holding it.

Context ``answer-held-only``: the field, and each other successful call of the tool answered with
its entity: the fields that answer showed and those the entity held just before the call (its
latest read; None when no read showed it, or writes answered without it since).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class AnsweredCall(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    answered: list[str]
    """The fields the call's answer showed of its entity."""
    held: list[str] | None = None
    """The fields the entity held just before the call (None: unknown)."""


@context_model("answer-held-only")
class HeldOnlyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    others: list[AnsweredCall] = Field(default_factory=list)


@predicate("answer_field_left_out_where_unheld", context="answer-held-only")
def answer_field_left_out_where_unheld(ctx: HeldOnlyContext, params: BaseModel) -> Outcome:
    """Every other answer that left the field out was of an entity that did not hold it (one at
    least): the application answers the field only for an entity holding it. An answer leaving out
    a field its entity held shows a projection the field may be left out of, which this does not
    explain."""
    leaving = [o for o in ctx.others if ctx.field not in o.answered]
    if not leaving:
        return Miss(f"every other answer shows {ctx.field}")
    unknown = [o.ordinal for o in leaving if o.held is None]
    if unknown:
        return Miss(f"record {unknown[0]} left {ctx.field} out, and no read showed what its entity held before it")
    held = [o.ordinal for o in leaving if ctx.field in o.held]
    if held:
        return Miss(f"record {held[0]} left {ctx.field} out of an entity that held it")
    return Match({"left_out_by": [o.ordinal for o in leaving]})

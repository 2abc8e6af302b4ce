"""Predicates on a delete's or an update's answer that shows its entity without some members the
entity held.

Context ``answer-omission``: the members of the entity a delete's or an update's exemplar answered
(located by its identity), the members its latest item read before the call showed, and, for an
update, the members the call sent.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("answer-omission")
class AnswerOmissionContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    answered: list[str]
    """The members of the entity the answer shows."""
    held: list[str]
    """The members the entity's latest item read before the call showed; empty when none did."""
    effect: str = "delete"
    """The write's effect: delete, update or document-write."""
    sent: list[str] = Field(default_factory=list)
    """The members the exemplar's body sent (an update's)."""


class EffectsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    effects: list[str] = Field(min_length=1)


@predicate("answer_omission_effect_in", context="answer-omission", params=EffectsParams)
def answer_omission_effect_in(ctx: AnswerOmissionContext, params: EffectsParams) -> Outcome:
    """The write's effect is one of some effects."""
    if ctx.effect in params.effects:
        return Match({"effect": ctx.effect})
    return Miss(f"effect {ctx.effect}, not {'/'.join(params.effects)}")


@predicate("answer_shows_every_sent", context="answer-omission")
def answer_shows_every_sent(ctx: AnswerOmissionContext, params: BaseModel) -> Outcome:
    """The answer shows every member the call sent, so what it leaves out is none of the call's
    (an answer of the members sent alone is a projection another call's members would change)."""
    unshown = sorted(set(ctx.sent) - set(ctx.answered))
    if unshown:
        return Miss(f"the answer leaves out {', '.join(unshown)}, which the call sent")
    return Match({"sent": sorted(ctx.sent)})


class LeavesOutParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_shown: int = Field(ge=1)
    """How many members the entity held the answer must show besides those it leaves out."""


@predicate("answer_leaves_out_held", context="answer-omission", params=LeavesOutParams)
def answer_leaves_out_held(ctx: AnswerOmissionContext, params: LeavesOutParams) -> Outcome:
    """The answer shows only members the entity held, at least ``min_shown`` of them, and leaves
    out one or more others it held."""
    if not ctx.held:
        return Miss("no item read showed the entity before the call")
    held = set(ctx.held)
    foreign = sorted(set(ctx.answered) - held)
    if foreign:
        return Miss(f"the answer shows {', '.join(foreign)}, which the entity did not hold")
    shown = [name for name in ctx.answered if name in held]
    if len(shown) < params.min_shown:
        return Miss(f"the answer shows {len(shown)} of the entity's members, fewer than {params.min_shown}")
    left_out = sorted(held - set(ctx.answered))
    if not left_out:
        return Miss("the answer shows every member the entity held")
    return Match({"left_out": left_out, "shown": len(shown)})

"""Predicates on one top-level member of a capture's JSON answers (context ``answer-member``, table
``view-answer-members``): whether it is a value of each answer (privacyIDEA's epoch ``time`` and
RSA-PSS ``signature`` in every answer's envelope) rather than state, so that every read view whose
answers carry it leaves it out of the comparison, as a view that saw it change between two answers
of one call already does.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("answer-member")
class AnswerMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    """The member's name, at the top of the answers' JSON objects."""
    answers: int
    """The capture's JSON object answers (primary origin, any status)."""
    carried: int
    """How many of them carry the member."""
    distinct: int
    """How many different values they show."""
    changed_without_write: bool = False
    """Two answers of one request (method, path, query), no write between them, show it otherwise."""


class ShareParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_share: float = Field(gt=0, le=1)
    """The least share of the capture's JSON object answers that must carry the member (a health
    check may answer outside the envelope)."""


@predicate("answer_member_in_nearly_every_answer", context="answer-member", params=ShareParams)
def answer_member_in_nearly_every_answer(ctx: AnswerMemberContext, params: ShareParams) -> Outcome:
    """At least ``min_share`` of the capture's JSON object answers carry the member (two at least)."""
    if ctx.carried >= 2 and ctx.carried >= params.min_share * ctx.answers:
        return Match({"member": ctx.member, "answers": ctx.answers, "carried": ctx.carried})
    return Miss(f"{ctx.carried} of {ctx.answers} JSON object answers carry {ctx.member!r}, "
                f"fewer than {params.min_share:.0%}")


@predicate("answer_member_never_repeats", context="answer-member", params=NoParams)
def answer_member_never_repeats(ctx: AnswerMemberContext, params: NoParams) -> Outcome:
    """No two answers show the member with one value."""
    if ctx.carried >= 2 and ctx.distinct == ctx.carried:
        return Match({"member": ctx.member, "distinct": ctx.distinct})
    return Miss(f"{ctx.carried} answers show {ctx.member!r} with {ctx.distinct} values")


@predicate("answer_member_changed_without_write", context="answer-member", params=NoParams)
def answer_member_changed_without_write(ctx: AnswerMemberContext, params: NoParams) -> Outcome:
    """Two answers of one request with no write between them show the member otherwise."""
    if ctx.changed_without_write:
        return Match({"member": ctx.member})
    return Miss(f"no request answered twice with no write between shows {ctx.member!r} otherwise")

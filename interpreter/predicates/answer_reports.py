"""Predicates on a write's answer object that names the entity by its identity
(``write-answer-reports``): whether it shows the entity, or reports on the call about it, as
Icinga's ``{"results": [{"code": 200, "name": "lab", "status": "Object was deleted.", "type":
"HostGroup"}]}`` does.

Context ``answer-report``: the located answer object, the fields the type's reads ever showed and
those every recording of an item view of the type carried. The evidence is the reads alone: an
object lacking fields every item read shows while holding members no read of the type ever
shows is no rendering of the entity, whatever its members are called.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("answer-report")
class AnswerReportContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    answer: dict[str, Any] = {}
    """The answer object that names the entity by its identity."""
    shown_fields: tuple[str, ...] = ()
    """Every field a read of the type showed."""
    required_fields: tuple[str, ...] = ()
    """The fields every recording of an item view of the type carried."""


class ReportParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_own_members: int = Field(default=1, ge=1)
    """Members no read of the type shows, at least."""
    min_lacking_required: int = Field(default=1, ge=1)
    """Fields every item read carries that the answer leaves out, at least."""


@predicate("answer_reports_on_entity", context="answer-report", params=ReportParams)
def answer_reports_on_entity(ctx: AnswerReportContext, params: ReportParams) -> Outcome:
    """The answer holds members no read of the type shows and lacks fields every item read of
    it carries: a report on the call, its other members the entity's own fields."""
    if not ctx.required_fields:
        return Miss("no item view of the type carries fields in every recording")
    shown = set(ctx.shown_fields)
    own = sorted(name for name in ctx.answer if name not in shown)
    if len(own) < params.min_own_members:
        return Miss(f"{len(own)} member(s) no read of the type shows, fewer than {params.min_own_members}")
    lacking = sorted(name for name in ctx.required_fields if name not in ctx.answer)
    if len(lacking) < params.min_lacking_required:
        return Miss(f"the answer lacks {len(lacking)} field(s) every item read carries, "
                    f"fewer than {params.min_lacking_required}")
    fields = [name for name in ctx.answer if name in shown]
    return Match({"own_members": own, "lacking": lacking, "fields": fields})

"""Predicates on another write tool whose recorded absence could answer for this one.

Context ``write-absence-source``: whether the two tools share method and effect, and each
segment where their templates differ, with whether both are words naming a kind of entity (made
literals by ``segment.kind-word``, or each ending a state type's collection path).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class SegmentDifference(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    mine: str
    theirs: str
    kind_words: bool = False


@context_model("write-absence-source")
class WriteAbsenceSourceContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    same_method: bool
    same_effect: bool
    differences: tuple[SegmentDifference, ...] = ()
    """The template segments that differ (a parameter against a literal counts as one)."""


class DifferencesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_differences: int = Field(ge=1)


@predicate("absence_sibling_differs_in_kind_word", context="write-absence-source", params=DifferencesParams)
def absence_sibling_differs_in_kind_word(ctx: WriteAbsenceSourceContext, params: DifferencesParams) -> Outcome:
    """Same method and effect; the templates differ in at most ``max_differences`` segments, each
    a pair of kind words."""
    if not ctx.same_method or not ctx.same_effect:
        return Miss("another method or effect")
    if not ctx.differences:
        return Miss("the same template")
    if len(ctx.differences) > params.max_differences:
        return Miss(f"the templates differ in {len(ctx.differences)} segments")
    other = next((d for d in ctx.differences if not d.kind_words), None)
    if other is not None:
        return Miss(f"{other.mine!r} and {other.theirs!r} are not words naming kinds of entity")
    return Match({"segments": ", ".join(f"{d.mine}/{d.theirs}" for d in ctx.differences)})

"""Predicates on another write tool whose recorded absence could answer for this one.

Context ``write-absence-source``: whether the two tools share method and effect, and each
segment where their templates differ, with whether both are words naming a kind of entity (made
literals by ``segment.kind-word``, or each ending a state type's collection path).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


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
    answers: tuple[str, ...] = ()
    """The text of the other tool's recorded absence answers (400, 404, 410)."""
    masked_answers: tuple[str, ...] = ()
    """The same answers with their call's path segments masked (``{}``), comparable across ids."""
    sibling_read_answers: tuple[str, ...] = ()
    """The masked absence answers the other tool's type's item reads recorded."""
    own_read_answers: tuple[str, ...] = ()
    """The masked absence answers this tool's type's item reads recorded."""


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


def _word_forms(word: str) -> set[str]:
    """A collection word and its singulars by the plain English endings (flows: flow; entries: entry),
    with underscores and hyphens as spaces."""
    word = re.sub(r"[_\-\s]+", " ", word.lower())  # work_pools names a "Work pool"
    forms = {word}
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    if word.endswith("es"):
        forms.add(word[:-2])
    if word.endswith("s"):
        forms.add(word[:-1])
    return {f for f in forms if f}


def _answer_words(answer: str) -> str:
    """An answer's words in lower case, a class name split at its capitals (``ProductCategory
    with id`` reads ``product category with id``), underscores and hyphens as spaces."""
    return re.sub(r"[_\-\s]+", " ", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", answer).lower())


@predicate("absence_answer_names_its_kind", context="write-absence-source")
def absence_answer_names_its_kind(ctx: WriteAbsenceSourceContext, params: NoParams) -> Outcome:
    """The other tool's recorded absence answer names its own kind of entity ("Flow not found" from
    /flows/{id}): given for this tool's entity it would name another kind, a wrong answer."""
    for difference in ctx.differences:
        forms = _word_forms(difference.theirs)
        pattern = re.compile(r"(?<![a-z0-9])(" + "|".join(map(re.escape, sorted(forms))) + r")(?![a-z0-9])")
        named = next((a for a in ctx.answers if pattern.search(_answer_words(a))), None)
        if named is not None:
            return Match({"names": difference.theirs, "answer": excerpt(named, 60)})
    return Miss("no recorded absence answer names the other kind")


@predicate("absence_read_answers_otherwise", context="write-absence-source")
def absence_read_answers_otherwise(ctx: WriteAbsenceSourceContext, params: NoParams) -> Outcome:
    """The other tool answers a missing id as its own type's item read does, while this tool's
    type's item read answers otherwise: the application words each kind's absence its own way
    (ZenML's "No account with ..." for users, "No service account with ..." for service
    accounts), so the other kind's answer given here would be a wrong answer, and the item read's
    is the one this kind gives."""
    if not ctx.masked_answers or not ctx.sibling_read_answers or not ctx.own_read_answers:
        return Miss("no absence recorded by the other tool, its type's item read or this type's item read")
    if not set(ctx.masked_answers) <= set(ctx.sibling_read_answers):
        return Miss("the other tool answers a missing id otherwise than its type's item read")
    if set(ctx.own_read_answers) & set(ctx.masked_answers):
        return Miss("this type's item read answers a missing id as the other tool does")
    return Match({"own_read_answer": excerpt(ctx.own_read_answers[0], 60)})

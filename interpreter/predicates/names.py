"""Predicates on names: JSON member names and path segment words.

Contexts: ``member-name`` (a JSON member's name) and ``param-naming`` (the segment before
a path parameter, which the parameter is named after).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("member-name")
class MemberNameContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str


@context_model("param-naming")
class ParamNamingContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    previous: str | None
    """The segment before the parameter (a literal, or the previous parameter's name)."""


class WordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    ignore_case: bool = True


class SuffixParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    suffixes: list[str] = Field(min_length=1)
    min_length: int = Field(default=1, ge=1)
    """The whole name must be at least this long (so a bare suffix is no match)."""
    case_sensitive: bool = True


def in_words(value: str, params: WordsParams) -> Outcome:
    pool = {w.lower() for w in params.words} if params.ignore_case else set(params.words)
    probe = value.lower() if params.ignore_case else value
    if probe in pool:
        return Match({"word": value})
    return Miss(f"{value!r} is not one of {sorted(params.words)}")


def ends_with(value: str, params: SuffixParams) -> Outcome:
    if len(value) < params.min_length:
        return Miss(f"{value!r} is shorter than {params.min_length}")
    probe = value if params.case_sensitive else value.lower()
    for suffix in params.suffixes:
        if probe.endswith(suffix if params.case_sensitive else suffix.lower()) and len(value) > len(suffix):
            return Match({"suffix": suffix})
    return Miss(f"{value!r} ends with none of {params.suffixes}")


@predicate("member_name_in", context="member-name", params=WordsParams)
def member_name_in(ctx: MemberNameContext, params: WordsParams) -> Outcome:
    """The member's name is one of a word list."""
    return in_words(ctx.name, params)


@predicate("member_name_ends_with", context="member-name", params=SuffixParams)
def member_name_ends_with(ctx: MemberNameContext, params: SuffixParams) -> Outcome:
    """The member's name ends with one of some suffixes (and is longer than the suffix)."""
    return ends_with(ctx.name, params)


@predicate("previous_segment_absent", context="param-naming")
def previous_segment_absent(ctx: ParamNamingContext, params: BaseModel) -> Outcome:
    """The parameter is the first segment: there is nothing to name it after."""
    if ctx.previous is None or ctx.previous == "":
        return Match()
    return Miss(f"follows {ctx.previous!r}")


@predicate("previous_segment_in", context="param-naming", params=WordsParams)
def previous_segment_in(ctx: ParamNamingContext, params: WordsParams) -> Outcome:
    """The segment before the parameter is one of a word list."""
    if not ctx.previous:
        return Miss("no previous segment")
    return in_words(ctx.previous, params)


@predicate("previous_segment_ends_with", context="param-naming", params=SuffixParams)
def previous_segment_ends_with(ctx: ParamNamingContext, params: SuffixParams) -> Outcome:
    """The segment before the parameter ends with one of some suffixes."""
    if not ctx.previous:
        return Miss("no previous segment")
    return ends_with(ctx.previous, params)


@predicate("previous_segment_present", context="param-naming")
def previous_segment_present(ctx: ParamNamingContext, params: BaseModel) -> Outcome:
    """There is a segment before the parameter."""
    if ctx.previous:
        return Match({"previous": ctx.previous})
    return Miss("no previous segment")

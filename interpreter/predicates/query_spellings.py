"""Predicates reading how real APIs spell a list query: bracketed filter names
(``filters[title][$eq]``, ``filter[status]``, ``filters[name][$in][0]``), indexed parameters
(``sort[0]``) and sort values with directions (``views:desc``, ``-views``, ``a,-b``).

Context ``query-candidate`` (names and values decoded). The evidence a predicate returns names
the spelling it read (operator, index, separators), which the learned query keeps: serving
reads a call's value exactly as the proving recordings were read.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .query_candidates import QueryCandidateContext

BRACKETED = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]*\])+)$")
INDEX = re.compile(r"^(?:0|[1-9][0-9]{0,3})$")


def bracket_segments(name: str) -> tuple[str, list[str]] | None:
    """``filters[title][$eq]`` -> (``filters``, [``title``, ``$eq``]); None for a plain name."""
    found = BRACKETED.match(name)
    if found is None:
        return None
    return found.group(1), re.findall(r"\[([^\[\]]*)\]", found.group(2))


class IndexedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """The parameter's name before its index (``sort`` of ``sort[0]``)."""


@predicate("query_param_indexed", context="query-candidate", params=IndexedParams)
def query_param_indexed(ctx: QueryCandidateContext, params: IndexedParams) -> Outcome:
    """The name is one of the words followed by one bracketed index (``sort[1]``)."""
    parsed = bracket_segments(ctx.param)
    if parsed is None or parsed[0].lower() not in {w.lower() for w in params.words}:
        return Miss(f"{ctx.param!r} is none of {params.words} with an index")
    root, segments = parsed
    if len(segments) != 1 or not INDEX.match(segments[0]):
        return Miss(f"{ctx.param!r} carries no single index after {root!r}")
    return Match({"index": int(segments[0])})


class BracketParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    roots: list[str] = Field(min_length=1)
    """The name before the brackets (``filter``, ``filters``)."""
    operators: dict[str, str] = Field(default_factory=dict)
    """The bracketed operator after the field -> the learned operator (``$gte: ">="``)."""
    bare: str | None = None
    """The operator of a name with no operator segment (``filter[status]``); None: one is needed."""
    indexed: bool = False
    """An index follows the operator (``filters[name][$in][0]``), one value per parameter."""
    scopes: list[str] = Field(default_factory=list)
    """Bracketed words that may come before the field, naming the clause it sits in (LoopBack's
    ``filter[where][title]``, ``filter[where][id][gt]``)."""


@predicate("query_param_bracket_filter", context="query-candidate", params=BracketParams)
def query_param_bracket_filter(ctx: QueryCandidateContext, params: BracketParams) -> Outcome:
    """The name is a root, a field of the members and an operator, each bracketed after the root
    (``filters[views][$gte]``), or the field alone when ``bare`` gives its operator."""
    parsed = bracket_segments(ctx.param)
    if parsed is None or parsed[0] not in params.roots:
        return Miss(f"{ctx.param!r} is no bracketed name under {params.roots}")
    _, segments = parsed
    evidence: dict = {}
    if len(segments) > 1 and segments[0] in params.scopes:
        segments = segments[1:]
    if params.indexed:
        if len(segments) < 2 or not INDEX.match(segments[-1]):
            return Miss(f"{ctx.param!r} ends in no index")
        evidence["index"] = int(segments[-1])
        segments = segments[:-1]
    if not segments or segments[0] not in ctx.fields:
        return Miss(f"{ctx.param!r} names no field of the members")
    if len(segments) == 1 and params.bare is not None:
        return Match({**evidence, "field": segments[0], "operator": params.bare})
    if len(segments) == 2 and segments[1] in params.operators:
        return Match({**evidence, "field": segments[0], "operator": params.operators[segments[1]],
                      "spelled": segments[1]})
    return Miss(f"{ctx.param!r} carries none of the operators {sorted(params.operators)}")


class FieldOperatorParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    operators: dict[str, str] = Field(min_length=1)
    """The bracketed operator after the field -> the learned operator (``$gt: ">"``)."""


@predicate("query_param_field_operator", context="query-candidate", params=FieldOperatorParams)
def query_param_field_operator(ctx: QueryCandidateContext, params: FieldOperatorParams) -> Outcome:
    """The name is a field of the members followed by one bracketed operator, with no root before
    it (Feathers' and other qs-parsed APIs' ``createdAt[$gt]``, ``userId[$ne]``)."""
    parsed = bracket_segments(ctx.param)
    if parsed is None:
        return Miss(f"{ctx.param!r} is no bracketed name")
    field, segments = parsed
    if field not in ctx.fields:
        return Miss(f"{field!r} names no field of the members")
    if len(segments) != 1 or segments[0] not in params.operators:
        return Miss(f"{ctx.param!r} carries not one of the operators {sorted(params.operators)}")
    return Match({"field": field, "operator": params.operators[segments[0]], "spelled": segments[0]})


class KeyedSortParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """The name before the bracketed field (``$sort`` of ``$sort[createdAt]``)."""
    directions: dict[str, str] = Field(min_length=1)
    """Values -> ``asc`` or ``desc`` (``1: asc``, ``-1: desc``)."""


@predicate("query_param_keyed_sort", context="query-candidate", params=KeyedSortParams)
def query_param_keyed_sort(ctx: QueryCandidateContext, params: KeyedSortParams) -> Outcome:
    """The name is one of the words with a bracketed field of the members, and the value one of
    the directions (Feathers' ``$sort[createdAt]=-1``): the field sorts in that direction."""
    parsed = bracket_segments(ctx.param)
    if parsed is None or parsed[0] not in params.words:
        return Miss(f"{ctx.param!r} is none of {params.words} with a bracketed field")
    _, segments = parsed
    if len(segments) != 1 or segments[0] not in ctx.fields:
        return Miss(f"{ctx.param!r} names no field of the members in one bracket")
    if ctx.value.strip().lower() not in params.directions:
        return Miss(f"its value {ctx.value!r} is none of the directions {sorted(params.directions)}")
    return Match({"field": segments[0], "directions": params.directions})


class SortValueParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    separator: str | None = None
    """Several keys are joined by this (``a,-b``)."""
    descending_prefix: str | None = None
    """A key beginning with this sorts descending (``-views``)."""
    direction_separator: str | None = None
    """A key may end with this and a direction word (``views:desc``)."""
    directions: dict[str, str] = Field(default_factory=dict)
    """Direction words -> ``asc`` or ``desc``."""


@predicate("query_value_sort_keys", context="query-candidate", params=SortValueParams)
def query_value_sort_keys(ctx: QueryCandidateContext, params: SortValueParams) -> Outcome:
    """Every key of the value, read with this spelling, names a field of the members."""
    keys = ctx.value.split(params.separator) if params.separator else [ctx.value]
    for key in keys:
        field = key.strip()
        if params.descending_prefix and field.startswith(params.descending_prefix):
            field = field[len(params.descending_prefix):]
        if params.direction_separator and params.direction_separator in field:
            stem, _, word = field.rpartition(params.direction_separator)
            if word.lower() in params.directions:
                field = stem
        if field not in ctx.fields:
            return Miss(f"sort key {key!r} names no field of the members")
    return Match({**params.model_dump(exclude_none=True), "keys": len(keys)})


class DirectionParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    directions: dict[str, str] = Field(min_length=1)
    """Direction words -> ``asc`` or ``desc``."""


@predicate("query_value_direction", context="query-candidate", params=DirectionParams)
def query_value_direction(ctx: QueryCandidateContext, params: DirectionParams) -> Outcome:
    """The value is a direction word (``desc``)."""
    if ctx.value.lower() in params.directions:
        return Match({"directions": params.directions})
    return Miss(f"{ctx.value!r} is none of {sorted(params.directions)}")


class PluralParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    suffixes: list[str] = Field(min_length=1)
    """Endings that make a field's name plural (``s``: ``ids`` for ``id``)."""


@predicate("query_param_plural_of_field", context="query-candidate", params=PluralParams)
def query_param_plural_of_field(ctx: QueryCandidateContext, params: PluralParams) -> Outcome:
    """The name is a field of the members plus a plural ending, and no field itself."""
    if ctx.param in ctx.fields:
        return Miss(f"{ctx.param!r} is itself a field of the members")
    for suffix in params.suffixes:
        stem = ctx.param[: -len(suffix)] if ctx.param.endswith(suffix) else None
        if stem and stem in ctx.fields:
            return Match({"field": stem})
    return Miss(f"{ctx.param!r} is no field's plural")

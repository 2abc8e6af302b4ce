"""Predicates proposing what a list read's query parameter means (filter, sort, page, search).

Context ``query-candidate``: one query parameter of a recorded list read, with the field names
its collection's members hold. Candidates are only proposals: the view keeps one only when it
reproduces the recorded answers (see ``interpreter/view/learned_queries.py``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from capenv.interpreter.bundle.filter_expressions import Clause, parse_expression, parse_json_object

from .names import WordsParams, in_words


@context_model("query-candidate")
class QueryCandidateContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    param: str
    value: str
    fields: list[str] = []
    """Field names the collection's members hold."""
    structured_fields: list[str] = []
    """The fields some member holds as an object or array (a populated reference, a list)."""


@predicate("query_param_is", context="query-candidate", params=WordsParams)
def query_param_is(ctx: QueryCandidateContext, params: WordsParams) -> Outcome:
    """The parameter's name is one of a word list."""
    return in_words(ctx.param, params)


@predicate("query_value_is", context="query-candidate", params=WordsParams)
def query_value_is(ctx: QueryCandidateContext, params: WordsParams) -> Outcome:
    """The parameter's value is one of a word list."""
    return in_words(ctx.value, params)


class PrefixParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    strip: list[str] = Field(default_factory=list)
    """Prefixes of the value to strip before looking the field up (``-`` for descending)."""


@predicate("query_value_names_field", context="query-candidate", params=PrefixParams)
def query_value_names_field(ctx: QueryCandidateContext, params: PrefixParams) -> Outcome:
    """The value (less a prefix such as ``-``) names a field of the members."""
    value = ctx.value
    for prefix in params.strip:
        if value.startswith(prefix):
            value = value[len(prefix):]
    if value in ctx.fields:
        return Match({"field": value})
    return Miss(f"{value!r} is not a field of the members")


@predicate("query_param_names_field", context="query-candidate")
def query_param_names_field(ctx: QueryCandidateContext, params: BaseModel) -> Outcome:
    """The parameter's name is a field of the members (an equality filter)."""
    if ctx.param in ctx.fields:
        return Match({"field": ctx.param})
    return Miss(f"{ctx.param!r} is not a field of the members")


class AffixParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    operators: dict[str, str] = Field(min_length=1)
    """Affix -> operator (``_gte: ">="``)."""


@predicate("query_param_suffix_operator", context="query-candidate", params=AffixParams)
def query_param_suffix_operator(ctx: QueryCandidateContext, params: AffixParams) -> Outcome:
    """The name is a field plus an operator suffix (``views_gte``)."""
    for suffix, operator in params.operators.items():
        stem = ctx.param[: -len(suffix)] if ctx.param.endswith(suffix) else None
        if stem and stem in ctx.fields:
            return Match({"field": stem, "operator": operator})
    return Miss(f"{ctx.param!r} is no field with an operator suffix")


@predicate("query_param_prefix_operator", context="query-candidate", params=AffixParams)
def query_param_prefix_operator(ctx: QueryCandidateContext, params: AffixParams) -> Outcome:
    """The name is an operator prefix plus a field (``min_views``)."""
    for prefix, operator in params.operators.items():
        stem = ctx.param[len(prefix):] if ctx.param.startswith(prefix) else None
        if stem and stem in ctx.fields:
            return Match({"field": stem, "operator": operator})
    return Miss(f"{ctx.param!r} is no field with an operator prefix")


class ExpressionParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    conjunction: str = Field(min_length=1)
    """What joins two comparisons (``&&``)."""
    operators: dict[str, str] = Field(min_length=1)
    """Spelled operator -> ==, !=, >, >=, <, <=, icontains or !icontains."""


def unfit_field(clauses: list[Clause], ctx: QueryCandidateContext) -> str | None:
    """Why a comparison's field cannot be evaluated over the members: none holds it, or they hold
    it as an object or array (what a literal compares with there is not shown)."""
    unknown = next((c.field for c in clauses if c.field not in ctx.fields), None)
    if unknown is not None:
        return f"{unknown!r} is not a field of the members"
    nested = next((c.field for c in clauses if c.field in ctx.structured_fields), None)
    if nested is not None:
        return f"{nested!r} is held as an object or array: what a literal compares with there is not shown"
    return None


@predicate("query_value_filter_expression", context="query-candidate", params=ExpressionParams)
def query_value_filter_expression(ctx: QueryCandidateContext, params: ExpressionParams) -> Outcome:
    """The value is comparisons of fields of the members with literals, joined by the
    conjunction, in optional parentheses (``(status='published' && views>=12)``)."""
    clauses = parse_expression(ctx.value, params.conjunction, params.operators)
    if clauses is None:
        return Miss(f"{ctx.value!r} is no comparison of a field with a literal joined by {params.conjunction!r}")
    unfit = unfit_field(clauses, ctx)
    if unfit is not None:
        return Miss(unfit)
    return Match({"separator": params.conjunction, "operators": params.operators, "clauses": len(clauses)})


class JsonObjectParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    operators: dict[str, str] = Field(min_length=1)
    """Spelled operator member -> ==, !=, >, >=, < or <=."""
    within: str | None = None
    """The one member of the value's object the comparisons sit in (LoopBack's ``{"where": {...}}``)."""


@predicate("query_value_json_comparisons", context="query-candidate", params=JsonObjectParams)
def query_value_json_comparisons(ctx: QueryCandidateContext, params: JsonObjectParams) -> Outcome:
    """The value is a JSON object whose members name fields of the members, each holding a literal
    (an equality) or an object of spelled operators holding literals (``{"year": {">": 1970}}``),
    none of them a field the members hold as an object or array."""
    clauses = parse_json_object(ctx.value, params.operators, params.within)
    if clauses is None:
        return Miss(f"{ctx.value!r} is no JSON object of fields equal to or compared with literals")
    unfit = unfit_field(clauses, ctx)
    if unfit is not None:
        return Miss(unfit)
    found = {"operators": params.operators, "clauses": len(clauses)}
    return Match({**found, "within": params.within} if params.within else found)

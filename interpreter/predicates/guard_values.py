"""Predicates on a request header every successful call of a tool sent with one value (context
``guard-value``, table ``request-guard-values``): whether the application checks that value (an
Origin it trusts, against cross-site requests), as a call sending another value of it alone was
refused, which the model does not check otherwise.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .header_value_checks import MaxValuesParams, WordsParams, name_holds_words, sent_on_every_call


@context_model("guard-value")
class GuardValueContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The header's name, lower case."""
    calls: int = 0
    """How many successful calls the tool recorded."""
    values: dict[str, list[int]] = Field(default_factory=dict)
    """The values the tool's successful calls sent it with, each with those calls' records."""
    refused_otherwise: list[tuple[int, int]] = Field(default_factory=list)
    """Records of the whole capture sent with the tool's method, answered a client error, that sent
    the header with a value none of the tool's successful calls sent, while sending every other
    header all of them sent: (record, status)."""


class NamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Header names, lower case."""


@predicate("guard_value_header_named", context="guard-value", params=NamesParams)
def guard_value_header_named(ctx: GuardValueContext, params: NamesParams) -> Outcome:
    """The header is one of the named ones."""
    if ctx.name in params.names:
        return Match({"name": ctx.name})
    return Miss(f"{ctx.name!r} is not one of {params.names}")


@predicate("guard_value_header_words", context="guard-value", params=WordsParams)
def guard_value_header_words(ctx: GuardValueContext, params: WordsParams) -> Outcome:
    """The header's name holds one of the words."""
    return name_holds_words(ctx.name, params)


@predicate("guard_value_on_every_call", context="guard-value", params=MaxValuesParams)
def guard_value_on_every_call(ctx: GuardValueContext, params: MaxValuesParams) -> Outcome:
    """Every successful call sent the header, with at most ``max_values`` different values."""
    return sent_on_every_call(ctx.name, ctx.calls, ctx.values, params)


class RefusedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The refusal statuses that count."""
    min_refusals: int = Field(ge=1)


@predicate("guard_value_other_refused", context="guard-value", params=RefusedParams)
def guard_value_other_refused(ctx: GuardValueContext, params: RefusedParams) -> Outcome:
    """At least ``min_refusals`` calls of the capture that sent the header with another value, and
    sent every other header the tool's successful calls all sent, were answered one of ``statuses``."""
    refused = sorted({o for o, status in ctx.refused_otherwise if status in params.statuses})
    if len(refused) >= params.min_refusals:
        return Match({"records": refused[:3]})
    return Miss(f"{len(refused)} call{'s' if len(refused) != 1 else ''} sending another {ctx.name} answered "
                f"{'/'.join(map(str, params.statuses))}, fewer than {params.min_refusals}")

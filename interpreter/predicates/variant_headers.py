"""Predicates on a request header a read tool's recordings sent (``view-variant-headers``).

Context ``variant-header``: the header's name, the values the tool's recordings sent it with, and
how many pairs of its recordings show it selecting the answer: the same path, query and body, no
write between them, different values of the header (absent being one), answers of different
shapes. An application may answer another shape per Accept (JupyterHub's paginated lists) or per
an API version sent in a header (Node-RED's ``Node-RED-API-Version: v2``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("variant-header")
class VariantHeaderContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The header's name, lower case."""
    values: list[str] = Field(default_factory=list)
    """The distinct values the tool's recordings sent (normalised; ``""`` for a recording that sent none)."""
    pair_statuses: list[list[int]] = Field(default_factory=list)
    """Per pair of recordings of one path, query and body with no write between them, sending
    different values, whose answers differ in shape: the two answers' statuses."""
    member_pairs: int = 0
    """Pairs of successive recordings of one path, query and body, writes between them or not,
    sending different values (absent being one), both answered 2xx with JSON objects of different
    members: a read answering each caller their own object (a whoami). 0 when one value's recordings
    of one call answered objects of different members: writes changed them, not the caller."""


class NamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Header names, lower case."""


@predicate("variant_header_named", context="variant-header", params=NamesParams)
def variant_header_named(ctx: VariantHeaderContext, params: NamesParams) -> Outcome:
    """The header is one of the named ones."""
    if ctx.name in params.names:
        return Match({"name": ctx.name})
    return Miss(f"{ctx.name!r} is not one of {params.names}")


class MinValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=1)


@predicate("variant_header_values", context="variant-header", params=MinValuesParams)
def variant_header_values(ctx: VariantHeaderContext, params: MinValuesParams) -> Outcome:
    """The recordings sent the header with at least ``min_values`` different values."""
    if len(ctx.values) < params.min_values:
        return Miss(f"{len(ctx.values)} value{'s' if len(ctx.values) != 1 else ''} recorded, "
                    f"fewer than {params.min_values}")
    return Match({"values": len(ctx.values)})


class MinPairsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_pairs: int = Field(ge=1)


@predicate("variant_header_shapes_differ", context="variant-header", params=MinPairsParams)
def variant_header_shapes_differ(ctx: VariantHeaderContext, params: MinPairsParams) -> Outcome:
    """At least ``min_pairs`` pairs of recordings show another value of the header answered in
    another shape, nothing else about the call and the state differing."""
    pairs = len(ctx.pair_statuses)
    if pairs < params.min_pairs:
        return Miss(f"{pairs} pairs of recordings show it changing the answer's shape, fewer than {params.min_pairs}")
    return Match({"pairs": pairs})


@predicate("variant_header_members_differ", context="variant-header", params=MinPairsParams)
def variant_header_members_differ(ctx: VariantHeaderContext, params: MinPairsParams) -> Outcome:
    """At least ``min_pairs`` pairs of successful recordings show another value of the header
    answered with an object of other members, whatever writes ran between them."""
    if ctx.member_pairs < params.min_pairs:
        return Miss(f"{ctx.member_pairs} pairs of successful recordings show it changing the answer's members, "
                    f"fewer than {params.min_pairs}")
    return Match({"pairs": ctx.member_pairs})


class StatusesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)


@predicate("variant_header_shapes_only_refusals", context="variant-header", params=StatusesParams)
def variant_header_shapes_only_refusals(ctx: VariantHeaderContext, params: StatusesParams) -> Outcome:
    """Every pair showing another shape has an answer of one of ``statuses`` (the header carries
    credentials: without them, or with others, the application refuses)."""
    if not ctx.pair_statuses:
        return Miss("no pair of recordings shows another shape")
    other = next((pair for pair in ctx.pair_statuses if not set(pair) & set(params.statuses)), None)
    if other is not None:
        return Miss(f"a pair answered {other[0]} and {other[1]}, neither of {params.statuses}")
    return Match({"pairs": len(ctx.pair_statuses), "statuses": sorted({s for p in ctx.pair_statuses for s in p})})

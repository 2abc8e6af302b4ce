"""Predicates on a request header every successful call of a tool sent (context
``version-header``, table ``request-version-headers``): whether it asks for one version of the API
(OpenStack's microversions, ``X-OpenStack-Ironic-API-Version: 1.115``), whose other values, or
its absence (the oldest version), the application answers in other shapes or refuses (406), which
the capture never shows.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("version-header")
class VersionHeaderContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The header's name, lower case."""
    calls: int = 0
    """How many successful calls the tool recorded."""
    values: dict[str, list[int]] = Field(default_factory=dict)
    """The values the tool's successful calls sent it with, each with those calls' records."""


class WordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """Words (lower case) of which the header's name, split at ``-`` and ``_``, must hold one."""


@predicate("version_header_words", context="version-header", params=WordsParams)
def version_header_words(ctx: VersionHeaderContext, params: WordsParams) -> Outcome:
    """The header's name holds one of the words."""
    words = {w for w in re.split(r"[-_]", ctx.name) if w}
    found = sorted(words & set(params.words))
    if found:
        return Match({"name": ctx.name, "words": found})
    return Miss(f"{ctx.name!r} holds none of the words {params.words}")


class MaxValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_values: int = Field(ge=1)


@predicate("version_header_on_every_call", context="version-header", params=MaxValuesParams)
def version_header_on_every_call(ctx: VersionHeaderContext, params: MaxValuesParams) -> Outcome:
    """Every successful call sent the header, with at most ``max_values`` different values."""
    carried = len({o for records in ctx.values.values() for o in records})
    if not ctx.calls or carried < ctx.calls:
        return Miss(f"{carried} of {ctx.calls} successful calls sent {ctx.name}")
    if len(ctx.values) > params.max_values:
        return Miss(f"{len(ctx.values)} values sent, more than {params.max_values}")
    return Match({"values": sorted(ctx.values)})

"""Predicates on a request header every successful call of a tool sent (context
``version-header``, table ``request-version-headers``): whether it asks for one version of the API
(OpenStack's microversions, ``X-OpenStack-Ironic-API-Version: 1.115``), whose other values, or
its absence (the oldest version), the application answers in other shapes or refuses (406), which
the capture never shows.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Outcome, context_model, predicate

from .header_value_checks import MaxValuesParams, WordsParams, name_holds_words, sent_on_every_call


@context_model("version-header")
class VersionHeaderContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The header's name, lower case."""
    calls: int = 0
    """How many successful calls the tool recorded."""
    values: dict[str, list[int]] = Field(default_factory=dict)
    """The values the tool's successful calls sent it with, each with those calls' records."""


@predicate("version_header_words", context="version-header", params=WordsParams)
def version_header_words(ctx: VersionHeaderContext, params: WordsParams) -> Outcome:
    """The header's name holds one of the words."""
    return name_holds_words(ctx.name, params)


@predicate("version_header_on_every_call", context="version-header", params=MaxValuesParams)
def version_header_on_every_call(ctx: VersionHeaderContext, params: MaxValuesParams) -> Outcome:
    """Every successful call sent the header, with at most ``max_values`` different values."""
    return sent_on_every_call(ctx.name, ctx.calls, ctx.values, params)

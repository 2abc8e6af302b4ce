"""Predicates on a request header every successful call of a write tool sent (context
``write-credential``, table ``write-credentials``): whether it carries credentials, which the
model does not check (authorization is not modelled) but without which the application refuses
the call (401/403), so serving refuses an HTTP call that leaves it out rather than apply it.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("write-credential")
class WriteCredentialContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The header's name, lower case."""
    calls: int = 0
    """How many successful calls the tool recorded."""
    carried: list[int] = Field(default_factory=list)
    """The successful calls (records) that sent the header with a value."""
    refused_without: list[int] = Field(default_factory=list)
    """Records of the whole capture answered 401 or 403 that left the header out, or sent it with a
    value none of the tool's successful calls sent, while sending every other header all of them sent."""
    left_out_refused: list[tuple[int, int]] = Field(default_factory=list)
    """Records of the whole capture sent with the tool's method, answered a client error (4xx), that
    left the header out (sent no value) while sending every other header all the tool's successful
    calls sent: (record, status)."""
    principal_rule: str = ""
    """The ``write-credential-values`` rule keeping the header to the principal caller's value
    (several callers by it, another's refused), when one does; empty otherwise."""


class NamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Header names, lower case."""


@predicate("credential_header_named", context="write-credential", params=NamesParams)
def credential_header_named(ctx: WriteCredentialContext, params: NamesParams) -> Outcome:
    """The header is one of the named ones."""
    if ctx.name in params.names:
        return Match({"name": ctx.name})
    return Miss(f"{ctx.name!r} is not one of {params.names}")


class WordRunsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    runs: list[list[str]] = Field(min_length=1)
    """Runs of words (lower case); the header's name, split at ``-`` and ``_``, must hold one of
    them as consecutive words (``[api, key]`` in ``x-redmine-api-key``, not ``idempotency-key``)."""


@predicate("credential_header_words", context="write-credential", params=WordRunsParams)
def credential_header_words(ctx: WriteCredentialContext, params: WordRunsParams) -> Outcome:
    """The header's name holds one of the runs of words as consecutive words."""
    words = [w for w in re.split(r"[-_]", ctx.name) if w]
    for run in params.runs:
        for start in range(len(words) - len(run) + 1):
            if words[start:start + len(run)] == run:
                return Match({"name": ctx.name, "words": run})
    return Miss(f"{ctx.name!r} holds none of the word runs {params.runs}")


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@predicate("credential_header_on_every_call", context="write-credential", params=NoParams)
def credential_header_on_every_call(ctx: WriteCredentialContext, params: NoParams) -> Outcome:
    """Every successful call of the tool sent the header with a value (no recorded call shows the
    application writing without it)."""
    carried = len(set(ctx.carried))
    if ctx.calls and carried >= ctx.calls:
        return Match({"records": sorted(set(ctx.carried))[:3]})
    return Miss(f"{carried} of {ctx.calls} successful calls sent {ctx.name}: the application wrote without it")


@predicate("credential_header_on_some_call", context="write-credential", params=NoParams)
def credential_header_on_some_call(ctx: WriteCredentialContext, params: NoParams) -> Outcome:
    """Some successful call of the tool sent the header with a value, though not every one: the
    tool answered callers who sent it and callers who did not (anonymous reads beside signed-in ones)."""
    carried = len(set(ctx.carried))
    if 0 < carried < ctx.calls:
        return Match({"records": sorted(set(ctx.carried))[:3], "without": ctx.calls - carried})
    if carried == 0:
        return Miss(f"no successful call sent {ctx.name}")
    return Miss(f"every successful call sent {ctx.name}")


class MinRefusalsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_refusals: int = Field(ge=1)


@predicate("credential_header_refused_without", context="write-credential", params=MinRefusalsParams)
def credential_header_refused_without(ctx: WriteCredentialContext, params: MinRefusalsParams) -> Outcome:
    """At least ``min_refusals`` calls of the capture that left the header out, or sent it with a
    value none of the tool's successful calls sent, were answered 401 or 403."""
    refused = sorted(set(ctx.refused_without))
    if len(refused) >= params.min_refusals:
        return Match({"records": refused[:3]})
    return Miss(f"{len(refused)} call{'s' if len(refused) != 1 else ''} without the tool's {ctx.name} "
                f"answered 401/403, fewer than {params.min_refusals}")


class LeftOutParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The refusal statuses that count."""
    min_refusals: int = Field(ge=1)


@predicate("credential_header_left_out_refused", context="write-credential", params=LeftOutParams)
def credential_header_left_out_refused(ctx: WriteCredentialContext, params: LeftOutParams) -> Outcome:
    """At least ``min_refusals`` calls of the capture that left the header out, and it alone of the
    headers every successful call of the tool sent, were answered one of ``statuses``."""
    refused = sorted({o for o, status in ctx.left_out_refused if status in params.statuses})
    if len(refused) >= params.min_refusals:
        return Match({"records": refused[:3]})
    return Miss(f"{len(refused)} call{'s' if len(refused) != 1 else ''} leaving out {ctx.name} alone answered "
                f"{'/'.join(map(str, params.statuses))}, fewer than {params.min_refusals}")


@predicate("credential_header_kept_to_principal", context="write-credential", params=NoParams)
def credential_header_kept_to_principal(ctx: WriteCredentialContext, params: NoParams) -> Outcome:
    """The capture tells several callers apart by the header, and ``write-credential-values`` keeps
    it to the principal's value (the state holds what that caller was answered)."""
    if ctx.principal_rule:
        return Match({"rule": ctx.principal_rule})
    return Miss(f"no write-credential-values rule keeps {ctx.name} to a principal caller")

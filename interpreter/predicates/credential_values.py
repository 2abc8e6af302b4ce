"""Predicates on the values a credentials header took across a capture's successful calls
(context ``write-credential-value``, table ``write-credential-values``): whether the credential is
static (one value, or a few, the client was given once), so that serving refuses a call sending
another value (a wrong password, a mistyped API key: the application answers 401/403), or is one
a login issues or a client mints per call, whose recorded value a fresh session would replace.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.credential_values import COMPARE_VALUE, credential_digest, signed_shape
from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


class RefusedCredential(BaseModel):
    """A call the application refused that sent the header: its record, status and value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    status: int
    value: str
    args: dict[str, str] = Field(default_factory=dict)
    """The path arguments of the call (its tool's template matched), none when no tool's path fits."""


class CredentialCall(BaseModel):
    """A successful call that sent the header: its record, value and path arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    value: str
    args: dict[str, str] = Field(default_factory=dict)


class CookieCall(BaseModel):
    """An answered call that sent a cookie: its record, method, status and caller (the session its
    value belongs to: values a Set-Cookie renewed in the answer to a call sending another are one
    caller's)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    method: str
    status: int
    caller: int


class CookieCallers(BaseModel):
    """One cookie of the Cookie header, and the answered calls that sent it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    calls: list[CookieCall] = Field(default_factory=list)


class AnsweredApart(BaseModel):
    """Two reads of one address (method, path and query) sent with different values of the header,
    both answered, with no write running between them, that the application answered differently
    (another status or another body): the value chose the answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    first: int
    second: int


@context_model("write-credential-value")
class WriteCredentialValueContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The header's name, lower case."""
    values: list[str] = Field(default_factory=list)
    """The value each successful call of the whole capture sent the header with (one per call)."""
    issued_in: list[int] = Field(default_factory=list)
    """Records whose answer (body or a header) holds one of the values, or its part after the
    scheme's word, or a Basic credential's password: the application issued it (a login's token)."""
    refused: list[RefusedCredential] = Field(default_factory=list)
    """The calls of the whole capture sending the header that the application did not answer 2xx."""
    cookies: list[CookieCallers] = Field(default_factory=list)
    """For the Cookie header: each cookie its calls sent (by name, sorted), with the calls sending
    it and their callers."""
    calls: list[CredentialCall] = Field(default_factory=list)
    """The successful calls sending the header, with their path arguments (the values of ``values``,
    where the build knows the calls' tools)."""
    answered_apart: list[AnsweredApart] = Field(default_factory=list)
    """Pairs of reads of one address sent with different values of the header, no write between,
    answered differently, in record order."""


class FewValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_distinct: int = Field(ge=1)
    """At most this many distinct values (one user, or a small fixed set of them)."""
    min_calls_each: int = Field(ge=1)
    """Each value sent by at least this many calls (a value sent once may be minted for the call)."""


@predicate("credential_values_few", context="write-credential-value", params=FewValuesParams)
def credential_values_few(ctx: WriteCredentialValueContext, params: FewValuesParams) -> Outcome:
    """The successful calls sent the header with a few distinct values, each sent by several calls:
    a credential the client was given, not one it makes anew per call."""
    counts: dict[str, int] = {}
    for value in ctx.values:  # one credential however its scheme's word is spelt
        key = credential_digest(value, COMPARE_VALUE) or value
        counts[key] = counts.get(key, 0) + 1
    if not counts:
        return Miss(f"no successful call sent {ctx.name}")
    if len(counts) > params.max_distinct:
        return Miss(f"{len(counts)} distinct values of {ctx.name}, more than {params.max_distinct}: they vary by call")
    rare = min(counts.values())
    if rare < params.min_calls_each:
        return Miss(f"a value of {ctx.name} was sent by {rare} call(s), fewer than {params.min_calls_each}")
    return Match({"distinct": len(counts), "calls": len(ctx.values)})


class SeveralValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_distinct: int = Field(ge=2)
    """At least this many distinct values: more than one caller."""


@predicate("credential_values_several", context="write-credential-value", params=SeveralValuesParams)
def credential_values_several(ctx: WriteCredentialValueContext, params: SeveralValuesParams) -> Outcome:
    """The successful calls sent the header with several distinct values: more than one caller,
    each of whom the application may answer a view of their own."""
    distinct = {credential_digest(value, COMPARE_VALUE) or value for value in ctx.values}
    if len(distinct) < params.min_distinct:
        return Miss(f"{len(distinct)} distinct value(s) of {ctx.name}, fewer than {params.min_distinct}: one caller")
    return Match({"distinct": len(distinct)})


class SignedShapesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    patterns: list[str] = Field(min_length=1)
    """Regular expressions (searched in the value) of tokens a client signs or a server issues with
    an expiry (a JWT's three base64url parts)."""
    described: str


@predicate("credential_values_unsigned", context="write-credential-value", params=SignedShapesParams)
def credential_values_unsigned(ctx: WriteCredentialValueContext, params: SignedShapesParams) -> Outcome:
    """No value is shaped as a signed token (a JWT), which a client mints or a login issues anew."""
    for value in ctx.values:
        for pattern in params.patterns:
            if re.search(pattern, value):
                return Miss(f"a value of {ctx.name} is {params.described}")
    return Match({})


class SignedShapeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_shapes: int = Field(ge=1)
    """At most this many shapes (scheme, JWT header, signature length) among the values."""


@predicate("credential_values_signed_alike", context="write-credential-value", params=SignedShapeParams)
def credential_values_signed_alike(ctx: WriteCredentialValueContext, params: SignedShapeParams) -> Outcome:
    """Every value is a JWT under a scheme's word, and they share a few shapes (the header and the
    signature's length of one algorithm): tokens signed alike, each call's own."""
    shapes = {signed_shape(value) for value in ctx.values}
    if not ctx.values:
        return Miss(f"no successful call sent {ctx.name}")
    if None in shapes:
        return Miss(f"a value of {ctx.name} is no JWT under a scheme's word")
    if len(shapes) > params.max_shapes:
        return Miss(f"{len(shapes)} shapes of {ctx.name}, more than {params.max_shapes}")
    return Match({"shapes": len(shapes), "calls": len(ctx.values)})


class RefusedStatusesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The statuses refusing a credential (401, 403)."""


@predicate("credential_values_shape_refused", context="write-credential-value", params=RefusedStatusesParams)
def credential_values_shape_refused(ctx: WriteCredentialValueContext, params: RefusedStatusesParams) -> Outcome:
    """A call the application refused for its credential sent a signed token shaped as a successful
    call's (the same scheme, JWT header and signature length): the shape does not tell a token the
    application accepts (expired, signed with another secret)."""
    shapes = {shape for value in ctx.values if (shape := signed_shape(value)) is not None}
    for call in ctx.refused:
        if call.status in params.statuses and signed_shape(call.value) in shapes:
            return Match({"record": call.ordinal, "status": call.status})
    return Miss(f"no refused call sent {ctx.name} with a token shaped as a successful call's")


@predicate("credential_values_other_refused", context="write-credential-value", params=RefusedStatusesParams)
def credential_values_other_refused(ctx: WriteCredentialValueContext, params: RefusedStatusesParams) -> Outcome:
    """A value some successful calls sent, other than the principal's (the value most successful
    calls sent, the first sent among equals), was refused (401/403) in another call: its caller is
    authorized otherwise than the principal, so the application may answer them a view of their
    own (another list, fewer members, a 403)."""
    counts: dict[str, int] = {}
    for value in ctx.values:  # one credential however its scheme's word is spelt
        key = credential_digest(value, COMPARE_VALUE) or value
        counts[key] = counts.get(key, 0) + 1
    if len(counts) < 2:
        return Miss(f"one value of {ctx.name} among the successful calls: one caller")
    top = max(counts.values())
    principal = next(key for key, n in counts.items() if n == top)
    for call in ctx.refused:
        key = credential_digest(call.value, COMPARE_VALUE) or call.value
        if call.status in params.statuses and key in counts and key != principal:
            return Match({"record": call.ordinal, "status": call.status})
    return Miss(f"no call sending another successful caller's {ctx.name} than the principal's was refused "
                f"{params.statuses}")


class AnsweredApartParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_pairs: int = Field(ge=1)
    """At least this many pairs of reads answered apart."""


@predicate("credential_values_answered_apart", context="write-credential-value", params=AnsweredApartParams)
def credential_values_answered_apart(ctx: WriteCredentialValueContext, params: AnsweredApartParams) -> Outcome:
    """The same read sent with two values of the header, nothing written between, was answered
    differently (another list, a 404 for an item the other caller read): the application answers
    each caller a view of their own."""
    if len(ctx.answered_apart) < params.min_pairs:
        return Miss(f"{len(ctx.answered_apart)} pair(s) of one read sent with other values of {ctx.name} and "
                    f"answered differently with nothing written between, fewer than {params.min_pairs}")
    pair = ctx.answered_apart[0]
    return Match({"records": [pair.first, pair.second], "pairs": len(ctx.answered_apart)})


@predicate("credential_values_never_issued", context="write-credential-value", params=NoParams)
def credential_values_never_issued(ctx: WriteCredentialValueContext, params: NoParams) -> Outcome:
    """No recorded answer holds a value (or its secret part): the application did not issue it in
    the capture (a login's token, which a fresh login would replace)."""
    if ctx.issued_in:
        return Miss(f"recorded answer(s) {sorted(set(ctx.issued_in))[:3]} hold a value of {ctx.name}: issued")
    return Match({})


class HeaderNamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Header names, lower case."""


@predicate("credential_value_header_named", context="write-credential-value", params=HeaderNamesParams)
def credential_value_header_named(ctx: WriteCredentialValueContext, params: HeaderNamesParams) -> Outcome:
    """The header is one of the named ones."""
    if ctx.name in params.names:
        return Match({"name": ctx.name})
    return Miss(f"{ctx.name!r} is not one of {params.names}")


class SchemesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schemes: list[str] = Field(min_length=1)
    """Authentication schemes' words, lower case."""


@predicate("credential_values_of_scheme", context="write-credential-value", params=SchemesParams)
def credential_values_of_scheme(ctx: WriteCredentialValueContext, params: SchemesParams) -> Outcome:
    """Every value opens with one of the schemes' words (``Basic dXNlcjpwdw==``)."""
    words = {(value.split(None, 1) or [""])[0].lower() for value in ctx.values}
    if ctx.values and words <= set(params.schemes):
        return Match({"schemes": sorted(words)})
    return Miss(f"the values of {ctx.name} open with {sorted(words)}, not only {params.schemes}")


class SessionCookieParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_callers: int = Field(ge=2)
    max_callers: int = Field(ge=2)
    """Between these many callers (sessions) among the answered calls sending the cookie."""
    min_calls_each: int = Field(ge=1)
    """Each caller sent it with at least this many answered calls (a caller, not a stray value)."""
    not_named: list[str] = Field(default_factory=list)
    """Regular expressions (searched in the name, any case) of cookies that are no session (a CSRF
    token beside it, which a caller's session may rotate)."""
    refused_statuses: list[int] = Field(min_length=1)
    """The statuses by which the application refused another caller (401, 403)."""


@predicate("session_cookie_callers", context="write-credential-value", params=SessionCookieParams)
def session_cookie_callers(ctx: WriteCredentialValueContext, params: SessionCookieParams) -> Outcome:
    """A cookie tells a few callers apart (each the sessions its values belong to, renewals
    followed), and a call sent as another caller than the principal (the one most successful calls
    were sent as) was refused (401/403) where a call of the same method sent as the principal
    succeeded: the application answers each caller by their session. The first such cookie by name."""
    reasons = []
    for cookie in ctx.cookies:
        if any(re.search(pattern, cookie.name, re.IGNORECASE) for pattern in params.not_named):
            reasons.append(f"{cookie.name} is named as no session")
            continue
        sent: dict[int, int] = {}  # answered calls per caller, and the successful ones
        counts: dict[int, int] = {}
        for call in cookie.calls:
            sent[call.caller] = sent.get(call.caller, 0) + 1
            if 200 <= call.status < 300:
                counts[call.caller] = counts.get(call.caller, 0) + 1
        if not params.min_callers <= len(sent) <= params.max_callers:
            reasons.append(f"{cookie.name}: {len(sent)} caller(s), not {params.min_callers}-{params.max_callers}")
            continue
        if min(sent.values()) < params.min_calls_each:
            reasons.append(f"{cookie.name}: a caller sent it with fewer than {params.min_calls_each} calls")
            continue
        if not counts:
            reasons.append(f"{cookie.name}: no successful call sent it")
            continue
        top = max(counts.values())
        principal = next(caller for caller, n in counts.items() if n == top)
        methods = {call.method for call in cookie.calls if call.caller == principal and 200 <= call.status < 300}
        refused = next((call for call in cookie.calls if call.caller != principal and call.method in methods
                        and call.status in params.refused_statuses), None)
        if refused is None:
            reasons.append(f"{cookie.name}: no call sent as another caller was refused {params.refused_statuses} "
                           f"where the principal's call of its method succeeded")
            continue
        return Match({"cookie": cookie.name, "callers": len(sent), "record": refused.ordinal,
                      "status": refused.status})
    return Miss("; ".join(reasons) or f"{ctx.name} carries no cookies")


class BoundToPathParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_distinct: int = Field(ge=2)
    """At least this many distinct values, each bound to its own value of the parameter."""
    statuses: list[int] = Field(min_length=1)
    """A recorded value sent with another value of the parameter was refused with one of these."""


def bound_parameters(calls: list[CredentialCall]) -> dict[str, dict[str, str]]:
    """Per path parameter every call names, the one value of it each credential (by its digest) was
    sent with; a parameter some credential was sent with two values of is left out."""
    if not calls:
        return {}
    names = set(calls[0].args).intersection(*(call.args for call in calls[1:]))
    found: dict[str, dict[str, str]] = {}
    for name in sorted(names):
        bound: dict[str, str] = {}
        for call in calls:
            key = credential_digest(call.value, COMPARE_VALUE) or call.value
            if bound.setdefault(key, call.args[name]) != call.args[name]:
                break
        else:
            found[name] = bound
    return found


@predicate("credential_values_bound_to_path", context="write-credential-value", params=BoundToPathParams)
def credential_values_bound_to_path(ctx: WriteCredentialValueContext, params: BoundToPathParams) -> Outcome:
    """Every successful call sending the header names a path parameter, and each value was sent with
    one value of it (a project's credentials on its own project's paths), several values each bound
    to its own; and a call sending a recorded value with another value of that parameter was refused
    (one project's credentials on another project's path, 401): the application authorizes a value
    for that path value alone, which the model does not check otherwise."""
    if len(ctx.calls) < len(ctx.values) or not ctx.calls:
        return Miss(f"not every successful call sending {ctx.name} names its path arguments")
    for name, bound in bound_parameters(ctx.calls).items():
        if len(set(bound.values())) < params.min_distinct:
            continue
        for call in ctx.refused:
            key = credential_digest(call.value, COMPARE_VALUE) or call.value
            if call.status in params.statuses and key in bound and name in call.args \
                    and call.args[name] != bound[key]:
                return Match({"parameter": name, "record": call.ordinal, "status": call.status})
    return Miss(f"no path parameter binds {ctx.name}'s values (each sent with one value of it, "
                f"{params.min_distinct}+ values) with a recorded value refused {params.statuses} on another value")

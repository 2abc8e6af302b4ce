"""Predicates on an update tool's query: whether one parameter is a field mask naming the body
members the call applies (Google AIP-134's ``update_mask``; ``?update_mask=a,b``).

Context ``update-mask``: one query parameter the tool's successful calls sent, and per successful
call the names its value lists (split on the separator the rule names: the predicate splits) and
the body members the call sent.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .names import WordsParams, in_words


@context_model("update-mask")
class UpdateMaskContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    param: str
    """The query parameter's decoded name (``update_mask``)."""
    calls: tuple[tuple[str | None, tuple[str, ...]], ...]
    """Per successful call: the parameter's decoded value (None when the call did not send it) and
    the body members the call sent."""


class SeparatorParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    separator: str = Field(min_length=1)


def _names(value: str, separator: str) -> list[str]:
    return [name.strip() for name in value.split(separator) if name.strip()]


@predicate("mask_param_named", context="update-mask", params=WordsParams)
def mask_param_named(ctx: UpdateMaskContext, params: WordsParams) -> Outcome:
    """The parameter's name is one of the mask words."""
    return in_words(ctx.param, params)


@predicate("mask_names_sent_members", context="update-mask", params=SeparatorParams)
def mask_names_sent_members(ctx: UpdateMaskContext, params: SeparatorParams) -> Outcome:
    """Every successful call sending the parameter lists, split on the separator, at least one name,
    each a member its body sent (a mask naming a member the body leaves out clears it or is refused:
    the capture shows neither)."""
    masked = [(value, sent) for value, sent in ctx.calls if value is not None]
    if not masked:
        return Miss(f"no successful call sent {ctx.param!r}")
    for index, (value, sent) in enumerate(masked):
        names = _names(value, params.separator)
        if not names:
            return Miss(f"successful call {index} sent {ctx.param}={value!r}, naming no member")
        unsent = [name for name in names if name not in sent]
        if unsent:
            return Miss(f"successful call {index} names {unsent} in {ctx.param}, which its body does not send")
    return Match({"separator": params.separator})


@predicate("mask_narrower_than_body", context="update-mask", params=SeparatorParams)
def mask_narrower_than_body(ctx: UpdateMaskContext, params: SeparatorParams) -> Outcome:
    """Some successful call sent a body member its mask does not name: the capture shows what the
    application does with a member left out of the mask (the gate proves it left the entity's
    value as it was)."""
    for index, (value, sent) in enumerate(ctx.calls):
        if value is not None:
            left_out = [member for member in sent if member not in _names(value, params.separator)]
            if left_out:
                return Match({"record_index": index, "left_out": left_out})
    return Miss(f"every call's {ctx.param} names every member its body sent: what the application does with a "
                "member left out of the mask the capture does not show")

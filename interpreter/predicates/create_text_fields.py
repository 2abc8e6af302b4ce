"""Field predicates for text the create keeps or rebuilds: template, constant (context ``create-field``).

A template is a string holding a generated value (or, failing one, a value the call sent
under another name) as a delimited token; serving rebuilds it around the new value and keeps
the rest of its text. Whatever a template keeps, and a constant, may hold a path value of
the call: the evidence lists those (``kept_path_values``), since such a create is served
only in the exemplar's collection.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .create_contexts import CreateFieldContext
from .create_values import json_text, leaf_texts, same_json, slugify, token_spans


class TemplateParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    delimiters: str = Field(min_length=1)
    """Characters that may border a token (``/`` of a URL, ``-`` of a slug)."""
    slug_kept: str
    """The characters a slug keeps (as in ``field.slug``), for a slug of a sent member inside the text."""
    min_copied_length: int = Field(ge=1)
    """A value the call sent under another name is a token only from this length: a short word recurs by chance."""


Span = tuple[int, int, dict[str, str]]


@predicate("create_field_is_template", context="create-field", params=TemplateParams)
def create_field_is_template(ctx: CreateFieldContext, params: TemplateParams) -> Outcome:
    """A string holding a generated value, or else a value the call sent under another name, as a delimited token; rebuilt around it."""
    text = ctx.value
    if not isinstance(text, str) or not text:
        return Miss("not a non-empty string")
    spans = _choose(_generated_spans(ctx, text, params))
    kind = "generated"
    if not spans:
        spans, kind = _choose(_copied_spans(ctx, text, params)), "copied"
    if not spans:
        return Miss("holds no generated value, nor a value the call sent under another name, as a token")
    parts: list[Any] = []
    cursor = 0
    for start, end, source in spans:
        if start > cursor:
            parts.append(text[cursor:start])
        parts.append(source)
        cursor = end
    if cursor < len(text):
        parts.append(text[cursor:])
    kept = kept_path_values(text, ctx.path_args, params.delimiters, [(s, e) for s, e, _ in spans])
    return Match({"sources": [source for _, _, source in spans], "source_kind": kind,
                  "kept_path_values": kept, "op_params": {"parts": parts}})


def _generated_spans(ctx: CreateFieldContext, text: str, params: TemplateParams) -> list[Span]:
    """Tokens of values generated for other fields, and slugs of sent members the text holds.

    A slug equal to its member's own text is the sent value itself, which is no token: an
    echoed value may recur in unrelated text. So is a slug equal to another member the entity
    echoes (Superset's dashboard_title "Churn" beside slug "churn"): the text may hold that
    member's value, not the slug, and one call cannot tell which.
    """
    entity = ctx.whole_entity
    echoed = [v for k, v in ctx.body.items() if k in entity and same_json(entity[k], v)]
    spans: list[Span] = []
    for name, value in ctx.generated.items():
        token = json_text(value)
        if name != ctx.field and token:
            spans.extend((s, e, {"field": name}) for s, e in token_spans(text, token, params.delimiters))
        segment = ctx.address_segment(value) if name == ctx.id_field else None
        if name != ctx.field and segment:
            # the id the application drew inside the entity's own address (a prn around it)
            spans.extend((s, e, {"segment_of": name}) for s, e in token_spans(text, segment, params.delimiters))
    for member, sent in ctx.body.items():
        if isinstance(sent, str):
            slug = slugify(sent, params.slug_kept)
            if slug and slug != sent and not any(same_json(slug, e) for e in echoed):
                spans.extend((s, e, {"slug_of": member}) for s, e in token_spans(text, slug, params.delimiters))
    return spans


def _copied_spans(ctx: CreateFieldContext, text: str, params: TemplateParams) -> list[Span]:
    """Tokens of body strings the application stored under no member of their own name.

    An echoed value is no token, nor is a copy of one: it may recur in unrelated text.
    """
    entity = ctx.whole_entity
    echoed = [v for k, v in ctx.body.items() if k in entity and same_json(entity[k], v)]
    spans: list[Span] = []
    for member, sent in ctx.body.items():
        if not isinstance(sent, str) or len(sent) < params.min_copied_length:
            continue
        if any(same_json(sent, e) for e in echoed):
            continue
        if member == ctx.field:
            continue  # the field's own member stored otherwise (16:00 as 16:00:00): transformed, no template of it
        spans.extend((s, e, {"member": member}) for s, e in token_spans(text, sent, params.delimiters))
    return spans


def _choose(spans: list[Span]) -> list[Span]:
    """Non-overlapping spans, the longer first (a slug holding the id is the slug), in text order."""
    chosen: list[Span] = []
    for span in sorted(spans, key=lambda s: (-(s[1] - s[0]), s[0])):
        if all(span[1] <= c[0] or span[0] >= c[1] for c in chosen):
            chosen.append(span)
    return sorted(chosen, key=lambda s: s[0])


def kept_path_values(text: str, path_args: dict[str, str], delimiters: str,
                     rebuilt: list[tuple[int, int]] = ()) -> list[str]:
    """Path parameters whose value (as recorded or percent-decoded) is a token of the kept text."""
    found = []
    for name, raw in path_args.items():
        for spelling in {raw, unquote(raw)}:
            spans = token_spans(text, spelling, delimiters)
            if any(all(e <= s0 or s >= e0 for s0, e0 in rebuilt) for s, e in spans):
                found.append(name)
                break
    return found


class ConstantParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    delimiters: str = Field(min_length=1)
    """Characters that may border a path value inside the constant's text."""


@predicate("create_field_is_constant", context="create-field", params=ConstantParams)
def create_field_is_constant(ctx: CreateFieldContext, params: ConstantParams) -> Outcome:
    """Any value: the exemplar's value, kept; notes the path values its text holds as tokens, and
    (``held_generated``) the fields whose generated value a string inside an object or array holds
    as a token (a self link ``{"self": ".../roles/<new id>"}``), which the verdict weighs: kept, it
    would answer every later create with the exemplar's value."""
    kept = sorted({name for text in leaf_texts(ctx.value)
                   for name in kept_path_values(text, ctx.path_args, params.delimiters)})
    evidence: dict[str, Any] = {"kept_path_values": kept, "op_params": {"value": ctx.value}}
    held = _held_generated(ctx, params.delimiters)
    if held:
        evidence["held_generated"] = held
    return Match(evidence)


def _held_generated(ctx: CreateFieldContext, delimiters: str) -> list[str]:
    """The other fields whose generated value a string inside the (object or array) value holds as
    a delimited token; a string itself is a template's, and a number equal to a generated integer
    may be a count."""
    if not isinstance(ctx.value, (dict, list)):
        return []
    texts = _strings(ctx.value)
    return sorted(name for name, value in ctx.generated.items()
                  if name != ctx.field and (token := json_text(value))
                  and any(token_spans(text, token, delimiters) for text in texts))


def _strings(value: Any) -> list[str]:
    """Every string inside a JSON value (object keys aside)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


class NumberTextParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str = Field(min_length=1)
    """A regular expression the whole text matches when it is a number written as a string."""


@predicate("create_text_is_number", context="create-field", params=NumberTextParams)
def create_text_is_number(ctx: CreateFieldContext, params: NumberTextParams) -> Outcome:
    """The text is a number written as a string (a decimal amount, "5.00"): a generated id equal to
    its digits is a coincidence, not a token it was built around."""
    text = ctx.value
    if isinstance(text, str) and re.fullmatch(params.pattern, text):
        return Match({"number": text})
    return Miss("not a number written as a string")


class EncodedSentParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)
    """A sent value shorter than this may be decoded from the text by chance."""


@predicate("create_text_encodes_sent", context="create-field", params=EncodedSentParams)
def create_text_encodes_sent(ctx: CreateFieldContext, params: EncodedSentParams) -> Outcome:
    """The text is a value the call sent, percent-encoded (``order.%23`` for a sent ``order.#``): it
    follows the whole sent value through an encoding no rule rebuilds, so neither a template around
    a part of it (a slug) nor the exemplar's text kept would answer another call's value."""
    text = ctx.value
    if not isinstance(text, str) or "%" not in text:
        return Miss("not a text holding a percent-escape")
    decoded = unquote(text)
    for member, sent in ctx.body.items():
        if isinstance(sent, str) and len(sent) >= params.min_length and sent != text and decoded == sent:
            return Match({"member": member, "sent": sent})
    return Miss("decoded, it is no value the call sent")

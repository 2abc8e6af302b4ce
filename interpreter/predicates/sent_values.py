"""Predicates on the values a write tool's successful recorded calls sent in one body member:
context ``write-sent-values``, table ``write-sent-values``.

The gate proves a plan for the values its recorded calls sent. A value of a class none of them
held, where every recorded value kept to a shape (no negative number, array elements of one JSON
kind, arrays not much longer than those sent, text shaped as an e-mail address or a date), may be refused by the application (Prefect
answers 422 to a negative concurrency limit and to tags [1, 2]; Strapi 400 to an e-mail without
@), and a model storing it answers 2xx there: a wrong answer. A match's evidence is what serving
checks: ``schema``, JSON Schema keywords the member's value must keep to (also published in the
tool's input schema; a format's with a recorded value as its example), and ``described``, how a refusal names the class the value lacks.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("write-sent-values")
class WriteSentValuesContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sent: list[Any] = Field(default_factory=list)
    """The values the tool's successful recorded calls sent in the member (one per call sending it)."""


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and json_kind(value) in ("integer", "number")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@predicate("sent_numbers_never_negative", context="write-sent-values", params=NoParams)
def sent_numbers_never_negative(ctx: WriteSentValuesContext, params: NoParams) -> Outcome:
    """Numbers were sent (the value, or the elements of an array value), none negative: a negative
    one is unproven (a limit, a count, a size, a position an application refuses below zero)."""
    values = [v for v in ctx.sent if _is_number(v)]
    elements = [e for v in ctx.sent if isinstance(v, list) for e in v if _is_number(e)]
    negative = next((v for v in values + elements if v < 0), None)  # JsonNumber compares as its value
    if negative is not None:
        return Miss(f"a recorded call sent the negative number {negative}, and the gate checked it")
    if not values and not elements:
        return Miss("no number was sent in the member")
    schema: dict[str, Any] = {}
    if values:
        schema["minimum"] = 0
    if elements:
        schema["items"] = {"minimum": 0}
    return Match({"schema": schema, "described": "a number of zero or more"})


@predicate("sent_array_elements_of_kinds", context="write-sent-values", params=NoParams)
def sent_array_elements_of_kinds(ctx: WriteSentValuesContext, params: NoParams) -> Outcome:
    """Arrays were sent with elements, all of a few JSON kinds (tags as strings): an element of
    another kind is unproven (an application validating a typed list refuses or converts it)."""
    elements = [e for v in ctx.sent if isinstance(v, list) for e in v]
    if not elements:
        return Miss("no array with elements was sent in the member")
    kinds = {json_kind(e) for e in elements}
    if "number" in kinds:  # JSON Schema's number takes integers too
        kinds.discard("integer")
    names = sorted(kinds)
    plural = {"string": "strings", "integer": "integers", "number": "numbers", "boolean": "booleans",
              "object": "objects", "array": "arrays", "null": "nulls"}
    return Match({"schema": {"items": {"type": names}},
                  "described": "array elements that are " + " or ".join(plural.get(k, k) for k in names)})


class LengthBoundParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    spread: float = Field(ge=1)
    """The longest accepted array has the longest sent one's length times this, rounded up."""
    at_least: int = Field(ge=1)
    """The longest accepted array never has fewer elements than this (a capture of one or two tags
    says little of a third an application takes)."""


@predicate("sent_array_lengths_bound", context="write-sent-values", params=LengthBoundParams)
def sent_array_lengths_bound(ctx: WriteSentValuesContext, params: LengthBoundParams) -> Outcome:
    """Arrays were sent in the member: one much longer than any of them is unproven (an application
    caps a list, Feathers' TypeBox schemas with maxItems answering 400, or cuts it)."""
    arrays = [v for v in ctx.sent if isinstance(v, list)]
    if not arrays:
        return Miss("no array was sent in the member")
    bound = max(math.ceil(max(len(v) for v in arrays) * params.spread), params.at_least)
    return Match({"schema": {"maxItems": bound}, "described": f"an array of at most {bound} elements"})


class TextFormatParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression every string of the format fits whole (anchor it: ``^…$``)."""
    described: str
    """How a refusal names the format (``an e-mail address``)."""
    at_least: int = Field(ge=1)
    """How many strings must have been sent in the member before the format is taken as its rule."""


@predicate("sent_text_all_of_format", context="write-sent-values", params=TextFormatParams)
def sent_text_all_of_format(ctx: WriteSentValuesContext, params: TextFormatParams) -> Outcome:
    """Every string value the recorded calls sent in the member has the format: text without it is
    unproven (an application validating an e-mail address or a date refuses it)."""
    texts = [v for v in ctx.sent if isinstance(v, str)]
    if len(texts) < params.at_least:
        return Miss(f"{len(texts)} text value(s) sent, fewer than {params.at_least}")
    compiled = re.compile(params.pattern)
    other = next((t for t in texts if not compiled.search(t)), None)
    if other is not None:
        return Miss(f"a recorded call sent {_shown(other)}, which is not {params.described}")
    return Match({"schema": {"pattern": params.pattern, "examples": texts[:1]}, "described": params.described})

"""Predicates on the strings a write tool's recorded calls sent in a member the plan stores as sent:
context ``write-stored-text``, table ``write-stored-text``.

An application may store text otherwise than it was sent: WordPress escapes ``&`` as ``&amp;`` in a
term's name, strips tags and trims white space; a model echoing the sent text answers otherwise
there, a wrong answer. The capture shows the echo only for the text the recorded calls sent, so a
text class (markup characters, surrounding white space, an empty string) that none of them held is
unproven, and serving refuses a value holding it, state unchanged. The class is the rule's
``pattern``; a match's evidence is what serving checks (``pattern``, ``described``).
"""

from __future__ import annotations

import math
import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("write-stored-text")
class WriteStoredTextContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sent: list[str] = Field(default_factory=list)
    """Every string the tool's successful recorded calls sent in the member (inside objects and
    arrays too)."""


class TextClassParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression a string holds when it is of the class (searched, not fitted whole)."""
    described: str
    """How a refusal names the class (``markup characters (<, >, &)``)."""


@predicate("sent_text_never_held", context="write-stored-text", params=TextClassParams)
def sent_text_never_held(ctx: WriteStoredTextContext, params: TextClassParams) -> Outcome:
    """No string the recorded calls sent holds the class: how the application stores it is unproven."""
    compiled = re.compile(params.pattern)
    held = next((text for text in ctx.sent if compiled.search(text)), None)
    if held is not None:
        return Miss(f"a recorded call sent {excerpt(held, 40)!r}, and the gate checks how it was stored")
    return Match({"pattern": params.pattern, "described": params.described})


class LengthParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    spread: float = Field(ge=1)
    """The longest accepted text is the longest sent one's length times this, rounded up."""
    at_least: int = Field(ge=1)
    """The longest accepted text is never shorter than this (a capture of short names says little
    of a longer one an application takes)."""


@predicate("sent_text_bounds_length", context="write-stored-text", params=LengthParams)
def sent_text_bounds_length(ctx: WriteStoredTextContext, params: LengthParams) -> Outcome:
    """The texts sent bound the length the capture shows taken: a longer one is unproven (an
    application may refuse it, cut it, or keep the old value, as a 200-character column does)."""
    if not ctx.sent:
        return Miss("no text was sent in the member")
    bound = max(math.ceil(max(len(text) for text in ctx.sent) * params.spread), params.at_least)
    return Match({"pattern": f"[\\s\\S]{{{bound + 1}}}", "described": f"more than {bound} characters"})

"""A recorded refusal showing the application validating which characters one text member may hold
(context ``write-validated-value``).

Kolibri answers 400 'Enter a valid username. This value can contain only letters, numbers, and
underscores.' to a username with a space, where every username it took was lower-case letters,
digits and underscores. A model storing any text answers 200 there: a wrong answer. The refusal
shows an alphabet when its answer names the member and speaks of validity or characters, every
text successful calls sent the member is drawn from one alphabet, and the refused text holds a
character outside it. Serving then accepts only text of that alphabet (which wider one the
application takes, the capture cannot show): a layout of one run of any length.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .write_values import WriteValidatedValueContext, one_named_new_member


class AlphabetParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The statuses an application refuses a body's value with (as ``RefusalParams.statuses``)."""
    min_distinct: int = Field(ge=2)
    """How many distinct successful texts of the member must share the alphabet (one text shows only
    its own characters)."""
    alphabets: list[str] = Field(min_length=1)
    """The alphabets a member's text may be drawn from, narrowest first, each a regular expression
    character class body (``0-9a-z_``)."""
    words: list[str] = Field(min_length=1)
    """Words of which the answer must hold one (any letter case, whole words): a refusal speaking of
    a valid value or of characters, not of a taken one."""


def _alphabet(texts: list[str], alphabets: list[str]) -> str | None:
    """The narrowest alphabet every character of every text is drawn from, or None."""
    return next((a for a in alphabets if all(re.fullmatch(f"[{a}]*", t) for t in texts)), None)


@predicate("refusal_names_one_member_off_alphabet", context="write-validated-value", params=AlphabetParams)
def refusal_names_one_member_off_alphabet(ctx: WriteValidatedValueContext, params: AlphabetParams) -> Outcome:
    """The refusal's answer names exactly one served member whose value only the refused call sent,
    and speaks of validity or characters; the texts the type's successful creates and updates sent it
    are drawn from one alphabet, and the refused text holds a character outside it."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    spoken = {word.lower() for word in re.findall(r"[^\W\d_]+", ctx.refusal.answer)}
    if not spoken & {word.lower() for word in params.words}:
        return Miss(f"the answer speaks of no valid value or characters (none of {', '.join(params.words)})")
    member = one_named_new_member(ctx)
    if isinstance(member, Miss):
        return member
    refused = ctx.refusal.sent[member]
    if not isinstance(refused, str):
        return Miss(f"{member!r}: the refused value is no text")
    values = [s[member] for s in ctx.successes + ctx.kin_successes if member in s]
    if not all(isinstance(v, str) and v for v in values):
        return Miss(f"{member!r}: a successful value is no text, or empty")
    if len({dumps(v) for v in values}) < params.min_distinct:
        return Miss(f"{member!r}: fewer than {params.min_distinct} distinct successful texts")
    alphabet = _alphabet(values, params.alphabets)
    if alphabet is None:
        return Miss(f"{member!r}: the successful texts are drawn from none of the alphabets")
    if re.fullmatch(f"[{alphabet}]*", refused):
        return Miss(f"{member!r}: the refused text is drawn from the successful texts' alphabet [{alphabet}] too")
    return Match({"member": member, "record": ctx.refusal.ordinal, "status": ctx.refusal.status,
                  "pattern": f"^[{alphabet}]+$"})

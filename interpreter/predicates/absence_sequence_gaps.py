"""Predicates on the ids an item view's type held at the capture's start: context
``absence-sequence-gap``, table ``view-absence-sequence-gaps``.

Numbered ids that skip a number below the highest held one show that the application numbered
an entity there which the capture never shows (RT's hidden ___Approvals queue 2 between queues 1
and 3; a sequence shared with another type). The learned absence is proven only for ids the
capture recorded as missing, so a skipped number is refused instead; a match's evidence is the
span of held numbers serving checks (``low``, ``high``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("absence-sequence-gap")
class AbsenceSequenceGapContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    held: list[str] = Field(default_factory=list)
    """Every id (as text) the type's collections held at the capture's start."""


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _number(value: str) -> int | None:
    """A decimal number written without a sign or leading zeros, else None."""
    return int(value) if value.isdigit() and value.isascii() and (value == "0" or not value.startswith("0")) else None


@predicate("held_numbers_skip", context="absence-sequence-gap", params=NoParams)
def held_numbers_skip(ctx: AbsenceSequenceGapContext, params: NoParams) -> Outcome:
    """The held ids are all numbers, two or more, and skip one below the highest."""
    if len(set(ctx.held)) < 2:
        return Miss("fewer than two ids are held")
    numbers = set()
    for value in ctx.held:
        number = _number(value)
        if number is None:
            return Miss(f"the held id {value!r} is no number written plainly")
        numbers.add(number)
    low, high = min(numbers), max(numbers)
    if len(numbers) == high - low + 1:
        return Miss(f"the held numbers {low}..{high} skip no number")
    return Match({"low": low, "high": high})

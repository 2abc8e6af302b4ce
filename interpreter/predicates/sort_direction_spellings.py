"""Predicates on a sort direction spelling no recording sent, beside one a recording did (context
``sort-direction-spelling``, table ``view-sort-direction-spellings``): whether an application that
read the recorded spelling as the learned sort does reads the other one too. Applications differ on
spellings (one answers 400 to ``Desc`` or ``descending``, another ignores it and sorts ascending),
so serving refuses every spelling no recording sent unless a rule here accepts it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("sort-direction-spelling")
class SortDirectionSpellingContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    recorded: str = ""
    """A direction spelling a line that proved the sort sent, as sent (``desc``, ``-1``); empty
    when its lines sent none (plain keys only)."""
    candidate: str
    """A spelling no such line sent (``asc``, ``ASC``, ``Desc``)."""
    directions: dict[str, str] = Field(default_factory=dict)
    """The learned sort's direction words, lower case, each -> ``asc`` or ``desc``."""
    elsewhere: list[str] = Field(default_factory=list)
    """The spellings the same parameter, learned by the same rule, is accepted with on the
    capture's other lists (``order=-title`` proven on one list, ``order=name`` alone on this)."""


def _case(text: str) -> str | None:
    """``lower``, ``upper``, ``none`` (no letters: ``-1``), or None (mixed: ``Desc``)."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "none"
    if all(c.islower() for c in letters):
        return "lower"
    if all(c.isupper() for c in letters):
        return "upper"
    return None


@predicate("direction_opposite_in_same_case", context="sort-direction-spelling", params=NoParams)
def direction_opposite_in_same_case(ctx: SortDirectionSpellingContext, params: NoParams) -> Outcome:
    """The candidate is a direction word of the sort for the other direction than the recorded
    spelling, in the same letter case (all lower, all upper, or none: ``1`` beside ``-1``)."""
    recorded = ctx.directions.get(ctx.recorded.lower())
    other = ctx.directions.get(ctx.candidate.lower())
    if recorded is None or other is None:
        return Miss(f"{ctx.recorded!r} or {ctx.candidate!r} is none of the sort's direction words {sorted(ctx.directions)}")
    if recorded == other:
        return Miss(f"{ctx.candidate!r} spells the same direction ({other}) as {ctx.recorded!r} otherwise")
    case = _case(ctx.recorded)
    if case is None or _case(ctx.candidate) != case:
        return Miss(f"{ctx.candidate!r} is not in the letter case of {ctx.recorded!r}")
    return Match({"recorded": ctx.recorded, "candidate": ctx.candidate, "direction": other})


@predicate("direction_sent_on_another_list", context="sort-direction-spelling", params=NoParams)
def direction_sent_on_another_list(ctx: SortDirectionSpellingContext, params: NoParams) -> Outcome:
    """The candidate is a spelling the same parameter, learned by the same rule, is accepted with
    on another list of the capture."""
    if ctx.candidate in ctx.elsewhere:
        return Match({"candidate": ctx.candidate, "elsewhere": ctx.elsewhere})
    return Miss(f"{ctx.candidate!r} is none of the spellings another list accepts {sorted(ctx.elsewhere)}")

"""Predicates on how a list read's application answers an empty listing (``view-empty-answers``).

Context ``empty-answer``: the envelope the list's listing answers hold beside the list (each
answer's member names, nested ones spelled as JSON pointers), the page arithmetic its envelope
members compute (``view-list-members`` roles at their pointers), the list's own empty answers, and
the same of every other list of the application. An application may answer an empty list otherwise
than a listing one (Alerta adds ``"message": "not found"`` and counts 0 pages), so an empty listing is
rendered only where such an answer shows the envelope holding as it is.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class ListEnvelope(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str
    listing: list[list[str]] = Field(default_factory=list)
    """Per answer listing one member or more, the members it holds beside the list."""
    arithmetic: list[str] = Field(default_factory=list)
    """The envelope members' roles, each ``pointer role`` (what the state computes of a page)."""
    empty: list[int] = Field(default_factory=list)
    """The ordinals of the answers listing nothing."""
    empty_members: list[list[str]] = Field(default_factory=list)
    """Per empty answer, the members it holds beside the list."""


@context_model("empty-answer")
class EmptyAnswerContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    own: ListEnvelope
    siblings: list[ListEnvelope] = Field(default_factory=list)
    """The application's other list views."""


def _kept(envelope: ListEnvelope) -> str | None:
    """Why the list's empty answers do not hold the envelope its listing answers hold (None: they do)."""
    shapes = {tuple(sorted(members)) for members in envelope.listing}
    if len(shapes) > 1:
        return f"{envelope.tool}'s listing answers hold different envelopes ({sorted(shapes)[:2]})"
    for ordinal, members in zip(envelope.empty, envelope.empty_members):
        if shapes and tuple(sorted(members)) not in shapes:
            return (f"{envelope.tool}'s empty answer (record {ordinal}) holds {sorted(members)} beside its list, its"
                    f" listing answers {sorted(next(iter(shapes)))}: an empty listing is answered otherwise")
    return None


@predicate("empty_answer_recorded", context="empty-answer")
def empty_answer_recorded(ctx: EmptyAnswerContext, params: BaseModel) -> Outcome:
    """The list answered empty, with the members its listing answers hold."""
    if not ctx.own.empty:
        return Miss(f"{ctx.own.tool} never answered an empty listing")
    why = _kept(ctx.own)
    if why is not None:
        return Miss(why)
    return Match({"tool": ctx.own.tool, "records": ctx.own.empty[:8]})


@predicate("sibling_empty_answer_same_envelope", context="empty-answer")
def sibling_empty_answer_same_envelope(ctx: EmptyAnswerContext, params: BaseModel) -> Outcome:
    """Another list, whose listing answers hold the members this list's hold and whose envelope
    computes the same page arithmetic, answered empty with those members."""
    own = {tuple(sorted(members)) for members in ctx.own.listing}
    if len(own) != 1:
        return Miss(f"{ctx.own.tool}'s listing answers hold " + ("no envelope to compare" if not own
                                                                  else "different envelopes"))
    misses = []
    for sibling in ctx.siblings:
        if not sibling.empty:
            continue
        theirs = {tuple(sorted(members)) for members in sibling.listing}
        if theirs != own:
            misses.append(f"{sibling.tool} lists under {sorted(theirs)[:1] or 'no listing answer'}")
            continue
        if sorted(sibling.arithmetic) != sorted(ctx.own.arithmetic):
            misses.append(f"{sibling.tool} computes {sorted(sibling.arithmetic)}")
            continue
        why = _kept(sibling)
        if why is not None:
            misses.append(why)
            continue
        return Match({"tool": sibling.tool, "records": sibling.empty[:8]})
    if not misses:
        return Miss("no other list answered an empty listing")
    return Miss(f"no other list answered empty under this envelope ({sorted(next(iter(own)))},"
                f" {sorted(ctx.own.arithmetic)}): " + "; ".join(misses[:4]))

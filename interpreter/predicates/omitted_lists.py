"""Predicates on a list read's answer that carries no list at all (``view-omitted-lists``).

Context ``omitted-list``: the member the tool's other answers list their members under, the
members this answer holds, and the members each of those answers holds beside the list. An
application may leave an empty list out of its answer (Mailman's empty page
``{"start", "total_size", "http_etag"}``, protobuf JSON omitting an empty repeated field).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("omitted-list")
class OmittedListContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    """The member the tool's other answers list their members under."""
    members: list[str] = Field(default_factory=list)
    """The members this answer holds (it holds no ``member``)."""
    beside: list[list[str]] = Field(default_factory=list)
    """Per other answer listing under ``member``, the members it holds beside it."""
    arrays: list[str] = Field(default_factory=list)
    """The members of this answer holding an array."""


@predicate("omitted_list_keeps_the_envelope", context="omitted-list")
def omitted_list_keeps_the_envelope(ctx: OmittedListContext, params: BaseModel) -> Outcome:
    """The answer holds exactly the members every listing answer holds beside the list (one at
    least), and no array: the envelope of an empty listing, the list left out."""
    if not ctx.beside:
        return Miss(f"no answer lists its members under {ctx.member!r}")
    if ctx.arrays:
        return Miss(f"it holds arrays under {ctx.arrays}: another shape, not an empty listing")
    if not ctx.members:
        return Miss("it holds no member beside a list")
    wanted = set(ctx.members)
    odd = next((sorted(b) for b in ctx.beside if set(b) != wanted), None)
    if odd is not None:
        return Miss(f"it holds {sorted(wanted)}, while a listing answer holds {odd} beside {ctx.member!r}")
    return Match({"member": ctx.member, "envelope": sorted(wanted)})

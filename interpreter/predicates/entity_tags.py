"""Predicates on the ``ETag`` an item view's reads recorded: whether it spells one member of the
entity each read shows (a version counter), so an answer rendered from the state can carry the tag
the state implies.

Context ``entity-tag``: one candidate member, how many successful item reads the view has, and per
read that recorded a tag, the tag and the member's value in the entity it shows.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("entity-tag")
class EntityTagContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    reads: int
    """The view's successful item reads."""
    sightings: tuple[tuple[str, Any], ...]
    """Per read that recorded the header: its tag and the member's value in the entity it shows."""


class TagFormsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    forms: list[str] = Field(min_length=1)
    """How a tag may spell the member's text, ``{}`` standing for it (``"{}"``, ``W/"{}"``)."""
    min_distinct: int = Field(ge=1)


@predicate("tag_on_every_read", context="entity-tag")
def tag_on_every_read(ctx: EntityTagContext, params: BaseModel) -> Outcome:
    """Every successful item read recorded the header (an application that tags only some answers
    follows a rule the capture does not show)."""
    if ctx.reads and len(ctx.sightings) == ctx.reads:
        return Match({"reads": ctx.reads})
    return Miss(f"{len(ctx.sightings)} of {ctx.reads} successful item reads recorded a tag")


@predicate("tag_spells_member", context="entity-tag", params=TagFormsParams)
def tag_spells_member(ctx: EntityTagContext, params: TagFormsParams) -> Outcome:
    """One form spells, in every read's tag, the member's value (an integer or a string) in the
    entity that read shows, over at least ``min_distinct`` different tags (a tag that never changed
    shows no derivation)."""
    values = [value for _, value in ctx.sightings]
    if not values or any(isinstance(v, bool) or not isinstance(v, (int, str)) for v in values):
        return Miss(f"{ctx.member!r} is not an integer or string in every tagged read")
    distinct = len({tag for tag, _ in ctx.sightings})
    if distinct < params.min_distinct:
        return Miss(f"the reads recorded {distinct} different tag(s), under {params.min_distinct}")
    for form in params.forms:
        if all(tag == form.replace("{}", str(value)) for tag, value in ctx.sightings):
            return Match({"form": form})
    tag, value = ctx.sightings[0]
    return Miss(f"no form of {params.forms} spells {ctx.member!r} ({value!r}) as the tag {tag!r}")

"""Predicates on a member of one type's entities that may copy a member of the entity its reference
names (context ``reference-copy``).

An item's ``tax_rate`` repeating the ``rate`` of the tax rule its ``tax_rule`` names: the
application fills it in from the rule when the item is made and rewrites it when the rule's rate
changes. What the capture shows of it is every pair of values: each entity of the holding type the
capture shows (the initial state, every later read and write answer) whose reference names an
entity of the referenced type, beside that entity as held at that moment. A copy is told by every
pair being equal, over enough pairs and enough distinct values that a coincidence (two constants
alike, one entity named throughout) is ruled out.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("reference-copy")
class ReferenceCopyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    holder: str
    """The type whose entities may hold the copy."""
    member: str
    """The holder's member naming the referenced entity (a reference ``delete-referrers`` takes)."""
    field: str
    """The holder's member that may hold the copy."""
    source_type: str
    source: str
    """The referenced entity's member it may copy."""
    pairs: int = 0
    """Sightings of a holder entity naming a held entity of the referenced type, with both values."""
    equal: int = 0
    """Of those, the pairs whose two values are equal."""
    overridden: int = 0
    """Of those, the pairs whose values differ where a recorded call had sent the holder's field
    itself (a submission's own duration beside its type's default_duration): the holder's own value
    in place of the copy."""
    distinct: int = 0
    """The distinct values the equal pairs show."""
    kinds: list[str] = Field(default_factory=list)
    """The JSON kinds of those values (string, number, boolean, null, object, array)."""
    named_types: list[str] = Field(default_factory=list)
    """Every type ``delete-referrers`` takes the holder's member for a reference to (more than one
    where ids of several types collide); empty: the referenced type alone."""


class CopiedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_pairs: int = Field(ge=1)
    """Fewer sightings show too little to tell a copy from a coincidence."""
    min_distinct: int = Field(ge=1)
    """One value throughout may be a constant both types hold alike."""
    kinds: list[str] = Field(min_length=1)
    """The JSON kinds a copy's values may be (null and booleans coincide too easily)."""


@predicate("copied_through_reference", context="reference-copy", params=CopiedParams)
def copied_through_reference(ctx: ReferenceCopyContext, params: CopiedParams) -> Outcome:
    """Every sighting of the holder naming a held entity shows the field equal to that entity's member, over at least min_pairs sightings and min_distinct values, each of one of the kinds."""
    if ctx.pairs < params.min_pairs:
        return Miss(f"{ctx.pairs} sightings name a held {ctx.source_type} entity (fewer than {params.min_pairs})")
    if ctx.equal < ctx.pairs:
        return Miss(f"{ctx.pairs - ctx.equal} of {ctx.pairs} sightings show {ctx.field!r} otherwise than "
                    f"the {ctx.source!r} of the entity {ctx.member!r} names")
    if ctx.distinct < params.min_distinct:
        return Miss(f"{ctx.distinct} distinct value(s) (fewer than {params.min_distinct}): may be a constant both hold")
    other = sorted(set(ctx.kinds) - set(params.kinds))
    if other:
        return Miss(f"values of kind {', '.join(other)}")
    return Match({"field": ctx.field, "member": ctx.member, "source": f"{ctx.source_type}.{ctx.source}",
                  "pairs": ctx.pairs, "distinct": ctx.distinct})


@predicate("copied_unless_sent", context="reference-copy", params=CopiedParams)
def copied_unless_sent(ctx: ReferenceCopyContext, params: CopiedParams) -> Outcome:
    """Every sighting of the holder naming a held entity shows the field equal to that entity's
    member, but those whose holder a recorded call had sent the field for (at least one), over at
    least min_pairs equal sightings and min_distinct values, each of one of the kinds: a copy the
    holder's own value replaces."""
    if ctx.overridden == 0:
        return Miss("no sighting differs where a call sent the field itself")
    if ctx.equal < params.min_pairs:
        return Miss(f"{ctx.equal} sightings show the copy (fewer than {params.min_pairs})")
    if ctx.equal + ctx.overridden < ctx.pairs:
        return Miss(f"{ctx.pairs - ctx.equal - ctx.overridden} of {ctx.pairs} sightings show {ctx.field!r} otherwise "
                    f"than the {ctx.source!r} of the entity {ctx.member!r} names, with no call sending it")
    if ctx.distinct < params.min_distinct:
        return Miss(f"{ctx.distinct} distinct value(s) (fewer than {params.min_distinct}): may be a constant both hold")
    other = sorted(set(ctx.kinds) - set(params.kinds))
    if other:
        return Miss(f"values of kind {', '.join(other)}")
    return Match({"field": ctx.field, "member": ctx.member, "source": f"{ctx.source_type}.{ctx.source}",
                  "pairs": ctx.pairs, "overridden": ctx.overridden, "distinct": ctx.distinct})


@predicate("reference_names_one_type", context="reference-copy", params=NoParams)
def reference_names_one_type(ctx: ReferenceCopyContext, params: NoParams) -> Outcome:
    """The holder's member is taken for a reference to the referenced type alone: one taken for a
    reference to several (ids of several types collide, and none is named by the member) may name
    any of them, so which entity it would copy from cannot be told."""
    others = sorted(t for t in ctx.named_types if t != ctx.source_type)
    if others:
        return Miss(f"{ctx.member!r} is taken for a reference to {len(others) + 1} types "
                    f"({', '.join(sorted([ctx.source_type, *others]))}): which one it copies from cannot be told")
    return Match({"named_types": [ctx.source_type]})

"""Predicates on one member of the entities a list view shows, where its recordings show it
otherwise than the item reads of the same entity (one entity type, another projection per
endpoint: Label Studio's task list shows ``annotators: []`` where the task's own read shows
``[1]``).

Context ``list-projection``: what the list's recordings (those of one projection: the lines
showing the same fields) and the item reads paired with them show of the member. A pair is one
entity listed by the list and read by an item read with no write between the two.
"""

from __future__ import annotations

from typing import Any

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("list-projection")
class ListProjectionContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The member of the listed entities."""
    pairs: int = 0
    """List sightings of an entity paired with an item read of it, no write between."""
    differing: int = 0
    """Of those pairs, how many show the member with another value in the list."""
    per_response: bool = False
    """One list line showed one entity's member with two values, no write between its two answers."""
    list_values: int = 0
    """How many different values the list's recordings (of this projection) show for it."""
    list_entities: int = 0
    """How many different entities the list's recordings showed it for."""
    list_value: Any = None
    """The value, when the list showed one only."""
    texts: tuple[str, ...] = ()
    """Every value the list and the item reads paired with it showed, when all are strings (else none)."""
    reference_fields: tuple[str, ...] = ()
    """The members of an object, in every pair showing a value, that the item read shows the member as
    and that holds the scalar the list shows there (a list's ``playbook: 1`` beside the item's
    ``playbook: {"id": 1, ...}``: ``id``); none where some pair shows anything else."""


class EntitiesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_entities: int = Field(ge=1)


@predicate("list_projection_per_response", context="list-projection")
def list_projection_per_response(ctx: ListProjectionContext, params: BaseModel) -> Outcome:
    """One list line showed one entity's member with two values and no write between (a value per
    response, such as a time: not a projection)."""
    if ctx.per_response:
        return Match()
    return Miss("every list line showed each entity's value again until a write")


class PatternParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str


@predicate("list_projection_texts_match", context="list-projection", params=PatternParams)
def list_projection_texts_match(ctx: ListProjectionContext, params: PatternParams) -> Outcome:
    """Every value the list and its paired item reads showed is a string matching ``pattern``
    (the whole string, case-insensitive)."""
    if not ctx.texts:
        return Miss("not every value shown is a string")
    pattern = re.compile(params.pattern, re.IGNORECASE)
    other = next((text for text in ctx.texts if not pattern.fullmatch(text)), None)
    if other is not None:
        return Miss(f"{other!r} does not match")
    return Match({"texts": list(ctx.texts[:3])})


@predicate("list_projection_differs_from_items", context="list-projection", params=EntitiesParams)
def list_projection_differs_from_items(ctx: ListProjectionContext, params: EntitiesParams) -> Outcome:
    """At least ``min_entities`` pairs show the member with another value in the list than in the
    item read of the same entity at the same point of the timeline."""
    if ctx.differing >= params.min_entities:
        return Match({"differing": ctx.differing, "pairs": ctx.pairs})
    return Miss(f"{ctx.differing} of {ctx.pairs} pairs with an item read differ, fewer than {params.min_entities}")


@predicate("list_projection_one_value", context="list-projection", params=EntitiesParams)
def list_projection_one_value(ctx: ListProjectionContext, params: EntitiesParams) -> Outcome:
    """The list showed one value only, for at least ``min_entities`` different entities."""
    if ctx.list_values != 1:
        return Miss(f"the list shows {ctx.list_values} different values")
    if ctx.list_entities < params.min_entities:
        return Miss(f"the list showed it for {ctx.list_entities} entities, fewer than {params.min_entities}")
    return Match({"value": ctx.list_value, "entities": ctx.list_entities})


class PairsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_pairs: int = Field(ge=1)


@predicate("list_projection_reference", context="list-projection", params=PairsParams)
def list_projection_reference(ctx: ListProjectionContext, params: PairsParams) -> Outcome:
    """Every pair showing a value (``min_pairs`` pairs at least) shows, in the item read, an object
    one member of which (the same member in every pair, and one only) holds the scalar the list
    shows: the list names the object by that member, a reference, which the state's object determines."""
    if ctx.pairs < params.min_pairs:
        return Miss(f"{ctx.pairs} pairs with an item read, fewer than {params.min_pairs}")
    if len(ctx.reference_fields) == 1:
        return Match({"reference_field": ctx.reference_fields[0], "pairs": ctx.pairs})
    if ctx.reference_fields:
        return Miss(f"{len(ctx.reference_fields)} members of the item's object hold the listed value "
                    f"({', '.join(ctx.reference_fields[:3])}): which one the list shows is not determined")
    return Miss("no member of an object the item reads show holds the listed value in every pair")

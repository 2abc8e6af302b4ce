"""Predicates on a path segment of a type's collection template whose recorded values may each name
another kind of entity: context ``write-collection-segment``, table ``write-collection-segments``.

Many APIs address every kind of object through one template whose collection segment is a
parameter (Parse's ``/classes/{class}``, a CMS's ``/items/{collection}/{id}``): each value is its
own collection holding objects of its own members, and a write plan learned from one value's
calls explains none of another's. When the table says a segment names types, each of its values
gets a plan of its own, learned from and proven on that value's calls only (``plans/collection_split``).

The context gives, per recorded value, the members the value's entities show (held in the initial
state); the predicate only compares those sets.
"""

from __future__ import annotations

from itertools import combinations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("write-collection-segment")
class WriteCollectionSegmentContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    segment: str
    """The template parameter (``class_id``)."""
    members: dict[str, list[str]] = Field(default_factory=dict)
    """Per value the segment was recorded with (by a write call, or a held collection): the members
    the entities the initial state holds there show (none for a value only written: the members
    a call sends are what it chose to send, as a token's optional note, not what its kind holds)."""


class DistinctParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(ge=2)
    """How many values must show members at least."""


@predicate("values_hold_unnested_members", context="write-collection-segment", params=DistinctParams)
def values_hold_unnested_members(ctx: WriteCollectionSegmentContext, params: DistinctParams) -> Outcome:
    """Members every value showing some shows are set aside (an envelope, the identity, clocks); then
    at least ``min_values`` values show members of their own, and none's are all among another's:
    each holds a member some other value never shows, as different kinds of objects do (an
    ``Author``'s ``born``, a ``Book``'s ``title``), where one kind's collections under different
    parents (a user's posts and another's) show the same members or some of them."""
    showing = [set(members) for members in ctx.members.values() if members]
    common = set.intersection(*showing) if showing else set()
    shown = {value: set(members) - common for value, members in ctx.members.items() if set(members) - common}
    if len(shown) < params.min_values:
        return Miss(f"{len(shown)} value(s) of {ctx.segment} show members of their own, fewer than "
                    f"{params.min_values}")
    for first, second in combinations(sorted(shown), 2):
        if shown[first] <= shown[second] or shown[second] <= shown[first]:
            inner, outer = (first, second) if shown[first] <= shown[second] else (second, first)
            return Miss(f"every member {inner!r} shows is one {outer!r} shows too")
    return Match({"values": sorted(shown), "shared": sorted(common)})

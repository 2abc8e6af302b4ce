"""Predicates on what the capture shows of an updated entity's place in its collection's lists:
context ``update-list-place``, table ``update-list-places``.

Serving keeps an updated entity where its collection held it. An application listing its rows
with no sort key (PostgreSQL's storage order) may list an updated row last instead; only a
recorded whole list read after an update of an entity that was not last shows which. The context
holds those lists, as record ordinals: ``kept`` where an entity that was not last kept its place,
``last_kept`` where the last one stayed last, ``moved`` where the order changed.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("update-list-place")
class UpdateListPlaceContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kept: list[int] = Field(default_factory=list)
    """Whole list reads (ordinals) that, read after a call of the tool changed an entity the list
    before showed not last, list the members both show in the order before, where moving the
    changed entities last would have listed them otherwise."""
    last_kept: list[int] = Field(default_factory=list)
    """Such list reads after a call changed the entity listed last, still listing every shared
    member in the order before (the changed one last)."""
    moved: list[int] = Field(default_factory=list)
    """Such list reads listing the shared members in another order than before."""
    moved_sorted: list[int] = Field(default_factory=list)
    """Of ``moved``, those moving the updated entities last explains, but which a member of the
    entities sorts as well, both before and after (a name the update changed, a clock it stamped):
    they show no storage order."""
    first_kept: list[int] = Field(default_factory=list)
    """Such list reads after calls changed the entities listed first, in the order moving each
    changed entity first gives as well (the list cannot tell keeping from moving first)."""
    moved_first: list[int] = Field(default_factory=list)
    """Of ``moved``, those listing the shared members in the order before with each entity the calls
    between changed moved first, the last changed first (a list newest written first), where no
    member sorts both lists alike but a clock every update between stamps."""
    moved_first_sorted: list[int] = Field(default_factory=list)
    """Of ``moved``, those moving the changed entities first explains, but which a member the updates
    do not stamp with their clock sorts as well (a name the update changed)."""
    moved_last: list[int] = Field(default_factory=list)
    """Of ``moved``, those listing the shared members in the order before with each entity the calls
    between changed moved last, in the order they were changed (an unsorted table's storage order,
    where PostgreSQL writes an updated row anew at the end)."""


class ListingParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_listings: int = Field(ge=1)
    """How many recorded lists must show the entity in place."""


@predicate("updated_entity_listed_in_place", context="update-list-place", params=ListingParams)
def updated_entity_listed_in_place(ctx: UpdateListPlaceContext, params: ListingParams) -> Outcome:
    """Enough recorded lists show an updated entity that was not last in its place, none elsewhere."""
    if ctx.moved:
        return Miss(f"record {ctx.moved[0]} lists the members in another order after an update")
    if len(ctx.kept) < params.min_listings:
        return Miss(f"no recorded list shows where an updated entity that was not last goes "
                    f"({len(ctx.kept)} of {params.min_listings} needed)")
    return Match({"kept": list(ctx.kept)})


@predicate("last_updated_entity_listed_last", context="update-list-place", params=ListingParams)
def last_updated_entity_listed_last(ctx: UpdateListPlaceContext, params: ListingParams) -> Outcome:
    """Enough recorded lists show an updated entity that was listed last still last, none a changed
    order: an update of the last entity is proven to leave the list as it was (an application
    listing by modification time, newest first, would have listed it first)."""
    if ctx.moved:
        return Miss(f"record {ctx.moved[0]} lists the members in another order after an update")
    if len(ctx.last_kept) < params.min_listings:
        return Miss(f"no recorded list shows where an updated entity that was listed last goes "
                    f"({len(ctx.last_kept)} of {params.min_listings} needed)")
    return Match({"last_kept": list(ctx.last_kept)})


@predicate("updated_entity_listed_moved_last", context="update-list-place", params=ListingParams)
def updated_entity_listed_moved_last(ctx: UpdateListPlaceContext, params: ListingParams) -> Outcome:
    """Enough recorded lists show each updated entity moved last, in the order the updates ran, and
    none shows an updated entity that was not last kept in its place or another order."""
    if ctx.kept:
        return Miss(f"record {ctx.kept[0]} lists an updated entity in its place")
    if ctx.moved_sorted:
        return Miss(f"record {ctx.moved_sorted[0]} lists the updated entities last, but a member of the entities "
                    "sorts both lists alike")
    return _every_list_moved(ctx, params, ctx.moved_last, "moved_last", "last",
                             "an updated entity that was not last moved last")


@predicate("updated_entity_listed_moved_first", context="update-list-place", params=ListingParams)
def updated_entity_listed_moved_first(ctx: UpdateListPlaceContext, params: ListingParams) -> Outcome:
    """Enough recorded lists show each updated entity moved first, the last updated first, and none
    shows an updated entity kept in its place (but the one listed first), another order, or an order
    a member the updates do not stamp sorts as well."""
    kept = sorted(set(ctx.kept) - set(ctx.first_kept))
    if kept:
        return Miss(f"record {kept[0]} lists an updated entity in its place")
    if ctx.last_kept:
        return Miss(f"record {ctx.last_kept[0]} lists the updated entity that was last still last")
    if ctx.moved_first_sorted:
        return Miss(f"record {ctx.moved_first_sorted[0]} lists the updated entities first, but a member the "
                    "updates do not stamp with their clock sorts both lists alike")
    return _every_list_moved(ctx, params, ctx.moved_first, "moved_first", "first", "an updated entity moved first")


def _every_list_moved(ctx: UpdateListPlaceContext, params: ListingParams, moved: list[int], name: str, where: str,
                      shown: str) -> Outcome:
    """Every list whose order changed (``moved``) moved the updated entities ``where``, enough of them."""
    others = sorted(set(ctx.moved) - set(moved))
    if others:
        return Miss(f"record {others[0]} lists the members in an order moving the updated entities {where} does not give")
    if len(moved) < params.min_listings:
        return Miss(f"no recorded list shows {shown} ({len(moved)} of {params.min_listings} needed)")
    return Match({name: list(moved)})

"""Predicates on the routes beside an item path and the ids of its type: context ``reserved-id``,
table ``view-reserved-ids``.

A learned absence answers any id the item path names. Where the application keeps routes of its
own beside the item path (PouchDB's ``/_all_dbs`` and ``/_uuids`` beside ``/{db}``), an id shaped
like those names (``_uuids``) may be another route, not a missing entity: the absence answered for
it would be a wrong answer (PouchDB answers ``/_uuids`` 200). So may any id, in a collection holding
an entity whose id is empty text (the application names that one by another id). A match's evidence
names the leading characters (``prefixes``) serving refuses the absence for, and the routes that
showed them, or the collections (``collections``) where it refuses every absence.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("reserved-id")
class ReservedIdContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    siblings: list[str] = Field(default_factory=list)
    """The literal last segments (decoded) of recorded tools' templates at the item path's depth
    under the same parents."""
    ids: list[str] = Field(default_factory=list)
    """Every id of the type the capture shows: held, read, or answered missing."""
    empty_id_collections: list[str] = Field(default_factory=list)
    """The held collections of the type holding an entity whose id is empty text."""


class SigilParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_routes: int = Field(ge=1)
    """How many routes beside the item path must start with the character."""


@predicate("sibling_routes_share_a_sigil", context="reserved-id", params=SigilParams)
def sibling_routes_share_a_sigil(ctx: ReservedIdContext, params: SigilParams) -> Outcome:
    """Routes beside the item path start with a character other than a letter or digit that no
    id of the type starts with."""
    starts: dict[str, list[str]] = {}
    for route in ctx.siblings:
        if route and not route[0].isalnum():
            starts.setdefault(route[0], []).append(route)
    if not starts:
        return Miss("no route beside the item path starts with a character other than a letter or digit")
    taken = sorted(c for c in starts if any(i.startswith(c) for i in ctx.ids))
    prefixes = sorted(c for c, routes in starts.items() if c not in taken and len(routes) >= params.min_routes)
    if not prefixes:
        return Miss(f"an id of the type starts with {', '.join(repr(c) for c in taken)}" if taken else
                    f"fewer than {params.min_routes} routes start alike")
    return Match({"prefixes": prefixes, "routes": sorted(r for c in prefixes for r in starts[c])})


@predicate("collection_holds_an_empty_id", context="reserved-id", params=NoParams)
def collection_holds_an_empty_id(ctx: ReservedIdContext, params: NoParams) -> Outcome:
    """A held collection of the type holds an entity whose id is empty text, which no path can
    name: the application names it there by another id (RabbitMQ's default exchange "", read as
    ``amq.default``), which the capture does not show."""
    if not ctx.empty_id_collections:
        return Miss("no held collection of the type holds an entity whose id is empty text")
    return Match({"prefixes": [], "collections": sorted(ctx.empty_id_collections)})

"""Predicates on a list read at a literal path that names one entity another read shows at its own
path (``view-singleton-aliases``): ``/users/me`` or ``/current-user`` answered ``{"users": [{…}]}``,
``/books/{id}/author`` answered ``{"author": [{…}]}``.

Context ``singleton-alias``: the list tool, how many objects each of its recorded answers listed,
and for each listed object the reads of other tools (other collection paths) showing an object of
the same identity value, with the member names the two share.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class ShownElsewhere(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    identity: str
    """The listed object's identity value."""
    other_tool: str | None = None
    """A GET tool of another collection path whose answer shows an object of that identity (None: none does)."""
    shared_members: int = 0
    """How many of the listed object's members (its identity left out) that object shows with an equal value."""
    filled_members: int = 0
    """How many of the listed object's members that object answers null where the listed object holds
    a value (a fuller projection of the same entity: a listing leaving the caller's own settings null)."""
    members: int = 0
    """How many members the listed object shows, its identity left out."""


@context_model("singleton-alias")
class SingletonAliasContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str
    listed: list[int] = Field(default_factory=list)
    """How many objects each successful recorded answer listed."""
    objects: list[ShownElsewhere] = Field(default_factory=list)
    writes_at_or_below: list[str] = Field(default_factory=list)
    """Write tools recorded at the read's path or beneath it (a create at it, a relation written
    under it): a collection that gains members, not an alias."""


@predicate("singleton_path_written", context="singleton-alias")
def singleton_path_written(ctx: SingletonAliasContext, params: BaseModel) -> Outcome:
    """A write was recorded at the read's path or beneath it."""
    if not ctx.writes_at_or_below:
        return Miss("no write was recorded at or beneath its path")
    return Match({"writes": ctx.writes_at_or_below})


@predicate("singleton_lists_every_answer", context="singleton-alias")
def singleton_lists_every_answer(ctx: SingletonAliasContext, params: BaseModel) -> Outcome:
    """Every recorded answer listed exactly one object."""
    if not ctx.listed:
        return Miss("no answer listed anything")
    others = sorted({n for n in ctx.listed if n != 1})
    if others:
        return Miss(f"an answer listed {others[0]} objects, not one")
    return Match({"answers": len(ctx.listed)})


class MinMembersParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_members: int = Field(ge=1)
    """How many members (the identity left out) the listed object must show, every one of them shown
    by the other read too: an entity's copy, not an object that happens to share an id value."""
    null_elsewhere_alike: bool = False
    """A member the other read answers null, which the listed object fills, counts as shown alike (a
    fuller projection of one entity); ``min_members`` members must still be equal."""


@predicate("singleton_shown_elsewhere", context="singleton-alias", params=MinMembersParams)
def singleton_shown_elsewhere(ctx: SingletonAliasContext, params: MinMembersParams) -> Outcome:
    """Each listed object is shown under its identity by a read of another collection path that
    shows every one of its members with an equal value, at least ``min_members`` of them (with
    ``null_elsewhere_alike``, or null there: at least ``min_members`` equal)."""
    if not ctx.objects:
        return Miss("no object listed")
    for shown in ctx.objects:
        if shown.other_tool is None:
            return Miss(f"no read of another path shows {shown.identity!r}")
        if shown.members < params.min_members:
            return Miss(f"{shown.identity!r} shows {shown.members} member(s) besides its identity, "
                        f"fewer than {params.min_members}")
        filled = shown.filled_members if params.null_elsewhere_alike else 0
        if shown.shared_members + filled < shown.members:
            lacking = shown.members - shown.shared_members - filled
            return Miss(f"{shown.other_tool} shows {shown.identity!r} without {lacking} "
                        "of its members (or with other values)")
        if shown.shared_members < params.min_members:
            return Miss(f"{shown.other_tool} shows {shown.shared_members} of {shown.identity!r}'s members alike, "
                        f"fewer than {params.min_members}")
    return Match({"entities": [[s.identity, s.other_tool] for s in ctx.objects]})

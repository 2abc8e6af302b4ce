"""Predicates on a list read's query parameter that names the members its entities show
(``view-member-naming-queries``): ``?attrs=display_name&attrs=notes`` answered with entities whose
``attrs`` object holds exactly ``display_name`` and ``notes``. Such a parameter shapes each entity
and selects none of them, so a line sent with it (and paging at most) can still list the whole
collection.

Context ``member-naming-query``: the parameter's name, its values in order, and the objects the
line's recordings listed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("member-naming-query")
class MemberNamingContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    values: tuple[str, ...] = ()
    listed: tuple[dict[str, Any], ...] = ()


class NamingParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_values: int = Field(default=2, ge=1)
    """Values the parameter names, at least (one value could be a filter's)."""
    min_listed: int = Field(default=1, ge=1)


@predicate("query_param_names_object_members", context="member-naming-query", params=NamingParams)
def query_param_names_object_members(ctx: MemberNamingContext, params: NamingParams) -> Outcome:
    """Every listed entity holds, under one member, an object of exactly the members the
    parameter's values name (the same member in every entity)."""
    values = set(ctx.values)
    if len(values) < params.min_values:
        return Miss(f"{len(values)} distinct value(s), fewer than {params.min_values}")
    if len(ctx.listed) < params.min_listed:
        return Miss(f"{len(ctx.listed)} listed entit(ies), fewer than {params.min_listed}")
    holders: set[str] | None = None
    for entity in ctx.listed:
        mine = {name for name, value in entity.items() if isinstance(value, dict) and set(value) == values}
        holders = mine if holders is None else holders & mine
        if not holders:
            return Miss("no member of every listed entity holds exactly the members its values name")
    return Match({"object_member": sorted(holders or ())[0], "members": sorted(values)})

"""Predicates on two state types that may hold copies of one another's entities (seeds: "Not
modelled": side effects on copies of entities in other collections).

Context ``type-copy``: a state type, another one, and the pairs of initial entities the two hold
under one id. A content API beside an admin API shows each entity again, whole or as a subset of
its members: a write through one changes what the other answers, which serving would not do.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .update_values import same_value


@context_model("type-copy")
class TypeCopyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type_name: str
    other_type: str
    id_field: str = "id"
    other_id_field: str = "id"
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = Field(default_factory=list)
    """The initial entities of the type and of the other type held under one id, in pairs."""


class ProjectionParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_shared: int = Field(ge=1)
    """How many entities the two types must both hold."""
    min_fields: int = Field(ge=1)
    """How many members besides the identity each pair must show alike."""


def _projection(mine: dict[str, Any], theirs: dict[str, Any], skip: set[str]) -> set[str] | None:
    """The members the smaller entity shows, when the larger shows every one of them alike."""
    small, large = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
    if any(name not in large or not same_value(value, large[name]) for name, value in small.items()):
        return None
    return set(small) - skip


@predicate("entities_projected", context="type-copy", params=ProjectionParams)
def entities_projected(ctx: TypeCopyContext, params: ProjectionParams) -> Outcome:
    """Every entity the two types hold under one id shows, in one of them, only members the other
    shows alike (a copy, whole or projected), with enough members besides the identity."""
    if len(ctx.pairs) < params.min_shared:
        return Miss(f"{len(ctx.pairs)} entities held by both, fewer than {params.min_shared}")
    skip = {ctx.id_field, ctx.other_id_field}
    for mine, theirs in ctx.pairs:
        shown = _projection(mine, theirs, skip)
        key = mine.get(ctx.id_field)
        if shown is None:
            return Miss(f"{ctx.type_name} {key!r}: neither entity shows only members the other shows alike")
        if len(shown) < params.min_fields:
            return Miss(f"{ctx.type_name} {key!r}: {len(shown)} member(s) alike besides the identity, "
                        f"fewer than {params.min_fields}")
    return Match({"other": ctx.other_type, "entities": len(ctx.pairs)})

"""Predicates on a create's link through a list read (the ``write-create-links`` table: whether
the first list read of the collection a create's own path names, after the call, says whose id
the call answered when no item read of it did).

Context ``create-link``: what that list read and the call's answer show of one returned id.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("create-link")
class CreateLinkContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    read: int
    """The list read's record ordinal (the first of the call's own collection after the call)."""
    listed: bool
    """It lists the id under the type's identity field."""
    held_before: bool
    """An entity of the type with that id was held (initially, or by a read finished before the call)."""
    other_write_between: bool
    """Another tool wrote between the call and the list read."""
    answer_carries_entity: bool
    """The call's answer holds an object with the id under the type's identity field and another member."""


@predicate("link_list_shows_id", context="create-link", params=NoParams)
def link_list_shows_id(ctx: CreateLinkContext, params: NoParams) -> Outcome:
    """The list read lists the returned id under the type's identity field."""
    if not ctx.listed:
        return Miss(f"list record {ctx.read} does not list the id")
    return Match({"read": ctx.read})


@predicate("link_id_new", context="create-link", params=NoParams)
def link_id_new(ctx: CreateLinkContext, params: NoParams) -> Outcome:
    """No entity of the type held the id before the call: the list shows what the call made."""
    if ctx.held_before:
        return Miss("an entity of the type held the id before the call")
    return Match({"read": ctx.read})


@predicate("link_no_other_write_between", context="create-link", params=NoParams)
def link_no_other_write_between(ctx: CreateLinkContext, params: NoParams) -> Outcome:
    """No other tool wrote between the call and the list read, which might have made the entity."""
    if ctx.other_write_between:
        return Miss(f"another tool wrote before list record {ctx.read}")
    return Match({"read": ctx.read})


@predicate("link_answer_carries_entity", context="create-link", params=NoParams)
def link_answer_carries_entity(ctx: CreateLinkContext, params: NoParams) -> Outcome:
    """The call's answer is the entity itself (its identity field holds the id, beside another
    member), so the id is the entity's own, not a reference it holds."""
    if not ctx.answer_carries_entity:
        return Miss("the answer shows no entity holding the id under the type's identity field")
    return Match({"read": ctx.read})

"""Update-change predicates of an item action's set rule: the call is an item action, and the
field now holds a scalar, the value the rule gives it on every call."""

from __future__ import annotations

from pydantic import BaseModel

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .update_change_context import ABSENT, UpdateChangeContext


@predicate("call_is_action", context="update-change")
def call_is_action(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The call is an item action (/{type}/{id}/archive)."""
    return Match() if ctx.is_action else Miss("not an item action")


@predicate("changed_to_scalar", context="update-change")
def changed_to_scalar(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The field holds a scalar (no object or array): the value a set rule gives it."""
    if isinstance(ctx.new, (dict, list)) or ctx.new is ABSENT:
        return Miss("an object or array")
    return Match({"params": {"value": ctx.new}})

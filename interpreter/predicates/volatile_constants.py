"""Predicates on a constant a create's plan would store for a field (the ``create-volatile-constants``
table: whether the constant is one, or a value the application computes).

Context ``create-volatile-constant``: the field, the constant, whether a view of the type holds the
field volatile (it changes with no write), and what the made entity's next read shows there.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("create-volatile-constant")
class VolatileConstantContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    constant: Any = None
    """The value the plan would store on every create."""
    volatile: bool = False
    """A view of the type holds the field volatile: it changes between reads with no write."""
    read_back: bool = False
    """The made entity's next read (after the call) shows the field."""
    read_value: Any = None
    """What that read shows there."""


@predicate("constant_field_volatile", context="create-volatile-constant", params=NoParams)
def constant_field_volatile(ctx: VolatileConstantContext, params: NoParams) -> Outcome:
    """A view of the type holds the field volatile (Alerta's blackout ``remaining`` counts down):
    its value comes from the clock or the application, not from what a call stored."""
    if not ctx.volatile:
        return Miss(f"no view holds {ctx.field!r} volatile")
    return Match({"field": ctx.field})


@predicate("constant_read_back_otherwise", context="create-volatile-constant", params=NoParams)
def constant_read_back_otherwise(ctx: VolatileConstantContext, params: NoParams) -> Outcome:
    """The made entity's next read already shows the field otherwise than the constant (``86400``
    answered, ``"86400.000000"`` read): a value kept from the exemplar answers what the
    application would not."""
    if not ctx.read_back:
        return Miss(f"no later read of the made entity shows {ctx.field!r}")
    if same_json(ctx.read_value, ctx.constant):
        return Miss(f"the next read shows the constant {ctx.constant!r} itself")
    return Match({"field": ctx.field, "constant": ctx.constant, "read": ctx.read_value})

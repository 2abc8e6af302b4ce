"""Whether a create's constant is one (the ``create-volatile-constants`` table): a field that
changes with no write, which the made entity's next read already shows otherwise than the value the
plan would store, is computed by the application, and a value kept from the exemplar would answer
what the application would not."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.predicates.volatile_constants import VolatileConstantContext
from capenv.interpreter.rules_engine import evaluate

from .context import PlanContext

TABLE = "create-volatile-constants"


def computed_constant(ctx: PlanContext, entity_type: EntityType, fields: Any, key: str,
                      observation: int) -> str | None:
    """Why one of the plan's constants is no constant, or None: the first constant field (in the
    order of ``fields``) the table judges computed."""
    constants = [(rule.field, rule.params.get("value")) for rule in fields if rule.op == "constant"]
    if not constants or TABLE not in ctx.ruleset.tables:
        return None
    volatile = {name for view in ctx.view.views if view.type == entity_type.name for name in view.volatile_fields}
    later = next((s for s in ctx.timeline.sightings(entity_type.name, key)
                  if s.ordinal > observation and s.value is not None), None)
    for name, value in constants:
        shown = later is not None and name in later.value
        context = VolatileConstantContext(field=name, constant=value, volatile=name in volatile, read_back=shown,
                                          read_value=later.value[name] if shown else None)
        decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{entity_type.name}.{name}")
        if decision.yields.get("computed"):
            return (f"{name!r} changes with no write (a view of {entity_type.name} holds it volatile), and record "
                    f"{later.ordinal} shows the made entity's {later.value[name]!r}, not the constant {value!r}: the "
                    "application computes it")
    return None

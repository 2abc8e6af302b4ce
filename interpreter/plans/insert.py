"""A create's insert rule (seeds: "List position"). Placeholder until the candidate table lands:
every create is placed last, traced as the spec's no-evidence default."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType, InsertRule
from capenv.interpreter.rules_engine import TraceEvent


def insert_rule(ctx: Any, entity_type: EntityType, collection: str, exemplar: Any, observed: dict[str, Any]
                ) -> tuple[InsertRule, list[TraceEvent]]:
    event = TraceEvent(table="insert-position", rule_id=None, outcome="default", subject=f"{entity_type.name} insert",
                       evidence={"kind": "last"}, reason="with no evidence, the rule is last")
    return InsertRule(rule_id="insert.last", kind="last"), [event]

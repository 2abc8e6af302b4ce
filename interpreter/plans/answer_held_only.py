"""Fields an update's recorded answer shows that the application answers only for an entity
holding them (``write-answer-held-only``; ``ResponseRule.held_only``): another recorded answer of
the tool left the field out for an entity its reads showed without it (a production answered
with first_episode_id only when it has episodes). Serving's answer renders the entity as the
state holds it, so it may lack them; every other recorded field it must show."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.predicates.answer_held_only import AnsweredCall, HeldOnlyContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "write-answer-held-only"

__all__ = ["AnsweredCall", "answer_held_only"]


def answer_held_only(tool: str, answered: dict[str, Any], others: list[AnsweredCall], ruleset: RuleSet,
                     events: list[TraceEvent]) -> tuple[str, ...]:
    """The fields of ``answered`` (the exemplar's answered entity) the table finds the application
    answers only for an entity holding them, judged on the tool's other answered calls."""
    if TABLE not in ruleset.tables or not others:
        return ()
    held_only = []
    for name in answered:
        if all(name in other.answered for other in others):
            continue  # every answer shows it: nothing to judge
        decision = evaluate(ruleset, TABLE, HeldOnlyContext(field=name, others=others), subject=f"{tool} answer.{name}")
        events.extend(decision.events)
        if decision.yields.get("held_only") is True:
            held_only.append(name)
    return tuple(held_only)

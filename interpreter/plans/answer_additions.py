"""Members an update's answer shows beside its entity that the entity does not hold, which the
``write-answer-additions`` table finds the application adds to every write answer of the type
with one value (``ResponseRule.added``): serving renders them as recorded."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.predicates.answer_additions import AnswerAdditionContext
from capenv.interpreter.rules_engine import TraceEvent, evaluate

from .context import PlanContext

TABLE = "write-answer-additions"


def answer_additions(tool: str, entity_type: EntityType, answered: dict[str, Any], held: dict[str, Any] | None,
                     ctx: PlanContext, events: list[TraceEvent]) -> tuple[tuple[str, Any], ...]:
    """(member, value) of each member ``answered`` (the exemplar's answered entity) shows that
    ``held`` (the entity before the call) lacks, when the table says every write answer of the type
    adds it with that value."""
    if TABLE not in ctx.ruleset.tables or held is None:
        return ()
    candidates = [name for name in answered if name not in held]
    if not candidates:
        return ()
    reads = [s.value for (t, _), seen in ctx.timeline.by_entity.items() if t == entity_type.name for s in seen
             if s.value is not None and s.via in ("item", "list")]
    # the write answers held_before added to the timeline (it ran for this call already)
    answers = [s.value for (t, _), seen in (ctx.timeline.answers or {}).items() if t == entity_type.name
               for s in seen if s.value is not None]
    added = []
    for name in candidates:
        context = AnswerAdditionContext(member=name, read_shows=any(name in value for value in reads),
                                        answers=len(answers),
                                        values=[value[name] for value in answers if name in value])
        decision = evaluate(ctx.ruleset, TABLE, context, subject=f"{tool} answer.{name}")
        events.extend(decision.events)
        if decision.yields.get("added") is True:
            added.append((name, answered[name]))
    return tuple(added)

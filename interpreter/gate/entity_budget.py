"""The view's entity budget in the gate (seeds: "The gate": "The taken entity counts against the
view's budget as a created one does"; ``max_entities`` in ``rules/budgets.yaml`` counts the
entities the view holds: initial, created, taken from reads).

The copy starts from the initial state, which the view held within the budget. Each entity a
modelled create makes, a recorded outcome adds or a read shows and the copy takes counts against it
as well. A budget that is hit is reported, never silently truncated: once the copy holds more
entities than the budget, the gate stops before the next record, so later records check nothing and
each plan keeps what the records before found; the hit names that record, and a trace explains it.
"""

from __future__ import annotations

from dataclasses import dataclass

from capenv.interpreter.bundle.models import BudgetHit
from capenv.interpreter.bundle.trace_event import TraceEvent
from capenv.serving.state.index import StateIndex

BUDGET = "max_entities"


@dataclass
class EntityBudget:
    limit: int
    hit: BudgetHit | None = None
    trace: TraceEvent | None = None

    def exceeded(self, copy: StateIndex, next_ordinal: int | None) -> bool:
        """True (once, recording the hit) when the copy holds more entities than the budget;
        ``next_ordinal`` is the record the gate stops before (None: it had checked every record)."""
        if self.hit is not None:
            return True
        held = sum(len(collection.entities) for collection in copy.collections.values())
        if held <= self.limit:
            return False
        effect = (f"the gate stopped before record {next_ordinal}: later records check nothing"
                  if next_ordinal is not None else "reported only: the gate had replayed every record")
        self.hit = BudgetHit(budget=BUDGET, limit=self.limit, reached=held, effect=effect)
        self.trace = TraceEvent(
            table="budgets", rule_id=None, outcome="match", subject="gate",
            evidence={"budget": BUDGET, "limit": self.limit, "held": held, "stopped_before": next_ordinal},
            reason=f"the gate's copy holds {held} entities (initial, created, taken from reads), more than "
                   f"{BUDGET} {self.limit}: {effect}; raise {BUDGET} in budgets.yaml to check them",
            location="rules/budgets.yaml")
        return True

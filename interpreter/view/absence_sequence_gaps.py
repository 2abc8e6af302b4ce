"""Which numbers an item view's recorded absence is not given for (``view-absence-sequence-gaps``,
docs/absence.md).

The learned absence is proven for ids the application does not hold. Where the ids the type held
at the capture's start are numbers that skip some below the highest, the application numbered an
entity at each skipped one that the capture never shows (RT's hidden ___Approvals queue 2 between
the listed queues 1 and 3, answered 200; a sequence shared with another type), so the view keeps
the span (``ReadView.skipped_numbers``) and serving refuses a skipped number it does not hold
instead of answering the absence.
"""

from __future__ import annotations

from collections.abc import Iterable

from capenv.interpreter.bundle.models import CollectionState, EntityType, ReadView, SkippedNumbers
from capenv.interpreter.predicates.absence_sequence_gaps import AbsenceSequenceGapContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-absence-sequence-gaps"


def with_skipped_numbers(view: ReadView, types: dict[str, EntityType], collections: Iterable[CollectionState],
                         ruleset: RuleSet, traces: list[TraceEvent]) -> ReadView:
    """The item view with the span of numbers its type held, when they skip some. Only a view that
    answers a missing entity (a learned absence or a recorded 400/404/410) by the identity is weighed."""
    entity_type = types.get(view.type or "")
    if view.kind != "item" or entity_type is None or (view.absence is None and view.missing is None) \
            or view.key_field not in (None, entity_type.id_field) or TABLE not in ruleset.tables:
        return view
    held = sorted({str(e.id) for c in collections if c.type == entity_type.name for e in c.entities})
    decision = evaluate(ruleset, TABLE, AbsenceSequenceGapContext(held=held), subject=f"{view.tool} held numbers")
    traces.extend(decision.events)
    found = next((e for e in decision.events if e.outcome == "match"), None)
    if found is None:
        return view
    return view.model_copy(update={"skipped_numbers": SkippedNumbers(
        rule_id=str(found.rule_id), low=found.evidence["low"], high=found.evidence["high"])})

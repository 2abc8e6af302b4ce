"""Whether a create's sequence reuses the value of a deleted entity (table ``sequence-reuse``).

The spec's sequence draws one more than the largest value its scope holds, started with or drew,
"so a deleted entity's value is not reused". Some applications give the largest value still held
plus one instead (SQLite's rowid, json-server's ``createId``): after the delete of the entity
holding the largest value they give its value again. The gate's copy knows, at each recorded
create, whether the largest value its scope counts is still held; a create drawn while it is not
is what the table judges. Unless a recorded create proved the sequence does not reuse, the plan's
sequence rules say so (``fresh_after_delete`` unset) and serving refuses a create after such a
delete (``serving/ops/sequences``), state unchanged.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import FieldRule, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.plans.timeline import Timeline
from capenv.interpreter.predicates.sequence_reuse import SequenceReuseContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate
from capenv.serving.ops.sequence_state import SequenceScope, SequenceState, format_sequence, sequence_number
from capenv.serving.state.edits import largest_held, values_held
from capenv.serving.state.index import HeldCollection, StateIndex
from capenv.serving.writes.calls import WriteEnv

from .copy_edits import recorded_outcome
from .findings import PlanFindings
from .generated_forms import sequence_scope_kind

TABLE = "sequence-reuse"


def note_create_after_delete(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex,
                             sequences: SequenceState, timeline: Timeline, findings: PlanFindings) -> None:
    """Before a recorded 2xx create of ``plan`` changes the copy: note each sequence value its
    recorded entity shows when no entity of the scope holds the largest value the scope counted
    (held since first counted, started with, or drawn). Every such create counts, whether or not
    serving takes its body: the number is the application's."""
    if plan.effect != "create" or not any(sequence_scope_kind(rule) for rule in plan.fields):
        return
    recorded = recorded_outcome(plan, record, env, timeline)
    if not recorded:
        return
    for rule in plan.fields:
        kind = sequence_scope_kind(rule)
        drawn = sequence_number(recorded.get(rule.field)) if kind is not None else None
        if drawn is None:
            continue
        held = [c for c in copy.collections_of(plan.type or "")]
        if kind == "collection":
            held = _collection_of(held, record.path)
        if not held:
            continue
        scope = SequenceScope(plan.type or "", rule.field, held[0].path if kind == "collection" else None)
        counted = [n for n in (sequences.started.get(scope), sequences.generated.get(scope),
                               *(largest_held(c, rule.field) for c in held)) if n is not None]
        if not counted:
            continue
        largest = max(counted)
        spellings = {largest, str(largest)}
        if isinstance(recorded.get(rule.field), str) and sequence_number(recorded[rule.field]) is not None:
            spellings.add(format_like(largest, recorded[rule.field]))
        if any(values_held(c, rule.field).get(s, 0) > 0 for c in held for s in spellings):
            continue
        findings.after_deletes.append({"record": record.ordinal, "field": rule.field, "deleted": largest,
                                       "drawn": drawn})


def _collection_of(held: list[HeldCollection], path: str) -> list[HeldCollection]:
    """The held collection a create at ``path`` writes in: the one whose path is the longest
    segment prefix of it (none: not known)."""
    segments = split_path(path)
    fitting = [c for c in held if split_path(c.path) == segments[:len(split_path(c.path))]]
    return [max(fitting, key=lambda c: len(split_path(c.path)))] if fitting else []


def format_like(number: int, recorded: str) -> str:
    """``number`` spelled as the recorded string of digits is (zero padding, digit groups)."""
    groups = [len(part) for part in recorded.split("-")] if "-" in recorded else None
    spelled = format_sequence(number, groups, as_string=True)
    return str(spelled).zfill(len(recorded)) if groups is None else str(spelled)


def judged_sequence_rules(plan: WritePlan, findings: PlanFindings | None, ruleset: RuleSet
                          ) -> tuple[tuple[FieldRule, ...], tuple[TraceEvent, ...]]:
    """The plan's field rules, each sequence rule saying whether a recorded create proved its
    sequence draws past a deleted largest value (``fresh_after_delete``) or took it again
    (``reuse_seen``: that create's record), with the table's trace."""
    if plan.effect != "create" or plan.build_reason is not None or TABLE not in ruleset.tables:
        return plan.fields, ()
    fields, events = list(plan.fields), []
    for index, rule in enumerate(fields):
        if sequence_scope_kind(rule) is None:
            continue
        shown = [c for c in (findings.after_deletes if findings else ()) if c["field"] == rule.field]
        decision = evaluate(ruleset, TABLE, SequenceReuseContext.model_validate({"after_deletes": shown}),
                            subject=f"{plan.tool} {rule.field}")
        events.extend(decision.events)
        params = {k: v for k, v in rule.params.items() if k not in ("fresh_after_delete", "reuse_seen")}
        if decision.yields.get("fresh_after_delete"):
            params["fresh_after_delete"] = True
        elif decision.yields.get("reused"):
            params["reuse_seen"] = int(decision.evidence["record"])
        if params != rule.params:
            fields[index] = rule.model_copy(update={"params": params})
    return tuple(fields), tuple(events)

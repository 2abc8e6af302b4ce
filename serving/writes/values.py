"""The values a write computes with the plan's field rules (the serving ops), before the state
is edited: the op context an entity's rules read, the values themselves, and the growth the
size limit is charged. In the gate, ``recorded`` supplies the values the capture recorded for
generated fields (identities, clocks, sequences, tokens), as the spec requires."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import FieldRule, WritePlan
from capenv.serving.ops.apply import CompiledRule, apply_field_rules, apply_ordered
from capenv.serving.ops.context import OpContext
from capenv.serving.ops.pointers import MISSING, assign, parse_pointer, resolve
from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.state.edits import largest_held, values_held
from capenv.serving.state.index import StateIndex

GENERATED_OPS = frozenset({"identity", "clock", "nested-clock", "sequence", "unique", "renewed", "held-clock"})


def op_context(plan: WritePlan, state: StateIndex, body: dict[str, Any], instant: datetime, counter: int,
               sequences: SequenceState, collection_path: str | None, path_args: dict[str, str],
               before: dict[str, Any] | None) -> tuple[OpContext, Any]:
    """The context the plan's ops read, and the sequence draft the caller commits only once the
    write is accepted."""
    type_name = plan.type or ""

    def type_values(field_name: str) -> HeldValues:
        return HeldValues([values_held(c, field_name) for c in state.collections_of(type_name)])

    def scope_values(scope: Any) -> list[Any]:
        """The scope's largest sequence value (each collection caches its own)."""
        found = []
        field, only = scope.field, scope.collection
        for c in state.collections_of(scope.type_name):  # a loop: a comprehension makes a function per call
            if only is None or c.path == only:
                value = largest_held(c, field)
                if value is not None:
                    found.append(value)
        return found

    def holds(scope: Any, spellings: Any) -> bool:
        """Whether an entity of the scope holds a value spelled one of ``spellings``."""
        # loops, not comprehensions and ``any`` of a generator (a function made per call): every create
        # drawing a sequence asks
        wanted = []
        for s in spellings:
            if isinstance(s, (str, int)) and not isinstance(s, bool):
                wanted.append(s)
        if not wanted:
            return False
        field, only = scope.field, scope.collection
        for c in state.collections_of(scope.type_name):
            if only is None or c.path == only:
                counts = values_held(c, field)
                for s in wanted:
                    if counts.get(s, 0) > 0:
                        return True
        return False

    draft = sequences.draft(scope_values, holds)
    ctx = OpContext(body=body, instant=instant, evidence_id=state.evidence_id, tool=plan.tool, write_counter=counter,
                    path_args=path_args, type_name=type_name, collection=collection_path, entity_before=before,
                    type_values=type_values, sequences=draft)
    return ctx, draft


class HeldValues:
    """A field's values held across a type's collections, for membership tests: each
    collection's counts (``state.edits.values_held``), so a draw never rebuilds a set."""

    __slots__ = ("_counts",)

    def __init__(self, counts: list[dict[Any, int]]) -> None:
        self._counts = counts

    def __contains__(self, value: Any) -> bool:
        return any(value in counts for counts in self._counts)

    def largest_text(self, length: int) -> str | None:
        """The largest string of ``length`` characters held (a time-ordered token's latest)."""
        return max((v for counts in self._counts for v in counts if isinstance(v, str) and len(v) == length),
                   default=None)


def field_values(plan: WritePlan, ctx: OpContext, recorded: dict[str, Any] | None,
                 ordered: tuple[CompiledRule, ...] | None = None) -> dict[str, Any]:
    """``ordered``: the plan's rules compiled and ordered, when the caller holds them."""
    if recorded is None:
        return apply_field_rules(plan.fields, ctx) if ordered is None else apply_ordered(ordered, ctx)
    rules = [r for r in plan.fields if not (r.op in GENERATED_OPS and r.field in recorded)]
    for rule in plan.fields:  # a template built around a recorded generated value rebuilds around it
        if rule.op in GENERATED_OPS and rule.field in recorded:
            ctx.generated[rule.field] = copy.deepcopy(recorded[rule.field])
    values = apply_field_rules(rules, ctx) if rules else {}
    for rule in plan.fields:
        if rule.op in GENERATED_OPS and rule.field in recorded:
            values[rule.field] = copy.deepcopy(recorded[rule.field])
        elif rule.op == "grouped-members" and rule.field in recorded:
            _recorded_clocks(rule, values, recorded[rule.field])
    return {r.field: values[r.field] for r in plan.fields if r.field in values}


def _recorded_clocks(rule: FieldRule, values: dict[str, Any], recorded: Any) -> None:
    """A group's clocks as the recorded call stored them (the members sent into it as the op
    wrote them): the gate tests the members, never the instant."""
    group = values.get(rule.field)
    if not isinstance(group, dict) or not isinstance(recorded, dict):
        return
    for pointer in rule.params.get("clocks", {}):
        tokens = parse_pointer(pointer)
        found = resolve(recorded, tokens)
        if tokens and found is not MISSING and resolve(group, tokens) is not MISSING:
            assign(group, tokens, copy.deepcopy(found))


def charge_growth(limit_check: Any, before: Any, after: Any) -> None:
    if limit_check is not None:
        limit_check(len(dumps(after)) - (len(dumps(before)) if before is not None else 0))

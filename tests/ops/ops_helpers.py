"""Helpers for the serving-op tests: a write's context and field rules as plans carry them."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from capenv.interpreter.bundle.models import FieldRule
from capenv.serving.ops.context import OpContext
from capenv.serving.ops.sequence_state import SequenceState

INSTANT = datetime(2026, 11, 30, 13, 4, 16, 455000, tzinfo=timezone.utc)


def context(body: dict[str, Any] | None = None, *, entity_before: dict[str, Any] | None = None,
            held: dict[str, set[Any]] | None = None, state: SequenceState | None = None,
            scope_values: Any = None, **fields: Any) -> OpContext:
    """A write's context with test defaults; ``held`` maps a field to the values the type holds."""
    held = held or {}
    state = state if state is not None else SequenceState()
    draft = state.draft(scope_values or (lambda scope: ()))
    defaults: dict[str, Any] = dict(instant=INSTANT, evidence_id="ev-test", tool="createPost", write_counter=1,
                                    type_name="posts", collection="/posts")
    defaults.update(fields)
    return OpContext(body=body or {}, entity_before=entity_before, sequences=draft,
                     type_values=lambda field: held.get(field, set()), **defaults)


def rule(op: str, field: str = "f", **params: Any) -> FieldRule:
    return FieldRule(field=field, rule_id=f"test-{op}", op=op, params=params)

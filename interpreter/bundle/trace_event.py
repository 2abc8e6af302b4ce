"""The one trace-event type (a bundle model: plans and views store their traces in it).

It lives with the bundle models so serving can read bundles without importing the evaluator;
``capenv.interpreter.rules_engine.trace`` re-exports it with its consumers.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Outcome = Literal["match", "miss", "default"]


class TraceEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    table: str
    rule_id: str | None
    """None for the table's default (nothing matched)."""
    outcome: Outcome
    subject: str
    """What was decided about: a tool, a field, a member, a segment."""
    evidence: dict[str, Any] = Field(default_factory=dict)
    reason: str | None = None
    location: str = ""
    """``rules/<file>.yaml:LINE`` of the rule."""

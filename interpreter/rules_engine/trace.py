"""One trace-event type, and the consumers that read it (text, JSON, coverage).

Every decision the interpreter makes is a ``Decision`` carrying its ``TraceEvent``s: the
rule that matched with its evidence, and each rule tried before it with why it missed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.trace_event import Outcome, TraceEvent  # noqa: E402  (re-exported)


class Decision(BaseModel):
    """The outcome of evaluating one table for one subject."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    table: str
    subject: str
    rules_revision: str
    matched: tuple[str, ...] = ()
    """Ids of the matching rules (at most one for first-match tables)."""
    yields: dict[str, Any] = Field(default_factory=dict)
    """The first matching rule's yields, else the table's default (empty when none)."""
    serve: str | None = None
    evidence: dict[str, Any] = Field(default_factory=dict)
    events: tuple[TraceEvent, ...] = ()

    @property
    def rule_id(self) -> str | None:
        return self.matched[0] if self.matched else None

    @property
    def ok(self) -> bool:
        return bool(self.matched)


def render_text(events: Iterable[TraceEvent], *, show: Literal["all", "matches", "misses"] = "all") -> str:
    """A readable table: subject, outcome, rule id, where it is defined, evidence or reason."""
    rows = []
    for event in events:
        if show == "matches" and event.outcome == "miss":
            continue
        if show == "misses" and event.outcome != "miss":
            continue
        detail = event.reason if event.outcome == "miss" else _brief(event.evidence)
        rows.append((event.subject, event.outcome, event.rule_id or "(default)", event.location, detail or ""))
    if not rows:
        return ""
    widths = [max(len(str(r[i])) for r in rows) for i in range(4)]
    return "\n".join(
        "  ".join(str(col).ljust(widths[i]) for i, col in enumerate(row[:4])) + "  " + row[4] for row in rows
    )


def _brief(evidence: dict[str, Any], limit: int = 160) -> str:
    from capenv.interpreter.bundle.jsonvalue import dumps

    if not evidence:
        return ""
    text = dumps(evidence).decode()
    return excerpt(text, limit)


def coverage(events: Iterable[TraceEvent]) -> dict[str, Counter]:
    """Per rule id, how often it matched and missed: rule coverage is just another consumer."""
    counts: dict[str, Counter] = {}
    for event in events:
        if event.rule_id:
            counts.setdefault(event.rule_id, Counter())[event.outcome] += 1
    return counts

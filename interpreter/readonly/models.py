"""The result of the read-only POST decision: one verdict per POST tool, and the rounds."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.trace import TraceEvent


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReadOnlyVerdict(_Model):
    """Whether one POST tool only reads, and why."""

    tool: str
    template: str
    read_only: bool
    rule: str | None
    """The way (``readonly-ways`` rule id) that matched when the tool was last judged; None when none did."""
    veto: str | None = None
    """The first veto (``readonly-vetoes`` rule id) that kept it a write, if one did."""
    vetoes: tuple[str, ...] = ()
    """Every veto that matched in the round that dropped it."""
    decided_in_round: int
    """The round that dropped it, or the last round for a tool that stays read-only."""
    first_rule: str | None = None
    """The way that matched in round 1, when it differs from ``rule`` (a way lost once other tools were dropped)."""
    reason: str
    """One line: the way and its evidence, the veto and what it saw, or why no way matched."""
    evidence: dict[str, Any] = Field(default_factory=dict)
    events: tuple[TraceEvent, ...] = ()
    """The trace of its last ways decision, then of its vetoes (when they were tried)."""


class ReadOnlyRound(_Model):
    """One pass over the tools still taken to be read-only: the ways, then (when no tool lost its
    way) the vetoes."""

    round: int
    considered: tuple[str, ...]
    """Tools taken to be read-only as the round began (their calls were no writes)."""
    no_way: tuple[str, ...] = ()
    """Tools no way matched in this round (dropped)."""
    vetoed: tuple[str, ...] = ()
    """Tools a veto matched in this round (dropped)."""
    vetoes_tried: bool = False
    events: tuple[TraceEvent, ...] = ()

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(sorted(self.no_way + self.vetoed))


class ReadOnlyResult(_Model):
    evidence_id: str
    rules_revision: str
    tools: tuple[ReadOnlyVerdict, ...]
    """One verdict per POST tool, in manifest order."""
    rounds: tuple[ReadOnlyRound, ...]

    @property
    def read_only_tools(self) -> tuple[str, ...]:
        return tuple(verdict.tool for verdict in self.tools if verdict.read_only)

    def verdict(self, tool: str) -> ReadOnlyVerdict:
        for verdict in self.tools:
            if verdict.tool == tool:
                return verdict
        raise KeyError(tool)

    def read_only_rules(self) -> dict[str, str]:
        """Each read-only tool and the way that decided it (what the view and plans take)."""
        return {v.tool: v.rule for v in self.tools if v.read_only and v.rule}

    def report_rows(self) -> list[dict[str, str]]:
        """``read_only_posts`` of ``capenv report --json``: each read-only tool and its rule id."""
        return [{"tool": v.tool, "rule": v.rule or ""} for v in self.tools if v.read_only]

    @property
    def events(self) -> tuple[TraceEvent, ...]:
        """Every round's trace, in order."""
        return tuple(event for round_ in self.rounds for event in round_.events)

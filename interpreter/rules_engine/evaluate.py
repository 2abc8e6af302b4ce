"""Evaluate a table in order for one subject and record the explanation trace."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from capenv.interpreter.bundle.trusted import trusted

from .loader import CompiledCall, CompiledRule, CompiledTable, RuleSet
from .registry import Match, Miss, Outcome
from .trace import Decision, TraceEvent


def evaluate_rule(rule: CompiledRule, context: BaseModel) -> Outcome:
    """All of a rule's ``when`` calls must match and none of its ``unless`` calls."""
    evidence: dict[str, Any] = {}
    for call in rule.calls:
        outcome = _call(call, context)
        if isinstance(outcome, Miss):
            return outcome if len(rule.calls) == 1 else Miss(f"{call.spec.name}: {outcome.reason}")
        evidence.update(outcome.evidence)
    for call in rule.unless:
        outcome = _call(call, context)
        if isinstance(outcome, Match):
            detail = ", ".join(f"{k}={v}" for k, v in outcome.evidence.items())
            return Miss(f"vetoed by {call.spec.name}" + (f" ({detail})" if detail else ""))
    return Match(evidence)


def _call(call: CompiledCall, context: BaseModel) -> Outcome:
    outcome = call.spec.func(context, call.params)
    if not isinstance(outcome, (Match, Miss)):
        raise TypeError(f"predicate {call.spec.name} returned {type(outcome).__name__}, not Match or Miss")
    return outcome


def evaluate(ruleset: RuleSet, table_name: str, context: BaseModel, *, subject: str,
             only: set[str] | None = None) -> Decision:
    """Evaluate ``table_name`` for ``subject``.

    first-match: rules in order until one matches; the rules tried before it are traced with
    their miss reasons. all-of: every rule is tried and every match recorded (vetoes, lists).
    ``only`` restricts evaluation to some rule ids (the others are not traced).
    """
    table = ruleset.table(table_name)
    return evaluate_table(table, context, subject=subject, revision=ruleset.revision, only=only)


def evaluate_table(table: CompiledTable, context: BaseModel, *, subject: str, revision: str = "",
                   only: set[str] | None = None) -> Decision:
    events: list[TraceEvent] = []
    matched: list[str] = []
    first: CompiledRule | None = None
    first_evidence: dict[str, Any] = {}
    for rule in table.rules:
        if only is not None and rule.id not in only:
            continue
        outcome = evaluate_rule(rule, context)
        if isinstance(outcome, Match):
            events.append(_event(table.name, rule.id, "match", subject, dict(outcome.evidence), None, rule.location))
            matched.append(rule.id)
            if first is None:
                first, first_evidence = rule, outcome.evidence
            if table.evaluation == "first-match":
                break
        else:
            events.append(_event(table.name, rule.id, "miss", subject, {}, outcome.reason, rule.location))
    if first is None:
        yields = dict(table.default or {})
        if table.default is not None:
            events.append(_event(table.name, None, "default", subject, dict(yields), None, table.file))
        return _decision(table.name, subject, revision, (), yields, None, {}, tuple(events))
    return _decision(table.name, subject, revision, tuple(matched), dict(first.yields), first.serve,
                     dict(first_evidence), tuple(events))


def _decision(table: str, subject: str, revision: str, matched: tuple[str, ...], yields: dict[str, Any],
              serve: str | None, evidence: dict[str, Any], events: tuple[TraceEvent, ...]) -> Decision:
    """A decision from values of the right types by construction (as ``_event``)."""
    return trusted(Decision, {"table": table, "subject": subject, "rules_revision": revision, "matched": matched,
                              "yields": yields, "serve": serve, "evidence": evidence, "events": events})


def _event(table: str, rule_id: str | None, outcome: str, subject: str, evidence: dict[str, Any],
           reason: str | None, location: str) -> TraceEvent:
    """A trace event from values of the right types by construction (names from the compiled
    tables, a predicate's evidence dict, its reason): built without validating each one again,
    the hot path of every build (one event per rule tried)."""
    return trusted(TraceEvent, {"table": table, "rule_id": rule_id, "outcome": outcome, "subject": subject,
                                "evidence": evidence, "reason": reason, "location": location})

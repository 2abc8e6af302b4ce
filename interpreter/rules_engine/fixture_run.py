"""Run every fixture case of a rule set and say which fail (``capenv rules check``).

A fixture file names, per rule, ``match_…`` cases the rule must match (with evidence it must
show) and ``no_match_…`` cases it must miss (with a phrase its reason must hold), and table
cases naming the rule the whole table decides by. ``fixture_problems`` (loader) says whether
the cases are there; this module says whether they hold: a case whose expected outcome is
wrong, or whose context the table's context model refuses, is a problem, so ``rules check``
fails on it as ``tests/rules/test_rule_fixtures.py`` does.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from .evaluate import evaluate_rule, evaluate_table
from .loader import RuleSet
from .models import FixtureCase, TableCase
from .registry import CONTEXTS, Match, Miss


def fixture_failures(ruleset: RuleSet) -> list[str]:
    """One line per fixture case whose expectation the tables do not meet."""
    failures: list[str] = []
    for table_name, (display, fixture) in sorted(ruleset.fixtures.items()):
        table = ruleset.table(table_name)
        rules = {rule.id: rule for rule in table.rules}
        for rule_id, cases in fixture.cases.items():
            for case_name, case in cases.items():
                if rule_id not in rules:
                    continue  # fixture_problems names cases of a rule the table lacks
                problem = _rule_case_problem(table.context, rules[rule_id], case_name, case)
                if problem:
                    failures.append(f"{display}: rule {rule_id}: case {case_name}: {problem}")
        for table_case in fixture.table_cases:
            problem = _table_case_problem(table, table_case)
            if problem:
                failures.append(f"{display}: table case {table_case.name}: {problem}")
    return failures


def _context(context_name: str, data: dict[str, Any]) -> BaseModel | str:
    try:
        return CONTEXTS[context_name].model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        return f"its context is not a {context_name} context ({first['loc']}: {first['msg']})"


def _rule_case_problem(context_name: str, rule: Any, case_name: str, case: FixtureCase) -> str | None:
    context = _context(context_name, case.context)
    if isinstance(context, str):
        return context
    outcome = evaluate_rule(rule, context)
    if case_name.startswith("match_"):
        if not isinstance(outcome, Match):
            return f"expected a match, the rule misses: {outcome.reason}"
        for key, value in (case.evidence or {}).items():
            if outcome.evidence.get(key) != value:
                return f"expected evidence {key}={value!r}, the match shows {outcome.evidence.get(key)!r}"
        return None
    if case_name.startswith("no_match_"):
        if not isinstance(outcome, Miss):
            return f"expected no match, the rule matches ({outcome.evidence})"
        if case.reason_contains and case.reason_contains not in outcome.reason:
            return f"expected the reason to hold {case.reason_contains!r}, it says {outcome.reason!r}"
        return None
    return None  # fixture_problems names a case that is neither kind


def _table_case_problem(table: Any, case: TableCase) -> str | None:
    context = _context(table.context, case.context)
    if isinstance(context, str):
        return context
    decision = evaluate_table(table, context, subject=case.name)
    if decision.rule_id != case.expect_rule:
        return f"expected the table to decide by {case.expect_rule}, it decides by {decision.rule_id}"
    return None

"""Every rule's named match/no_match cases from rules/fixtures/*.yaml (collected in conftest).

``pytest -k segment.uuid`` runs one rule's cases; ``pytest -k manifest-segments`` a table's.
"""

from __future__ import annotations

import pytest

from capenv.interpreter.rules_engine import Match, Miss, evaluate_rule, evaluate_table
from capenv.interpreter.rules_engine.registry import CONTEXTS


def _context(ruleset, table_name, data):
    return CONTEXTS[ruleset.table(table_name).context].model_validate(data)


def test_rule_case(ruleset, table_name, rule_id, case_name, case):
    rule = ruleset.table(table_name).rule(rule_id)
    outcome = evaluate_rule(rule, _context(ruleset, table_name, case.context))
    if case_name.startswith("match_"):
        assert isinstance(outcome, Match), f"{rule_id} should match {case.context}: {outcome}"
        for key, value in (case.evidence or {}).items():
            assert outcome.evidence.get(key) == value, f"evidence {key}: {outcome.evidence}"
    elif case_name.startswith("no_match_"):
        assert isinstance(outcome, Miss), f"{rule_id} should not match {case.context}: {outcome}"
        if case.reason_contains:
            assert case.reason_contains in outcome.reason
    else:
        pytest.fail(f"case {case_name!r} must start with match_ or no_match_")


def test_table_case(ruleset, table_name, case):
    decision = evaluate_table(ruleset.table(table_name), _context(ruleset, table_name, case.context),
                              subject=case.name)
    assert decision.rule_id == case.expect_rule, decision.events


def test_every_rule_has_both_kinds_of_case():
    from capenv.interpreter.rules_engine import load_rules

    ruleset = load_rules(with_fixtures=True)
    for rule in ruleset.all_rules():
        _, fixture = ruleset.fixtures.get(rule.table, (None, None))
        names = list((fixture.cases.get(rule.id, {}) if fixture else {}).keys())
        assert any(n.startswith("match_") for n in names), f"{rule.id} has no match_ case"
        assert any(n.startswith("no_match_") for n in names), f"{rule.id} has no no_match_ case"

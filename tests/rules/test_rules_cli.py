"""``capenv rules check|doc|show`` (DESIGN.md §10; STYLE.md habits 4, 10)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from support.rules_copy import line_of

from capenv.interpreter.cli.main import main
from capenv.interpreter.rules_engine import load_rules
from capenv.interpreter.rules_engine.docgen import HEADER, render_rules_doc

REPO = Path(__file__).resolve().parents[2]
REAL_RULES = REPO / "rules"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- check -------------------------------------------------------------------------------

def test_check_passes_on_the_real_tables(capsys):
    code, out, err = run(capsys, "rules", "check")
    assert code == 0, err
    ruleset = load_rules()
    assert out.startswith(f"ok: {len(ruleset.tables)} tables, {len(ruleset.all_rules())} rules")
    assert ruleset.revision in out


def test_check_reports_a_rule_without_fixture_cases(capsys, rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "  - id: segment.untested\n    summary: No fixture covers this.\n"
                           "    when: segment_returned_as_identity\n    yields: {shape: untested}\n", encoding="utf-8")
    code, out, err = run(capsys, "rules", "check", str(rules_dir))
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "segment.untested" in err and "no match_" in err and "no no_match_" in err
    assert f"rules/manifest-segments.yaml:{line_of(path, 'id: segment.untested')}" in err


def test_check_reports_fixture_cases_for_a_missing_rule(capsys, rules_dir):
    fixture = rules_dir / "fixtures" / "manifest-segments.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8").replace(
        "cases:\n", "cases:\n  segment.gone:\n    match_x: {context: {value: \"1\"}}\n", 1), encoding="utf-8")
    code, _, err = run(capsys, "rules", "check", str(rules_dir))
    assert code == 2 and "segment.gone" in err and "not a rule of table manifest-segments" in err


def test_check_runs_every_case_and_fails_on_a_wrong_expectation(capsys, rules_dir):
    """A case whose expected outcome is wrong fails the check, not only the fixture tests: a
    match case turned into a no_match case, evidence the match does not show, a reason phrase
    the miss does not hold, and a table case naming the wrong rule."""
    fixture = rules_dir / "fixtures" / "delete-referrers.yaml"
    text = fixture.read_text(encoding="utf-8")
    wrong = (text.replace("match_ies_plural:", "no_match_ies_plural:", 1)
             .replace("evidence: {member: tracker, objects: 5}", "evidence: {member: tracker, objects: 4}", 1)
             .replace('reason_contains: "0 of its 1 values"', 'reason_contains: "no such phrase"', 1))
    assert wrong.count("no_match_ies_plural") == 1 and "objects: 4}" in wrong and "no such phrase" in wrong
    fixture.write_text(wrong, encoding="utf-8")
    code, out, err = run(capsys, "rules", "check", str(rules_dir))
    assert code == 2 and out == "", out
    assert "3 problem(s)" in err, err
    assert "referrer.named-member: case no_match_ies_plural: expected no match, the rule matches" in err
    assert "case match_objects_repeating_their_entity: expected evidence objects=4, the match shows 5" in err
    assert "case no_match_named_but_no_value_held: expected the reason to hold 'no such phrase'" in err


def test_check_fails_on_a_table_case_deciding_otherwise_and_a_context_it_cannot_read(capsys, rules_dir):
    tabled = next(p for p in sorted((rules_dir / "fixtures").glob("*.yaml"))
                  if "expect_rule: " in p.read_text(encoding="utf-8"))
    tabled.write_text(re.sub(r"expect_rule: [^,}\n]+", "expect_rule: no.such-rule",
                             tabled.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    fixture = rules_dir / "fixtures" / "delete-referrers.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8").replace(
        "context: {member: category_id,", "context: {not_a_member: 1, member: category_id,", 1), encoding="utf-8")
    code, _, err = run(capsys, "rules", "check", str(rules_dir))
    assert code == 2 and "2 problem(s)" in err, err
    assert "expected the table to decide by no.such-rule" in err
    assert "case match_ies_plural: its context is not a delete-referrer context" in err


def test_check_json_lists_a_failing_case(capsys, rules_dir):
    fixture = rules_dir / "fixtures" / "delete-referrers.yaml"
    fixture.write_text(fixture.read_text(encoding="utf-8").replace(
        "match_ies_plural:", "no_match_ies_plural:", 1), encoding="utf-8")
    code, out, _ = run(capsys, "rules", "check", str(rules_dir), "--json")
    data = json.loads(out)
    assert code == 2 and data["ok"] is False
    assert any("no_match_ies_plural" in p for p in data["problems"]), data


# --- doc ---------------------------------------------------------------------------------

def test_doc_check_fails_on_a_stale_file_and_passes_after_doc(capsys, tmp_path):
    output = tmp_path / "docs" / "rules.md"
    code, _, err = run(capsys, "rules", "doc", "--check", "--output", str(output))
    assert code == 2 and "stale" in err and str(output) in err  # missing counts as stale
    output.parent.mkdir()
    output.write_text(render_rules_doc(load_rules()).replace("## ", "## old ", 1), encoding="utf-8")
    code, _, err = run(capsys, "rules", "doc", "--check", "--output", str(output))
    assert code == 2 and "stale" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "rules", "doc", "--output", str(output))
    assert code == 0 and str(output) in out
    code, out, err = run(capsys, "rules", "doc", "--check", "--output", str(output))
    assert code == 0, err
    assert "up to date" in out


def test_doc_follows_the_rules_directory(capsys, tmp_path, rules_dir):
    output = tmp_path / "rules.md"
    assert run(capsys, "rules", "doc", "--rules", str(rules_dir), "--output", str(output))[0] == 0
    text = output.read_text(encoding="utf-8")
    assert text.startswith(HEADER)
    for rule in load_rules(rules_dir).all_rules():
        assert f"| `{rule.id}` | {rule.summary.replace('|', chr(92) + '|')} |" in text
    path = rules_dir / "manifest-segments.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("max_length: 20}", "max_length: 19}"), encoding="utf-8")
    code, _, err = run(capsys, "rules", "doc", "--check", "--rules", str(rules_dir), "--output", str(output))
    assert code == 2 and "stale" in err  # a threshold change makes the reference stale


def test_checked_in_reference_is_current(capsys):
    code, _, err = run(capsys, "rules", "doc", "--check", "--output", str(REPO / "docs" / "rules.md"))
    assert code == 0, err


# --- show --------------------------------------------------------------------------------

def test_show_prints_the_file_and_line(capsys):
    code, out, _ = run(capsys, "rules", "show", "segment.uuid")
    assert code == 0
    line = line_of(REAL_RULES / "manifest-segments.yaml", "id: segment.uuid")
    first = out.splitlines()[0]
    assert first.startswith("segment.uuid") and f"rules/manifest-segments.yaml:{line}" in first
    assert "table manifest-segments" in first
    assert "The 8-4-4-4-12 hexadecimal UUID shape" in out
    assert "segment_matches(" in out and "interpreter/predicates/text_shapes.py:" in out
    assert 'yields {"shape":"uuid"}' in out


def test_show_json(capsys):
    code, out, _ = run(capsys, "rules", "show", "param-name.plural-s", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["id"] == "param-name.plural-s" and data["table"] == "manifest-param-naming"
    assert data["location"] == (f"rules/manifest-param-naming.yaml:"
                                f"{line_of(REAL_RULES / 'manifest-param-naming.yaml', 'id: param-name.plural-s')}")
    assert [(p["predicate"], p["negated"]) for p in data["predicates"]] == [
        ("previous_segment_ends_with", False), ("previous_segment_ends_with", True)]


def test_show_suggests_a_close_id(capsys):
    code, out, err = run(capsys, "rules", "show", "segment.uuidd")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "no rule 'segment.uuidd'" in err and "did you mean segment.uuid" in err


def test_show_without_a_close_id(capsys):
    code, _, err = run(capsys, "rules", "show", "qqqqqq")
    assert code == 2 and "no rule 'qqqqqq'" in err and "did you mean" not in err


def test_show_follows_a_redirect(capsys, rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "    yields: {shape: integer}\n", "    yields: {shape: integer}\n    redirect_from: [segment.digits]\n"),
        encoding="utf-8")
    code, out, _ = run(capsys, "rules", "show", "segment.digits", "--rules", str(rules_dir))
    assert code == 0
    assert "segment.digits was renamed to segment.integer" in out
    assert f"rules/manifest-segments.yaml:{line_of(path, 'id: segment.integer')}" in out

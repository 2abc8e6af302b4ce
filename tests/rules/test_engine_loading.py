"""Loading fails closed: every broken table gives one line naming ``rules/<file>.yaml:LINE``,
the rule id and the key (STYLE.md habit 4).

Each case copies the real ``rules/`` directory into a temporary one, breaks one thing, and
loads it. Expected lines are found in the edited file itself, so the tests keep working when
the real tables grow.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.rules_copy import line_of

from capenv.interpreter.rules_engine import RuleFileError, load_rules
from capenv.interpreter.rules_engine.models import RuleModel

REAL_RULES = Path(__file__).resolve().parents[2] / "rules"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur once in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def load_error(directory: Path) -> RuleFileError:
    with pytest.raises(RuleFileError) as info:
        load_rules(directory)
    message = str(info.value)
    assert "\n" not in message, "a load error is one line"
    return info.value


def assert_names(error: RuleFileError, file: str, line: int, rule_id: str | None, key: str) -> None:
    message = str(error)
    assert message.startswith(f"rules/{file}:{line}: "), message
    if rule_id is not None:
        assert f"rule {rule_id}" in message, message
        assert error.rule_id == rule_id
    assert f"key {key!r}" in message, message
    assert (error.file, error.line, error.key) == (f"rules/{file}", line, key)


def test_the_real_tables_load(rules_dir):
    ruleset = load_rules(rules_dir, with_fixtures=True)
    assert ruleset.tables and all(table.rules for table in ruleset.tables.values())
    for rule in ruleset.all_rules():
        assert rule.location.startswith("rules/") and rule.line > 0


def test_unknown_predicate_suggests_the_close_name(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "when: segment_returned_as_identity", "when: segment_returned_as_identiti")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "segment_returned_as_identiti"),
                 "segment.returned-identity", "when")
    assert "unknown predicate 'segment_returned_as_identiti'" in str(error)
    assert "did you mean 'segment_returned_as_identity'?" in str(error)


def test_unknown_predicate_in_a_list_under_when_points_at_its_item(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "- {predicate: segment_has_classes, params: {letters: true, digits: true}}",
         "- {predicate: segment_has_clases, params: {letters: true, digits: true}}")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "segment_has_clases"), "segment.base62-token", "when")
    assert "did you mean 'segment_has_classes'?" in str(error)


def test_unknown_predicate_far_from_every_name_has_no_suggestion(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "when: segment_returned_as_identity", "when: zzzz")
    error = load_error(rules_dir)
    assert "unknown predicate 'zzzz'" in str(error)
    assert "did you mean" not in str(error)


def test_duplicate_rule_id_across_two_files(rules_dir):
    first = rules_dir / "manifest-segments.yaml"
    extra = rules_dir / "zz-extra.yaml"
    extra.write_text(
        "table: zz-extra\n"
        "summary: A second table that reuses an id.\n"
        "context: segment\n"
        "rules:\n"
        "  - id: segment.other\n"
        "    summary: Anything.\n"
        "    when: segment_returned_as_identity\n"
        "  - id: segment.uuid\n"
        "    summary: The same id as a rule of manifest-segments.\n"
        "    when: segment_returned_as_identity\n", encoding="utf-8")
    error = load_error(rules_dir)
    assert_names(error, "zz-extra.yaml", 8, "segment.uuid", "id")
    assert f"rules/manifest-segments.yaml:{line_of(first, 'id: segment.uuid')}" in str(error)
    assert "duplicate rule id" in str(error)


def test_duplicate_table_name_across_two_files(rules_dir):
    (rules_dir / "zz-extra.yaml").write_text(
        "table: manifest-segments\nsummary: Again.\ncontext: segment\nrules:\n"
        "  - id: extra.one\n    summary: Anything.\n    when: segment_returned_as_identity\n", encoding="utf-8")
    message = str(load_error(rules_dir))
    assert message.startswith("rules/zz-extra.yaml:1: ")
    assert "rules/manifest-segments.yaml" in message


def test_duplicate_yaml_key_in_a_rule(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    yields: {shape: uuid}\n", "    yields: {shape: uuid}\n    summary: Said twice.\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "summary: Said twice."), "segment.uuid", "summary")
    first = line_of(path, "summary: The 8-4-4-4-12")
    assert f"duplicate key (first at line {first})" in str(error)


def test_duplicate_yaml_key_at_the_top_of_a_table(rules_dir):
    path = rules_dir / "manifest-param-naming.yaml"
    edit(path, "evaluation: first-match\n", "evaluation: first-match\nevaluation: all-of\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-param-naming.yaml", line_of(path, "evaluation:", nth=2), None, "evaluation")


def test_wrong_param_type_under_a_single_when(rules_dir):
    path = rules_dir / "manifest-param-naming.yaml"
    edit(path, "params: {suffixes: [ies], min_length: 4}", 'params: {suffixes: [ies], min_length: "eight"}')
    error = load_error(rules_dir)
    assert_names(error, "manifest-param-naming.yaml", line_of(path, '"eight"'), "param-name.plural-ies",
                 "params.min_length")
    assert "previous_segment_ends_with" in str(error) and "min_length: int" in str(error)


def test_wrong_param_type_in_block_style_points_at_the_param(rules_dir):
    path = rules_dir / "manifest-param-naming.yaml"
    edit(path, "    params: {suffixes: [ies], min_length: 4}\n",
         "    params:\n      suffixes: [ies]\n      min_length: eight\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-param-naming.yaml", line_of(path, "min_length: eight"), "param-name.plural-ies",
                 "params.min_length")


def test_wrong_param_type_in_a_list_under_when(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    old = ('{predicate: segment_matches, params: {pattern: "[0-9A-Za-z]+", min_length: 8}}')
    edit(path, old, old.replace("min_length: 8", 'min_length: "eight"'))
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, '"eight"'), "segment.base62-token",
                 "params.min_length")


def test_unknown_param_is_refused(rules_dir):
    path = rules_dir / "manifest-param-naming.yaml"
    edit(path, "params: {suffixes: [ies], min_length: 4}", "params: {suffixes: [ies], min_len: 4}")
    error = load_error(rules_dir)
    assert_names(error, "manifest-param-naming.yaml", line_of(path, "min_len: 4"), "param-name.plural-ies",
                 "params.min_len")


def test_unknown_key_in_a_rule_lists_the_accepted_keys(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    yields: {shape: objectid}\n", "    yields: {shape: objectid}\n    priority: 3\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "priority: 3"), "segment.objectid", "priority")
    accepted = str(error).split("expected one of:", 1)[1]
    for key in RuleModel.model_fields:
        assert key in accepted


def test_unknown_key_at_the_top_of_a_table(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "evaluation: first-match\n", "evaluation: first-match\nordering: strict\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "ordering: strict"), None, "ordering")
    assert "rules" in str(error).split("expected one of:", 1)[1]


def test_missing_summary(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    summary: A 24-character hexadecimal ObjectId.\n", "")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "id: segment.objectid"), "segment.objectid",
                 "summary")
    assert "missing" in str(error)


def test_summary_of_two_lines_is_refused(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    summary: A 24-character hexadecimal ObjectId.\n",
         "    summary: |\n      A 24-character\n      hexadecimal ObjectId.\n")
    error = load_error(rules_dir)
    assert "rule segment.objectid" in str(error) and "key 'summary'" in str(error)
    assert "one non-empty line" in str(error)


def test_unknown_serving_op(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    yields: {shape: ulid}\n", "    yields: {shape: ulid}\n    serve: sequense\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "serve: sequense"), "segment.ulid", "serve")
    assert "unknown serving op 'sequense'; did you mean 'sequence'?" in str(error)


def test_a_known_serving_op_loads(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    yields: {shape: ulid}\n", "    yields: {shape: ulid}\n    serve: sequence\n")
    assert load_rules(rules_dir).rule("segment.ulid").serve == "sequence"


def test_missing_required_yield(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    yields: {shape: ulid}\n", "    yields: {kind: ulid}\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "yields: {kind: ulid}"), "segment.ulid", "yields")
    assert "'shape'" in str(error)


def test_predicate_of_another_context(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "when: segment_returned_as_identity", "when: member_name_in\n    params: {words: [id]}")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "when: member_name_in"),
                 "segment.returned-identity", "when")
    assert "'member-name'" in str(error) and "'segment'" in str(error)


def test_predicate_of_another_context_under_unless(rules_dir):
    path = rules_dir / "manifest-param-naming.yaml"
    edit(path, "unless: [{predicate: previous_segment_ends_with,", "unless: [{predicate: member_name_ends_with,")
    error = load_error(rules_dir)
    assert_names(error, "manifest-param-naming.yaml", line_of(path, "member_name_ends_with"), "param-name.plural-s",
                 "unless")


def test_unknown_table_context(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "context: segment\n", "context: segmnt\n")
    error = load_error(rules_dir)
    assert_names(error, "manifest-segments.yaml", line_of(path, "context: segmnt"), None, "context")
    assert "did you mean 'segment'?" in str(error)


def test_bad_rule_id_shape(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "id: segment.ulid\n", "id: Segment ULID\n")
    error = load_error(rules_dir)
    assert str(error).startswith(f"rules/manifest-segments.yaml:{line_of(path, 'id: Segment ULID')}: ")
    assert "key 'id'" in str(error)


def test_redirect_from_a_live_id_is_refused(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    yields: {shape: ulid}\n", "    yields: {shape: ulid}\n    redirect_from: [segment.uuid]\n")
    message = str(load_error(rules_dir))
    assert "segment.uuid" in message and "rule segment.ulid" in message
    assert f"rules/manifest-segments.yaml:{line_of(path, 'id: segment.ulid')}" in message


def test_yaml_syntax_error_names_the_line(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "    yields: {shape: ulid}\n", "    yields: {shape: ulid\n")
    message = str(load_error(rules_dir))
    assert message.startswith("rules/manifest-segments.yaml:") and "YAML syntax" in message


def test_empty_and_missing_directories(tmp_path):
    with pytest.raises(RuleFileError, match="no \\*.yaml"):
        load_rules(tmp_path)
    with pytest.raises(RuleFileError, match="not a directory"):
        load_rules(tmp_path / "absent")


def test_fixture_naming_a_missing_table(rules_dir):
    (rules_dir / "fixtures" / "zz.yaml").write_text("table: no-such-table\ncases: {}\n", encoding="utf-8")
    load_rules(rules_dir)  # the tables themselves are fine
    with pytest.raises(RuleFileError) as info:
        load_rules(rules_dir, with_fixtures=True)
    assert str(info.value).startswith("rules/fixtures/zz.yaml:1: ") and "no-such-table" in str(info.value)


def _capenv() -> list[str]:
    script = Path(sys.executable).with_name("capenv")
    return [str(script)] if script.exists() else [sys.executable, "-m", "capenv.interpreter.cli.main"]


def test_rules_check_on_a_broken_directory_exits_2_with_one_line(rules_dir):
    path = rules_dir / "manifest-segments.yaml"
    edit(path, "when: segment_returned_as_identity", "when: segment_returned_as_identiti")
    env = {k: v for k, v in os.environ.items() if k != "CAPENV_DEBUG"}
    result = subprocess.run(_capenv() + ["rules", "check", str(rules_dir)], capture_output=True, text=True,
                            timeout=60, env=env)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert f"rules/manifest-segments.yaml:{line_of(path, 'segment_returned_as_identiti')}" in lines[0]
    assert "segment.returned-identity" in lines[0] and "'when'" in lines[0]


@pytest.mark.parametrize("text", ["a: {b: 1\n", "a: 1\n b: 2\n", "a:\n  - 1\n - 2\n", "a: 'open\n", "a: b: c\n"])
def test_yaml_errors_read_as_the_pure_python_parser_words_them(monkeypatch, text):
    """libyaml reads the tables, but a file it refuses is refused in the pure-Python parser's words."""
    from capenv.interpreter.rules_engine import yaml_source

    with pytest.raises(RuleFileError) as fast:
        yaml_source.load_yaml_text(text, "t.yaml")
    monkeypatch.setattr(yaml_source, "_FastLoader", None)
    with pytest.raises(RuleFileError) as pure:
        yaml_source.load_yaml_text(text, "t.yaml")
    assert str(fast.value) == str(pure.value)

"""A maintainer tunes the heuristics without touching code (write-plans issue, Acceptance): an
edited copy of the tables, given to the build with ``--rules``, changes the decisions and the
traces say which rule decided; ``capenv rules check`` rejects a broken edit with a message naming
the file, the line, the rule and the key. (Reordering two rules: ``test_engine_evaluation``.)"""

from __future__ import annotations

from support.capture_runs import build_from, has_plan, items_app, plan
from support.har_builder import HarBuilder
from support.rules_copy import edit_pattern

from capenv.interpreter.cli.main import main


# --- a query word --------------------------------------------------------------------------

def _tally_capture() -> HarBuilder:
    """POST /items/tally answers a count; no GET answers as it does, no body names an operation:
    only a query word in its last segment could make it a read."""
    return (items_app()
            .call("POST", "/items/tally", body={"title": "t1"}, response={"matches": 1})
            .call("POST", "/items/tally", body={"title": "zz"}, response={"matches": 0})
            .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]))


def _read_only_events(bundle, tool: str) -> list:
    return [e for e in bundle.view.traces if e.subject == tool and e.table == "readonly-ways" and e.outcome == "match"]


def test_an_added_query_word_makes_a_post_read_only_and_the_trace_names_the_rule(rules_dir):
    packaged = build_from(_tally_capture())
    assert has_plan(packaged, "POST", "/items/tally")          # "tally" is no query word: a write
    edit_pattern(rules_dir / "readonly-ways.yaml", r"(query_words: \[)", r"\1tally, ")
    edited = build_from(_tally_capture(), rules=rules_dir)
    assert not has_plan(edited, "POST", "/items/tally")        # now a read-only POST: no plan
    events = _read_only_events(edited, "post_items_tally")
    assert [e.rule_id for e in events] == ["readonly.query-word-path"], edited.view.traces
    assert edited.info.rules_revision != packaged.info.rules_revision


# --- the copy minimum ----------------------------------------------------------------------

def _copy_capture() -> HarBuilder:
    """Creates whose answers repeat the sent ``name`` (6 characters) under ``label``."""
    builder = items_app()
    for n, name in ((3, "alpha1"), (4, "bravo2")):
        builder.call("POST", "/items", body={"name": name}, status=201,
                     response={"id": n, "name": name, "label": name})
        builder.call("GET", f"/items/{n}", response={"id": n, "name": name, "label": name})
    return builder


def _label_rule(bundle):
    create = plan(bundle, "POST", "/items")
    rule = next(f for f in create.fields if f.field == "label")
    decided = [e for e in create.traces if e.subject.endswith("label") and e.table == "create-fields"
               and e.outcome == "match"]
    return rule, decided


def test_a_lower_copy_minimum_makes_a_short_repeated_string_a_copy(rules_dir):
    rule, decided = _label_rule(build_from(_copy_capture()))
    assert rule.op != "copy"                                     # 6 characters < the 8-character minimum
    assert all(e.rule_id != "field.copy" for e in decided)
    edit_pattern(rules_dir / "create-fields.yaml", r"(id: field\.copy.*?min_length: )8", r"\g<1>4")
    rule, decided = _label_rule(build_from(_copy_capture(), rules=rules_dir))
    assert rule.op == "copy"
    assert [e.rule_id for e in decided][-1:] == ["field.copy"]


# --- a broken edit -------------------------------------------------------------------------

def test_rules_check_rejects_a_broken_edit_naming_file_line_rule_and_key(capsys, rules_dir):
    path = rules_dir / "create-fields.yaml"
    edit_pattern(path, r"(id: field\.copy.*?min_length: )8", r"\g<1>eight")
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "min_length: eight" in text)
    code = main(["rules", "check", str(rules_dir)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"create-fields.yaml:{line}" in err and "field.copy" in err and "min_length" in err, err

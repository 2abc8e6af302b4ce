"""``capenv explain BUNDLE [TOOL] [--field NAME] [--json]`` (DESIGN.md §10; write-plans issue,
Deliver 7): per plan the classification and effect decisions, per field the rule chosen with the
rules tried before it, per member its admission; the gate's notes; and what a tool's calls
reached as writes no built plan models."""

from __future__ import annotations

import json

from support.capture_runs import items_app

from capenv.interpreter.cli.main import main
from capenv.interpreter.pipeline import build_bundle
from capenv.interpreter.bundle.io import write_bundle

C = {"id": 3, "title": "c"}


def _bundle(tmp_path, builder) -> str:
    target = tmp_path / "bundle"
    write_bundle(target, build_bundle(builder.write(tmp_path / "capture.har")))
    return str(target)


def _served_create(tmp_path) -> str:
    return _bundle(tmp_path, items_app()
                   .call("POST", "/items", body={"title": "c"}, status=201, response=C)    # 4
                   .call("GET", "/items/3", response=C))                                  # 5


def test_a_write_tool_shows_its_effect_fields_members_and_the_rules_tried(tmp_path, capsys):
    assert main(["explain", _served_create(tmp_path), "post_items"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "post_items: create of items, served"
    assert "  field title: field.echo -> echo" in lines and any(line.startswith("  field id: ") for line in lines)
    assert "  member title: accepted (create-member.echo)" in lines, out
    assert "effect.create" in out and "post_items verdict" in out and '{"served":true}' in out


def test_json_carries_the_header_and_every_trace_event(tmp_path, capsys):
    assert main(["explain", _served_create(tmp_path), "post_items", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert (payload["tool"], payload["kind"], payload["effect"], payload["served"]) == ("post_items", "write",
                                                                                        "create", True)
    assert {"table", "rule_id", "outcome", "subject", "evidence", "reason", "location"} <= set(payload["trace"][0])
    assert any(e["table"] == "verdicts" and e["evidence"] == {"served": True} for e in payload["trace"])


def test_field_keeps_only_the_decisions_about_that_field(tmp_path, capsys):
    assert main(["explain", _served_create(tmp_path), "post_items", "--field", "title", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [f["field"] for f in payload["fields"]] == ["title"]
    assert payload["trace"] and all("title" in e["subject"] for e in payload["trace"])


def test_an_unknown_tool_is_bad_input_with_a_suggestion(tmp_path, capsys):
    assert main(["explain", _served_create(tmp_path), "post_item"]) == 2
    assert "did you mean post_items" in capsys.readouterr().err


def test_a_tools_unmodelled_call_shows_what_it_reached(tmp_path, capsys):
    bundle = _bundle(tmp_path, items_app()
                     .call("PATCH", "/items/name/x", body={"title": "q"}, status=204)          # 4: no plan models it
                     .call("GET", "/items/1", response={"id": 1, "title": "t1"}))             # 5
    assert main(["explain", bundle, "patch_items_name_x", "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)["trace"]
    reached = [e for e in trace if e["table"] == "gate" and e["subject"] == "record 4"]
    assert reached and "a write no built plan models" in reached[0]["reason"], trace

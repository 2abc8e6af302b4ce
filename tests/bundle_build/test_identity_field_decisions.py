"""Identity-field decisions are reused per field shape and tool, never across tools."""

from __future__ import annotations

from capenv.interpreter.rules_engine import load_rules
from capenv.interpreter.view.shapes import ShapeReader


def test_a_reused_decision_keeps_each_tools_own_trace_subject():
    reader = ShapeReader(load_rules())
    answers = [[{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]]
    found, subjects = [], []
    for tool in ("get_items", "get_items", "get_notes"):
        start = len(reader.traces)
        found.append(reader.identity_field(answers, subject=tool))
        subjects.append({event.subject for event in reader.traces[start:]})
    assert found[0] == found[1] == found[2] and found[0][0] == "id"
    assert subjects == [{"get_items field 'id'"}, {"get_items field 'id'"}, {"get_notes field 'id'"}]


def test_a_field_whose_shape_changes_is_decided_again():
    reader = ShapeReader(load_rules())
    assert reader.identity_field([[{"id": 1}, {"id": 2}]], subject="get_items")[0] == "id"
    assert reader.identity_field([[{"id": 1}, {"id": 1}]], subject="get_items")[0] is None  # not distinct now

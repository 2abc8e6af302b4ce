"""A missing id read beside fixed-length generated ids (PocketBase's 15-character ``[a-z0-9]``
ids) is a value of the item parameter even when it holds no digit (``zzzzzzzzzzzzzzz``), so its
404 is the item view's absence answer, not a literal tool of its own (``segment.token-sibling``);
a word of another length beside the same ids stays literal."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

A = {"id": "t6cu5l28akg4mky", "title": "A"}
B = {"id": "tji0qp4u6dy78tp", "title": "B"}
MISSING = {"data": {}, "message": "The requested resource wasn't found.", "status": 404}


def capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/records", response={"items": [A, B]})
            .call("GET", f"/records/{A['id']}", response=A)
            .call("GET", f"/records/{B['id']}", response=B)
            .call("GET", "/records/zzzzzzzzzzzzzzz", status=404, response=MISSING)
            .call("PATCH", "/records/zzzzzzzzzzzzzzz", body={"title": "x"}, status=404, response=MISSING)
            .call("GET", "/records/latest", response={"id": B["id"], "title": "B"}))


def test_a_missing_id_without_a_digit_is_a_parameter_value():
    bundle = build_from(capture())
    templates = {(t.method, t.template) for t in bundle.manifest.tools}
    assert ("GET", "/records/{record_id}") in templates and ("PATCH", "/records/{record_id}") in templates
    assert not any("zzzz" in template for _, template in templates)
    assert ("GET", "/records/latest") in templates  # another length: a literal sub-path
    why = {e.subject: e for e in bundle.manifest.traces if e.rule_id == "segment.token-sibling"}
    assert why["/records/zzzzzzzzzzzzzzz"].outcome == "match"  # explain says why it joined the parameter
    assert why["/records/latest"].outcome == "miss" and "6 characters" in why["/records/latest"].reason


def test_its_404_answers_another_missing_id():
    runtime = EnvironmentRuntime(build_from(capture()))
    answer = runtime.call_tool("get_records_by_record_id", {"record_id": "qqqqqqqqqqqqqqq"})
    assert answer.structured["status"] == 404 and answer.structured["body"] == MISSING

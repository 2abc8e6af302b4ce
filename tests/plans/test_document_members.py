"""Document writes admit their members by the ``document-members`` table (write-effects,
"Documents"): every member the exemplar sent is accepted with its JSON kind, required for a PUT
(it replaces the document's members), and each admission is in the plan's trace."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan

BEFORE = {"theme": "light", "lang": "en", "size": 10}


@pytest.mark.parametrize("method,rule_id,required", [
    ("PUT", "document-member.replaced", True),
    ("PATCH", "document-member.merged", False),
])
def test_each_sent_member_is_admitted_by_the_table_with_its_kind(method, rule_id, required):
    after = {"theme": "dark", "lang": "en", "size": 12}
    body = after if method == "PUT" else {"theme": "dark", "size": 12}
    bundle = build_from(items_app()
                        .call("GET", "/settings", response=BEFORE)                 # 4
                        .call(method, "/settings", body=body, response=after)      # 5
                        .call("GET", "/settings", response=after))                 # 6
    document = plan(bundle, method, "/settings")
    assert document.effect == "document" and document.served
    admitted = {m.member: (m.admission, m.rule_id, m.required, m.kind) for m in document.members}
    assert admitted == {name: ("accepted", rule_id, required, "integer" if name == "size" else "string")
                        for name in body}
    traced = [e for e in document.traces if e.table == "document-members" and e.outcome == "match"]
    assert [e.subject for e in traced] == [f"document /settings body.{name}" for name in body]
    assert {e.rule_id for e in traced} == {rule_id}


"""A delete answering a value of the entity it deletes, which only write answers show: the policy's
id its create answered (``{"made lockout": 4}``) and another entity's create answered otherwise
(``{"made spare": 5}``), answered again by the delete (``{"value": 4}``). Serving answers a delete
with its exemplar's answer, so another entity's delete would be answered this entity's value: the
delete is body-unusable, traced. Where the creates answered one value for every entity (a status),
the delete answering it is served."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder


def capture(bound: bool) -> HarBuilder:
    har = HarBuilder()
    rules = [{"name": "base", "active": True}]
    har.call("GET", "/rules", response={"value": rules})
    har.call("GET", "/rules/base", response={"value": [rules[0]]})
    for number, name in ((4, "lockout"), (5, "spare")):
        rule = {"name": name, "active": True}
        rules.append(rule)
        har.call("POST", f"/rules/{name}", body={"active": True},
                 response={"value": {f"made {name}": number if bound else 1}})
        har.call("GET", f"/rules/{name}", response={"value": [rule]})
        har.call("GET", "/rules", response={"value": rules})
    har.call("DELETE", "/rules/lockout", response={"value": 4 if bound else 1})
    har.call("GET", "/rules/lockout", status=404, response={"error": "no such rule"})
    har.call("GET", "/rules", response={"value": [rules[0], rules[2]]})
    return har


@pytest.mark.parametrize("bound", [True, False], ids=["entity-bound", "one-value"])
def test_a_delete_answering_its_entitys_own_value_is_not_served(bound, tmp_path) -> None:
    bundle = build_from(capture(bound), tmp_path / "capture.har")
    delete = plan(bundle, "DELETE", "/rules/{rule_id}")
    notes = [e.reason for e in delete.traces if e.table == "plans" and "a value of the entity" in (e.reason or "")]
    if bound:
        assert not delete.served and delete.reason == "body-unusable", delete.reason
        assert notes and "answered 4 at /value" in notes[0], notes
    else:
        assert not notes, notes
        assert delete.served, delete.reason

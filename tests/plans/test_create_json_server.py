"""json-server's real create (captures/json-server/capture.har, record 11): POST /posts -> 201 with
the body echoed plus ``"id": 4``, while the type held posts 1..3."""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.interpreter.bundle.op_params import OP_PARAMS
from capenv.interpreter.evidence.har import load_evidence
from capenv.interpreter.plans.create_fields import explain_create
from capenv.interpreter.plans.create_inputs import CreateInputs
from capenv.interpreter.rules_engine import load_rules

CAPTURE = Path(__file__).resolve().parents[2] / "captures" / "json-server" / "capture.har"


@pytest.fixture(scope="module")
def explanation():
    evidence = load_evidence(CAPTURE)
    records = {r.ordinal: r for r in evidence.records}
    create, listing = records[11], records[1]
    assert (create.method, create.path, create.status) == ("POST", "/posts", 201)
    posts = listing.response.json
    assert [p["id"] for p in posts] == [1, 2, 3]
    others = [records[14].request.json]
    inputs = CreateInputs(type_name="posts", id_field="id", observed=create.response.json,
                          body=create.request.json, path_args={}, started_at=create.started_at,
                          type_entities=posts, collection_entities=posts, other_calls=others,
                          type_paths={"posts": ["/posts"], "comments": ["/comments"], "users": ["/users"]})
    return explain_create(load_rules(), inputs)


def test_fields(explanation):
    rules = {f.field: (f.rule_id, f.op) for f in explanation.fields}
    assert rules == {"title": ("field.echo", "echo"), "author": ("field.echo", "echo"),
                     "views": ("field.echo", "echo"), "published": ("field.echo", "echo"),
                     "tags": ("field.echo", "echo"), "id": ("field.identity", "identity")}
    identity = next(f for f in explanation.fields if f.field == "id")
    assert identity.params["format"] == "sequence" and identity.params["as_string"] is False
    assert identity.evidence["largest_before"] == 3
    for rule in explanation.fields:
        OP_PARAMS[rule.op].model_validate(rule.params)


def test_members(explanation):
    assert [(m.member, m.admission, m.required, m.kind) for m in explanation.members] == [
        ("title", "accepted", True, "string"), ("author", "accepted", True, "string"),
        ("views", "accepted", True, "integer"), ("published", "accepted", True, "boolean"),
        ("tags", "accepted", True, "array")]
    assert explanation.build_reason is None and explanation.tied_to_collection is False

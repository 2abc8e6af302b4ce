"""A lone identifier-shaped value (``manifest-lone-segments``): one value under a collection path
does not vary, so ``manifest-segments`` keeps it literal (``/posts/1`` beside ``/posts``); but where a
create posted to that collection path answered it as the identity of what it made (doccano's
relation 1 at ``/relations/1`` after ``POST /relations`` answered ``{"id": 1}``), the path is that
entity's item path, and the value a parameter."""

from __future__ import annotations

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.evidence.har import parse_har_bytes
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.rules_engine import load_rules

SNAPSHOT = "67bb06f5-7706-4479-bfd5-ac7e02a21f66"


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def templates(har: HarBuilder, ruleset) -> set[tuple[str, str]]:
    manifest = build_manifest(parse_har_bytes(har.bytes(), source="t.har"), ruleset)
    return {(t.method, t.template) for t in manifest.tools}


def test_the_id_a_create_here_answered_is_a_parameter(ruleset):
    har = (HarBuilder().call("GET", "/notes/5/relations", response=[])
           .call("POST", "/notes/5/relations", body={"to": 3}, status=201, response={"id": 1, "to": 3})
           .call("GET", "/notes/5/relations/1", response={"id": 1, "to": 3})
           .call("PATCH", "/notes/5/relations/1", body={"to": 4}, response={"id": 1, "to": 4})
           .call("DELETE", "/notes/5/relations/1", status=204))
    assert {("GET", "/notes/5/relations/{relation_id}"), ("PATCH", "/notes/5/relations/{relation_id}"),
            ("DELETE", "/notes/5/relations/{relation_id}")} <= templates(har, ruleset)


def test_an_enveloped_uuid_the_create_answered_is_a_parameter(ruleset):
    har = (HarBuilder().call("POST", "/snapshots", body={"name": "a"}, status=201,
                             response={"data": {"snapshot_id": SNAPSHOT, "name": "a"}})
           .call("DELETE", f"/snapshots/{SNAPSHOT}", status=204))
    assert ("DELETE", "/snapshots/{snapshot_id}") in templates(har, ruleset)


def test_a_lone_value_no_create_here_answered_stays_literal(ruleset):
    # the id is returned elsewhere (another collection's create), not by a create at this path
    har = (HarBuilder().call("POST", "/tags", body={"name": "a"}, status=201, response={"id": 1, "name": "a"})
           .call("POST", "/notes/5/relations", body={"to": 3}, status=201, response={"id": 2, "to": 3})
           .call("GET", "/notes/5/relations/1", response={"id": 1, "to": 3}))
    assert ("GET", "/notes/5/relations/1") in templates(har, ruleset)


def test_a_failed_create_answers_no_identity(ruleset):
    har = (HarBuilder().call("POST", "/notes/5/relations", body={"to": 3}, status=400, response={"id": 1})
           .call("GET", "/notes/5/relations/1", response={"id": 1, "to": 3}))
    assert ("GET", "/notes/5/relations/1") in templates(har, ruleset)

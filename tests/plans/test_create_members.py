"""``explain_create``'s member admission: accepted, accepted only as recorded, not accepted;
every member the exemplar sent that a call may send is required."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from capenv.interpreter.plans.create_fields import explain_create
from capenv.interpreter.plans.create_inputs import CreateInputs
from capenv.interpreter.rules_engine import load_rules

START = datetime(2026, 11, 30, 13, 0, 6, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def admit(ruleset, observed: dict[str, Any], body: dict[str, Any], **more: Any):
    inputs = CreateInputs(type_name=more.pop("type_name", "items"), id_field=more.pop("id_field", "id"),
                          observed=observed, body=body, started_at=START, **more)
    explanation = explain_create(ruleset, inputs)
    return {m.member: m for m in explanation.members}, explanation


def test_echoed_members_are_accepted_and_required_with_the_field_kind(ruleset):
    members, _ = admit(ruleset, {"id": 4, "title": "t", "views": 10, "tags": ["new"], "published": False},
                       {"title": "t", "views": 10, "tags": ["new"], "published": False}, type_entities=[{"id": 3}])
    assert {name: (m.admission, m.rule_id, m.required, m.kind) for name, m in members.items()} == {
        "title": ("accepted", "create-member.echo", True, "string"),
        "views": ("accepted", "create-member.echo", True, "integer"),
        "tags": ("accepted", "create-member.echo", True, "array"),
        "published": ("accepted", "create-member.echo", True, "boolean"),
    }


def test_identity_the_client_sends_is_accepted(ruleset):
    members, explanation = admit(ruleset, {"id": "my-key", "title": "t"}, {"id": "my-key", "title": "t"})
    assert members["id"].rule_id == "create-member.identity" and members["id"].admission == "accepted"


def test_member_copied_whole_takes_the_kind_of_its_field(ruleset):
    members, _ = admit(ruleset, {"id": 1, "name": "Quarterly report"}, {"title": "Quarterly report"})
    assert (members["title"].rule_id, members["title"].kind) == ("create-member.copied-whole", "string")


def test_transformed_and_unshown_members_are_not_accepted_nor_required(ruleset):
    members, explanation = admit(ruleset, {"id": 1, "email": "bob@example.com"},
                                 {"email": " Bob@Example.com", "password": "hunter22"})
    assert (members["email"].admission, members["email"].reason, members["email"].required) == \
        ("not-accepted", "transformed", False)
    assert (members["password"].admission, members["password"].reason) == ("not-accepted", "not-shown")
    assert explanation.build_reason is None


def test_a_member_stored_case_folded_is_accepted(ruleset):
    # the text stored in lower case, nothing else changed (field.case-folded-echo): served folded
    members, _ = admit(ruleset, {"id": 1, "email": "bob@example.com"}, {"email": "Bob@Example.com"})
    assert (members["email"].admission, members["email"].required) == ("accepted", True)


def test_ghost_status_draft_beside_published_at_null_is_accepted_only_as_recorded(ruleset):
    others = [{"id": "a1", "status": "published", "published_at": "2026-01-01T00:00:00.000Z"},
              {"id": "a2", "status": "draft", "published_at": None}]
    observed = {"id": "a3", "title": "New post", "status": "draft", "published_at": None}
    members, _ = admit(ruleset, observed, {"title": "New post", "status": "draft"}, type_entities=others)
    status = members["status"]
    assert (status.admission, status.rule_id, status.recorded_value, status.required) == \
        ("recorded-only", "create-member.state-word", "draft", True)
    assert members["title"].admission == "accepted"


def test_state_word_the_tool_also_sent_otherwise_is_an_echo(ruleset):
    others = [{"id": "a1", "status": "published", "published_at": "2026-01-01T00:00:00.000Z"},
              {"id": "a2", "status": "draft", "published_at": None}]
    observed = {"id": "a3", "status": "draft", "published_at": None}
    members, _ = admit(ruleset, observed, {"status": "draft"}, type_entities=others,
                       other_calls=[{"status": "published"}])
    assert members["status"].rule_id == "create-member.echo"


def test_reference_to_the_nesting_object_is_accepted_only_as_recorded(ruleset):
    observed = {"id": 9, "collection_id": 5, "collection": {"id": 5, "name": "Reports"}}
    members, _ = admit(ruleset, observed, {"collection_id": 5}, type_entities=[{"id": 8}])
    assert (members["collection_id"].rule_id, members["collection_id"].recorded_value) == \
        ("create-member.nesting-reference", 5)


def test_parent_id_and_parent_name_derivation(ruleset):
    observed = {"id": "n9", "parentId": "fold-0001", "parentName": "Projects 2024"}
    members, explanation = admit(
        ruleset, observed, {"parentId": "fold-0001"}, type_entities=[{"id": "n1"}],
        type_paths={"folders": ["/api/folders"], "notes": ["/api/notes"]},
        held_entities={"folders": [{"id": "fold-0001", "title": "Projects 2024"}]})
    rules = {f.field: f.rule_id for f in explanation.fields}
    assert rules["parentName"] == "field.constant"
    parent = members["parentId"]
    assert (parent.admission, parent.rule_id, parent.recorded_value) == \
        ("recorded-only", "create-member.named-constant", "fold-0001")
    event = next(e for e in explanation.events if e.rule_id == "create-member.named-constant"
                 and e.outcome == "match")
    assert event.evidence["named_type"] == "folders" and event.evidence["repeats"] == "title"


def test_short_id_names_an_entity_only_under_a_reference_name(ruleset):
    held = {"folders": [{"id": "f1", "title": "Projects 2024"}]}
    as_reference, _ = admit(ruleset, {"id": 2, "parentId": "f1", "parentName": "Projects 2024"},
                            {"parentId": "f1"}, held_entities=held, type_entities=[{"id": 1}])
    assert as_reference["parentId"].rule_id == "create-member.named-constant"
    plain, _ = admit(ruleset, {"id": 2, "parent": "f1", "parentName": "Projects 2024"},
                     {"parent": "f1"}, held_entities=held, type_entities=[{"id": 1}])
    assert plain["parent"].rule_id == "create-member.echo"


def test_date_end_stored_as_a_time_in_another_zone(ruleset):
    observed = {"id": 3, "dateEndDate": "2024-04-30T22:00:00.000Z"}
    members, _ = admit(ruleset, observed, {"dateEnd": "2024-05-01"}, type_entities=[{"id": 2}])
    date_end = members["dateEnd"]
    assert (date_end.admission, date_end.rule_id, date_end.kind) == \
        ("recorded-only", "create-member.named-constant", "string")


def test_value_beside_another_source_in_a_template_is_recorded_only(ruleset):
    observed = {"id": 4, "author": "carol", "url": "/carol/posts/4"}
    members, explanation = admit(ruleset, observed, {"author": "carol"}, type_entities=[{"id": 3}])
    assert {f.field: f.rule_id for f in explanation.fields}["url"] == "field.template"
    assert (members["author"].rule_id, members["author"].recorded_value) == ("create-member.kept-text", "carol")


def test_template_source_member_is_accepted(ruleset):
    members, _ = admit(ruleset, {"id": 4, "url": "/blog/my-post/"}, {"handle": "my-post"},
                       type_entities=[{"id": 3}])
    assert (members["handle"].rule_id, members["handle"].admission, members["handle"].kind) == \
        ("create-member.rebuilt-source", "accepted", "string")


def test_every_member_decision_is_traced(ruleset):
    _, explanation = admit(ruleset, {"id": 1, "title": "t"}, {"title": "t", "secret": "s"})
    member_events = [e for e in explanation.events if e.table == "create-members"]
    assert {e.subject for e in member_events} == {"items body.title", "items body.secret"}
    assert [e.rule_id for e in member_events if e.outcome == "match"] == \
        ["create-member.echo", "create-member.not-shown"]

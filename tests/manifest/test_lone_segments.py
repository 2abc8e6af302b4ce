"""A lone identifier-shaped value (``manifest-lone-segments``): one value under a collection path
does not vary, so ``manifest-segments`` keeps it literal (``/posts/1`` beside ``/posts``); but where a
create posted to that collection path answered it as the identity of what it made (doccano's
relation 1 at ``/relations/1`` after ``POST /relations`` answered ``{"id": 1}``), the path is that
entity's item path, and the value a parameter."""

from __future__ import annotations

import pytest
from support.har_builder import HarBuilder
from support.manifest_routes import route_templates

from capenv.interpreter.rules_engine import load_rules

SNAPSHOT = "67bb06f5-7706-4479-bfd5-ac7e02a21f66"


@pytest.fixture(scope="module")
def ruleset():
    return load_rules()


def test_the_id_a_create_here_answered_is_a_parameter(ruleset):
    har = (HarBuilder().call("GET", "/notes/5/relations", response=[])
           .call("POST", "/notes/5/relations", body={"to": 3}, status=201, response={"id": 1, "to": 3})
           .call("GET", "/notes/5/relations/1", response={"id": 1, "to": 3})
           .call("PATCH", "/notes/5/relations/1", body={"to": 4}, response={"id": 1, "to": 4})
           .call("DELETE", "/notes/5/relations/1", status=204))
    assert {("GET", "/notes/5/relations/{relation_id}"), ("PATCH", "/notes/5/relations/{relation_id}"),
            ("DELETE", "/notes/5/relations/{relation_id}")} <= route_templates(har, ruleset)


def test_an_enveloped_uuid_the_create_answered_is_a_parameter(ruleset):
    har = (HarBuilder().call("POST", "/snapshots", body={"name": "a"}, status=201,
                             response={"data": {"snapshot_id": SNAPSHOT, "name": "a"}})
           .call("DELETE", f"/snapshots/{SNAPSHOT}", status=204))
    assert ("DELETE", "/snapshots/{snapshot_id}") in route_templates(har, ruleset)


def test_a_lone_value_no_create_here_answered_stays_literal(ruleset):
    # the id is returned elsewhere (another collection's create), not by a create at this path
    har = (HarBuilder().call("POST", "/tags", body={"name": "a"}, status=201, response={"id": 1, "name": "a"})
           .call("POST", "/notes/5/relations", body={"to": 3}, status=201, response={"id": 2, "to": 3})
           .call("GET", "/notes/5/relations/1", response={"id": 1, "to": 3}))
    assert ("GET", "/notes/5/relations/1") in route_templates(har, ruleset)


def test_a_failed_create_answers_no_identity(ruleset):
    har = (HarBuilder().call("POST", "/notes/5/relations", body={"to": 3}, status=400, response={"id": 1})
           .call("GET", "/notes/5/relations/1", response={"id": 1, "to": 3}))
    assert ("GET", "/notes/5/relations/1") in route_templates(har, ruleset)


USER = "5f3c2a1b-8d4e-4f6a-9b7c-1d2e3f4a5b6c"
OTHER = "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"


@pytest.mark.parametrize("listed", [
    lambda users: users, lambda users: {"data": users}, lambda users: {"users": users, "meta": {"total": 2}}],
    ids=["bare", "data-envelope", "root-key-with-meta"])
def test_the_id_a_read_of_the_parent_listed_is_a_parameter(ruleset, listed):
    """``lone-segment.listed-here``: one user patched at its item path, never read there, the users
    list showing its id; before, the path stayed literal, a write of one value no call could repeat
    for another user."""
    users = [{"id": USER, "name": "Ann", "bio": "a"}, {"id": OTHER, "name": "Bob", "bio": "b"}]
    har = (HarBuilder().call("GET", "/api/users", response=listed(users))
           .call("PATCH", f"/api/users/{USER}", body={"bio": "a2"}, response={**users[0], "bio": "a2"}))
    assert ("PATCH", "/api/users/{user_id}") in route_templates(har, ruleset)


def test_a_lone_value_the_parent_list_does_not_show_stays_literal(ruleset):
    users = [{"id": OTHER, "name": "Bob", "bio": "b"}]
    har = (HarBuilder().call("GET", "/api/users", response=users)
           .call("PATCH", f"/api/users/{USER}", body={"bio": "a2"}, response={"id": USER, "bio": "a2"}))
    assert ("PATCH", f"/api/users/{USER}") in route_templates(har, ruleset)

"""Answers wrapped in an envelope with a status beside the data (``{"code": 0, "msg": "ok", "data":
…}``) are read as those wrapped in ``{"data": …}`` alone (``kinds.envelope_object``): sibling path
values whose reads show different kinds of entity inside it stay literal, one type per value.
Before, the kinds compared were the envelope's own members, the same for every value, so a row
store's tables (/db/posts, /db/users) became one parameter (/db/{…}) and every table one tool.
An object beside an identity member is an entity's own, never an envelope."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from test_row_pages import row_store

from capenv.interpreter.manifest.identities import identity_judge
from capenv.interpreter.manifest.kinds import entity_members
from capenv.interpreter.rules_engine import load_rules


def with_status(har: HarBuilder) -> HarBuilder:
    for entry in har.entries:
        content = entry["response"]["content"]
        if 200 <= entry["response"]["status"] < 300 and content.get("text"):
            content["text"] = json.dumps({"code": 0, "msg": "ok", "data": json.loads(content["text"])})
    return har


def test_tables_of_a_row_store_stay_literal_inside_a_status_envelope():
    plain = {t.template for t in build_from(row_store()).manifest.tools}
    assert {t.template for t in build_from(with_status(row_store())).manifest.tools} == plain
    assert "/db/posts/{post_id}" in plain and "/db/users/{user_id}" in plain


def test_an_entity_holding_an_identity_beside_its_object_is_no_envelope():
    is_identity = identity_judge(load_rules())
    entity = {"id": 1, "config": {"rules": [{"match": "a", "action": "b"}]}}
    assert entity_members(entity, is_identity=is_identity) == {"id", "config"}
    # the identity member is what tells it: read with none, the rules inside would be taken
    assert entity_members(entity, is_identity=lambda name: False) == {"match", "action"}
    wrapped = {"code": 0, "msg": "ok", "data": {"rows": [{"id": 1, "title": "a"}], "next": None}}
    assert entity_members(wrapped, is_identity=is_identity) == {"id", "title"}


def strategies(wrap) -> HarBuilder:
    """Strategy types named by their name, each listing its parameters; one read lists none."""
    rollout = {"name": "rollout", "description": "a share of users", "parameters": [
        {"name": "share", "type": "percentage"}, {"name": "group", "type": "string"}]}
    region = {"name": "region", "description": "users of some regions", "parameters": [
        {"name": "regions", "type": "list"}]}
    return (HarBuilder()
            .call("GET", "/strategies", response=wrap({"version": 1, "strategies": [rollout]}))
            .call("GET", "/strategies/rollout", response=wrap(rollout))
            .call("POST", "/strategies", body={"name": "region", "description": "users of some regions"},
                  status=201, response=wrap(region))
            .call("GET", "/strategies/region", response=wrap(region))
            .call("PUT", "/strategies/region", body={"name": "region", "description": "listed", "parameters": []},
                  status=200, response="")
            .call("GET", "/strategies/region", response=wrap({**region, "description": "listed", "parameters": []})))


def test_an_item_listing_no_parameters_inside_an_envelope_shows_no_other_kind():
    """A read whose list member (an array of objects in sibling reads) is empty shows no entity,
    inside an envelope as at the root: the name stays a parameter."""
    plain = {t.template for t in build_from(strategies(lambda body: body)).manifest.tools}
    assert plain == {"/strategies", "/strategies/{strategy_id}"}
    for wrap in (lambda body: {"data": body}, lambda body: {"code": 0, "msg": "ok", "data": body}):
        assert {t.template for t in build_from(strategies(wrap)).manifest.tools} == plain

"""A failed item read that newly embeds a created entity (write-effects, "The gate", "Attribution":
"A failed item read whose field newly embeds an entity a create made…"): the create is
contradicted, since serving would not show the change it made there. The other string must be
3 characters or more, 8 or more when the id is shorter than 8 (rules/gate.yaml)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app, plan, summary

PROJECT = {"id": 1, "name": "p1", "latest": None}
OTHER = {"id": 2, "name": "p2", "latest": None}


def _create_then_project_read(created: dict, embedded: dict | None):
    builder = items_app()
    (builder.call("GET", "/projects", response=[PROJECT, OTHER])                                  # 4
     .call("GET", "/projects/1", response=PROJECT).call("GET", "/projects/2", response=OTHER))    # 5, 6
    key = created["id"]
    return build_from(builder
                      .call("POST", "/items", body={"title": created["title"]}, status=201, response=created)  # 7
                      .call("GET", f"/items/{key}", response=created)                                         # 8
                      .call("GET", "/projects/1", response={**PROJECT, "latest": embedded}))                  # 9


LONG = {"id": 3, "title": "a longer title"}
SHORT = {"id": 3, "title": "short"}
UUID = {"id": "5b1f8a52-3c7e-4d0a-9f1e-2a7c4e6b8d90", "title": "abc"}


@pytest.mark.parametrize("created", [LONG, UUID], ids=["short-id-long-string", "long-id-short-string"])
def test_a_read_newly_embedding_a_created_entity_contradicts_its_create(created):
    bundle = _create_then_project_read(created, {"item": dict(created)})
    create = plan(bundle, "POST", "/items")
    assert (create.reason, create.contradicted_by) == ("contradicted", 9), summary(bundle)


def test_a_short_id_with_a_short_string_may_be_a_coincidence():
    bundle = _create_then_project_read(SHORT, dict(SHORT))
    create = plan(bundle, "POST", "/items")
    # the embed check does not take it for the created entity (no contradiction, which would come
    # first); the project read changing right around the create, with no other write between, is
    # still a change serving would not make: a cascade (write-cascades)
    assert create.reason == "side-effect", summary(bundle)
    assert any(e.rule_id == "verdict.cascade" and e.outcome == "match" for e in create.traces)


def test_an_embedding_the_copy_already_holds_contradicts_nothing():
    bundle = _create_then_project_read(LONG, None)   # the read differs, but embeds nothing
    assert plan(bundle, "POST", "/items").contradicted_by is None

"""An update answering its entity's own fields without the relations its item reads join in
(``answer-omission.update-leaves-out``) is served: its answer is rendered from the state less
those members, and later reads still show them. A field one recorded answer showed and another
left out for an entity its reads showed without it (``answer-held-only.left-out-where-unheld``) is
one the application answers only when held: an entity lacking it is answered without it rather
than refused. An answer of fewer fields (a projection of what was sent) is no such omission."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

COLUMNS = {"code": "c", "ratio": "16:9", "fps": "25", "style": "2d", "created_at": "2026-01-01T00:00:00"}
TEAM = {"team": ["alice"], "status_name": "Open"}


def entities(columns: dict) -> tuple[dict, dict]:
    return ({"id": 1, "name": "one", "description": None, **columns, "episode": "e1"},
            {"id": 2, "name": "two", "description": None, **columns})


def productions_app(columns: dict):
    app = HarBuilder()
    one, two = entities(columns)
    app.call("GET", "/productions", response=[{**one, **TEAM}, {**two, **TEAM}])
    for entity in (one, two):
        app.call("GET", f"/productions/{entity['id']}", response={**entity, **TEAM})
    for entity, text in ((one, "first"), (two, "second")):
        written = {**entity, "description": text}
        app.call("PUT", f"/productions/{entity['id']}", body={"description": text}, response=written)
        app.call("GET", f"/productions/{entity['id']}", response={**written, **TEAM})
    return app


def put_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "PUT")


def test_an_update_answering_its_columns_without_the_joined_relations_is_served():
    bundle = build_from(productions_app(COLUMNS))
    plan = put_plan(bundle)
    assert plan.served, plan.reason
    assert plan.response.omitted == ("status_name", "team")
    assert plan.response.held_only == ("episode",)
    runtime = EnvironmentRuntime(bundle)
    try:
        for key, entity in zip(("1", "2"), entities(COLUMNS)):
            answer = runtime.call_tool("put_productions_by_production_id",
                                       {"production_id": key, "body": {"description": "new"}})
            assert not answer.is_error, answer
            assert answer.structured["body"] == {**entity, "description": "new"}
            read = runtime.call_tool("get_productions_by_production_id", {"production_id": key})
            assert read.structured["body"] == {**entity, "description": "new", **TEAM}
    finally:
        runtime.close()


def test_an_answer_of_few_fields_is_no_omission():
    plan = put_plan(build_from(productions_app({})))
    assert plan.response.omitted == ()
    assert not plan.served and plan.reason == "contradicted", plan.reason

"""Side effects the gate pins on a plan beyond paths spelled alike (docs/gate.md, Attribution): a
write at ``/projects/2`` and a read of ``/projects/gemini/versions`` name one project where its item
path takes either its id or its identifier (``key_spellings``); a recorded call its plan does not
explain, brought to its outcome, still changed what no plan models (``Tracking.brought``); and an
id short enough to collide names an entity under a member named after one word of its type's name
(an issue's ``category`` for issue_categories)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

APOLLO = {"id": 1, "identifier": "apollo", "name": "Apollo", "description": "moon"}
GEMINI = {"id": 2, "identifier": "gemini", "name": "Gemini", "description": "orbit"}
V1 = {"id": 1, "project": {"id": 1, "name": "Apollo"}, "name": "1.0", "status": "open"}
V3 = {"id": 3, "project": {"id": 2, "name": "Gemini"}, "name": "beta", "status": "open"}


def projects_app(rename_shows_in_versions: bool) -> HarBuilder:
    renamed = "Gemini II" if rename_shows_in_versions else "Gemini"
    har = HarBuilder()
    har.call("GET", "/projects", response={"projects": [APOLLO, GEMINI]})
    har.call("GET", "/projects/1", response={"project": APOLLO})
    har.call("GET", "/projects/gemini", response={"project": GEMINI})
    har.call("GET", "/projects/apollo/versions", response={"versions": [V1]})
    har.call("GET", "/projects/gemini/versions", response={"versions": [V3]})
    har.call("PUT", "/projects/1", body={"project": {"name": "Apollo", "description": "lunar"}}, status=204)
    har.call("GET", "/projects/1", response={"project": {**APOLLO, "description": "lunar"}})
    # sent without the description the first call sent: serving refuses it, the gate takes its outcome
    har.call("PUT", "/projects/2", body={"project": {"name": "Gemini II"}}, status=204)
    har.call("GET", "/projects/gemini", response={"project": {**GEMINI, "name": "Gemini II"}})
    har.call("GET", "/projects/gemini/versions",
             response={"versions": [{**V3, "project": {"id": 2, "name": renamed}}]})
    har.call("GET", "/projects/apollo", response={"project": {**APOLLO, "description": "lunar"}})
    return har


def update_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "PUT" and p.template.startswith("/projects/"))


def test_a_rename_showing_in_another_types_list_under_the_other_spelling_is_a_side_effect():
    bundle = build_from(projects_app(rename_shows_in_versions=True))
    projects = next(t for t in bundle.view.types if t.name == "projects")
    assert projects.either_key is not None and projects.either_key.member == "identifier"
    plan = update_plan(bundle)
    assert not plan.served and plan.reason == "side-effect", (plan.reason, plan.contradicted_by)
    assert plan.contradicted_by == 10


def test_the_same_capture_without_the_rename_showing_is_served():
    plan = update_plan(build_from(projects_app(rename_shows_in_versions=False)))
    assert plan.served, plan.reason


ISSUE = {"id": 4, "subject": "docs", "category": {"id": 3, "name": "Docs"}, "status": "open"}
KEPT = {"id": 5, "subject": "other", "category": None, "status": "open"}
DOCS = {"id": 3, "name": "Docs", "project": {"id": 1}}
UI = {"id": 6, "name": "UI", "project": {"id": 1}}


def categories_app() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/issue_categories", response={"issue_categories": [DOCS, UI]})
    har.call("GET", "/issue_categories/3", response={"issue_category": DOCS})
    har.call("GET", "/issue_categories/6", response={"issue_category": UI})
    har.call("GET", "/issues", response={"issues": [ISSUE, KEPT]})
    har.call("GET", "/issues/4", response={"issue": ISSUE})
    har.call("GET", "/issues/5", response={"issue": KEPT})
    har.call("DELETE", "/issue_categories/6", status=204)
    har.call("GET", "/issue_categories/6", status=404, response={"error": "not found"})
    har.call("DELETE", "/issue_categories/3", status=204)
    har.call("GET", "/issue_categories/3", status=404, response={"error": "not found"})
    har.call("GET", "/issues/4", response={"issue": {**ISSUE, "category": None}})
    return har


def test_a_delete_clearing_the_category_its_issues_name_is_a_side_effect():
    bundle = build_from(categories_app())
    plan = next(p for p in bundle.view.writes if p.method == "DELETE")
    assert not plan.served and plan.reason == "side-effect", (plan.reason, plan.contradicted_by)
    assert plan.contradicted_by == 11

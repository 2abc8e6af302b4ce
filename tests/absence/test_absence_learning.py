"""The application's own absence answer (issue 16, item 3): learned per type from reads of ids
the capture proves absent (deleted, never shown), traced, and confirming a delete."""

from __future__ import annotations

import json
from pathlib import Path

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.io import write_bundle
from capenv.interpreter.cli.main import main

FORBIDDEN = {"errors": [{"message": "You don't have permission to access this.",
                         "extensions": {"code": "FORBIDDEN"}}]}
ARTICLES = [{"id": 1, "title": "One", "status": "draft"}, {"id": 2, "title": "Two", "status": "published"}]


def forbidden_cms() -> HarBuilder:
    """A CMS answering 403 for an id it does not hold, never-existing or deleted."""
    return (HarBuilder()
            .call("GET", "/articles", response={"data": ARTICLES})
            .call("GET", "/articles/1", response={"data": ARTICLES[0]})
            .call("GET", "/articles/2", response={"data": ARTICLES[1]})
            .call("GET", "/articles/999", status=403, response=FORBIDDEN)
            .call("DELETE", "/articles/2", status=204)
            .call("GET", "/articles/2", status=403, response=FORBIDDEN)
            .call("GET", "/articles", response={"data": ARTICLES[:1]}))


def empty_object_store() -> HarBuilder:
    """A store answering 200 {} for a deleted id."""
    notes = [{"id": "n-100", "text": "a"}, {"id": "n-200", "text": "b"}]
    return (HarBuilder()
            .call("GET", "/notes", response=notes)
            .call("GET", "/notes/n-100", response=notes[0])
            .call("DELETE", "/notes/n-100", status=200, response={"deleted": True})
            .call("GET", "/notes/n-100", response={})
            .call("GET", "/notes/n-200", response=notes[1]))


def test_a_403_for_ids_the_capture_proves_absent_is_the_learned_answer():
    bundle = build_from(forbidden_cms())
    view = bundle.view.view("get_articles_by_article_id")
    assert view.absence is not None and view.absence.recording.status == 403
    assert view.absence.recording.body == FORBIDDEN
    assert view.absence.rule_id == "absence.deleted-id"  # the latest proven evidence: the deleted id
    assert view.absence.records == (4, 6)  # the never-existing id and the deleted one answered alike
    assert view.missing == view.absence.recording


def test_a_403_answer_confirms_the_delete():
    bundle = build_from(forbidden_cms())
    plan = next(p for p in bundle.view.writes if p.tool == "delete_articles_by_article_id")
    assert plan.served, plan.reason
    assert 6 in plan.checked_record_ordinals


def test_a_403_of_an_id_the_capture_shows_is_no_absence():
    har = (HarBuilder()
           .call("GET", "/articles", response={"data": ARTICLES})
           .call("GET", "/articles/1", response={"data": ARTICLES[0]})
           .call("GET", "/articles/2", status=403, response=FORBIDDEN))  # held, but forbidden
    view = build_from(har).view.view("get_articles_by_article_id")
    assert view.absence is None and view.missing is None and view.absence_records == ()


def test_an_empty_object_after_a_delete_is_the_learned_answer_and_no_shape():
    bundle = build_from(empty_object_store())
    view = bundle.view.view("get_notes_by_note_id")
    assert view.kind == "item" and view.state_backed
    assert view.absence is not None and view.absence.recording.status == 200 and view.absence.recording.body == {}
    assert "id" in view.required_fields  # the empty answer is no recording of the entity
    plan = next(p for p in bundle.view.writes if p.tool == "delete_notes_by_note_id")
    assert plan.served and 4 in plan.checked_record_ordinals


def test_the_id_in_an_absence_body_is_marked_for_the_calls_id():
    har = (HarBuilder()
           .call("GET", "/pools", response=[{"name": "alpha-pool", "size": 1}])
           .call("GET", "/pools/alpha-pool", response={"name": "alpha-pool", "size": 1})
           .call("GET", "/pools/beta-pool", status=404,
                 response={"detail": 'Pool "beta-pool" not found.', "request_id": "7d0f6c52-1e6b-4c1e-9d3e-2f6a1c0b9e11"}))
    absence = build_from(har).view.view("get_pools_by_pool_id").absence
    assert absence is not None and absence.rule_id == "absence.never-shown-id"
    assert absence.id_value == "beta-pool" and absence.id_pointers == ("/detail",)
    assert absence.per_response == ("/request_id",)


def test_with_no_absence_recorded_nothing_is_learned_and_the_trace_says_so():
    har = (HarBuilder()
           .call("GET", "/pools", response=[{"id": 1}, {"id": 2}])
           .call("GET", "/pools/1", response={"id": 1})
           .call("GET", "/pools/2", response={"id": 2}))
    bundle = build_from(har)
    assert bundle.view.view("get_pools_by_pool_id").absence is None
    events = [e for e in bundle.view.traces if e.subject == "get_pools_by_pool_id absence answer"]
    assert [e.outcome for e in events] == ["default"] and "tool error" in events[0].reason


def test_explain_shows_the_learned_answer_and_its_records(tmp_path: Path, capsys):
    write_bundle(tmp_path / "b", build_from(forbidden_cms()))
    assert main(["explain", str(tmp_path / "b"), "get_articles_by_article_id", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["absence"]["status"] == 403 and shown["absence"]["rule"] == "absence.deleted-id"
    assert shown["absence"]["records"] == [4, 6]
    rules = {e["rule_id"] for e in shown["trace"] if e["table"] == "view-absence-answers" and e["outcome"] == "match"}
    assert {"absence.never-shown-id", "absence.deleted-id"} <= rules

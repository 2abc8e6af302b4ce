"""A delete answered with its entity less members its reads show (``write-answer-omissions``):
an application that answers ``DELETE /notes/{id}`` with ``{"deleted": true, "previous": {…}}``,
the note without the ``_links`` and ``tags`` its reads carry. Serving renders that answer from
the entity the call deleted, less those members, never the exemplar's note; the gate checks each
recorded answer against that rendering. A delete whose answer shows the whole entity keeps every
member, and one whose later recorded answer shows a member the exemplar's left out is
contradicted, since serving would leave it out."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from write_calls import accepted

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def note(number: int) -> dict:
    return {"id": number, "title": f"note {number}", "body": f"text of note {number}",
            "tags": [number * 10], "_links": {"self": f"/notes/{number}"}}


NOTES = [note(n) for n in (1, 2, 3, 4)]
MISSING = {"code": "not_found", "message": "No such note."}


def answer(entity: dict, drop: tuple[str, ...] = ("tags", "_links")) -> dict:
    return {"deleted": True, "previous": {k: v for k, v in entity.items() if k not in drop}}


def notes_app(*, second_answer_drops: tuple[str, ...] = ("tags", "_links"),
              drop: tuple[str, ...] = ("tags", "_links")) -> HarBuilder:
    har = HarBuilder().call("GET", "/notes", response=NOTES)
    for entity in NOTES:
        har.call("GET", f"/notes/{entity['id']}", response=entity)
    har.call("GET", "/notes/99", status=404, response=MISSING)
    har.call("DELETE", "/notes/1", response=answer(NOTES[0], drop))
    har.call("GET", "/notes/1", status=404, response=MISSING)
    har.call("GET", "/notes", response=NOTES[1:])
    har.call("GET", "/notes/2", response=NOTES[1])
    har.call("DELETE", "/notes/2", response=answer(NOTES[1], second_answer_drops))
    har.call("GET", "/notes/2", status=404, response=MISSING)
    har.call("GET", "/notes", response=NOTES[2:])
    return har


def _delete(bundle):
    return next(p for p in bundle.view.writes if p.method == "DELETE")


def test_a_delete_answering_its_entity_less_its_links_is_served_rendering_the_deleted_entity():
    bundle = build_from(notes_app())
    plan = _delete(bundle)
    assert plan.served, (plan.reason, plan.contradicted_by)
    assert plan.response.carries_entity and plan.response.omitted == ("_links", "tags")
    runtime = EnvironmentRuntime(bundle)
    body = accepted(runtime, plan.tool, {"note_id": "3"})["body"]
    assert body == answer(NOTES[2]), body  # note 3, never the exemplar's note 1, less tags and _links
    gone = runtime.http(HttpRequest("GET", "/notes/3", (), (), b""))
    assert gone.status == 404 and json.loads(gone.body) == MISSING


def test_a_delete_answering_the_whole_entity_omits_nothing():
    plan = _delete(build_from(notes_app(drop=(), second_answer_drops=())))
    assert plan.served, (plan.reason, plan.contradicted_by)
    assert plan.response.omitted == ()


def test_a_later_answer_showing_a_member_the_exemplar_left_out_contradicts_the_plan():
    plan = _delete(build_from(notes_app(second_answer_drops=("_links",))))
    assert not plan.served
    assert plan.contradicted_by is not None, plan.reason

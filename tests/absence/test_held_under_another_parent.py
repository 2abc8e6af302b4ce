"""An id the state holds under another parent, read under this one: an application may look the
child up by its id alone and answer it whatever the parent's segment says, or answer it missing;
one absence recorded under the right parent does not tell which, so the learned absence does not
answer it (docs/absence.md). Where ids are the parent's own (one id, a different entity under each
parent), the absence stands."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

MISSING = {"message": "Not found"}


def notes_app(notes: dict[str, list[dict]]) -> HarBuilder:
    """Boards, each with its notes; one note id that never existed read under the first board."""
    har = HarBuilder().call("GET", "/boards", response=[{"id": int(b), "name": f"board {b}"} for b in notes])
    for board, held in notes.items():
        har = har.call("GET", f"/boards/{board}/notes", response=held)
        for note in held:
            har = har.call("GET", f"/boards/{board}/notes/{note['id']}", response=note)
    return har.call("GET", "/boards/1/notes/4242", status=404, response=MISSING)


def http_get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_an_id_held_under_another_parent_is_refused_not_answered_missing():
    runtime = EnvironmentRuntime(build_from(notes_app({
        "1": [{"id": 1, "text": "milk"}, {"id": 2, "text": "eggs"}],
        "2": [{"id": 3, "text": "paint the door"}]})))
    answer = http_get(runtime, "/boards/1/notes/3")
    assert answer.status == 404 and b"Not found" not in answer.body
    assert b"/boards/2/notes/3" in answer.body  # says where the state holds it
    assert http_get(runtime, "/boards/1/notes/77").body == b'{"message":"Not found"}'  # held nowhere


def test_where_ids_are_the_parents_own_the_absence_stands():
    runtime = EnvironmentRuntime(build_from(notes_app({
        "1": [{"id": 1, "text": "milk"}, {"id": 2, "text": "eggs"}],
        "2": [{"id": 1, "text": "paint the door"}, {"id": 3, "text": "fix the hinge"}]})))
    answer = http_get(runtime, "/boards/1/notes/3")
    assert answer.status == 404 and answer.body == b'{"message":"Not found"}'


def test_an_absence_recorded_for_another_parents_id_answers_the_others():
    """The capture read board 2's note 3 under board 1 before any write and was answered missing: the
    application scopes notes to their board, so another note of board 2 read under board 1 is answered
    missing too (``view-absence-other-parents``), where without that read it is refused. A note's
    empty link is no sighting of it under board 1 (an empty member may stand for a path value the
    capture never shows), since board 2's list holds it under its own board."""
    notes = {"1": [{"id": 1, "text": "milk", "link": "x"}, {"id": 2, "text": "eggs", "link": "y"}],
             "2": [{"id": 3, "text": "paint the door", "link": ""}, {"id": 4, "text": "fix the hinge", "link": ""}]}
    bundle = build_from(notes_app(notes).call("GET", "/boards/1/notes/3", status=404, response=MISSING))
    (view,) = [v for v in bundle.view.views if v.other_parent_absence is not None]
    assert view.other_parent_absence.rule_id == "absence-parent.recorded-absent-elsewhere"
    runtime = EnvironmentRuntime(bundle)
    answer = http_get(runtime, "/boards/1/notes/4")
    assert answer.status == 404 and answer.body == b'{"message":"Not found"}', answer.body
    assert http_get(runtime, "/boards/2/notes/4").status == 200  # held where it is
    unproven = EnvironmentRuntime(build_from(notes_app(notes)))
    assert b"Not found" not in http_get(unproven, "/boards/1/notes/4").body  # refused, as before

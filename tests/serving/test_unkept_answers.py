"""Answers whose body the recorder did not keep (a size and a media type, no text: what DevTools
writes for a body it dropped). They show nothing of the application's state: they neither confirm
nor contradict what the state answers, and serving never answers with them (an empty 200 would be
a wrong answer: the application sent a body); the capture's warnings name them."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.interpreter.evidence.har import load_evidence
from capenv.serving.runtime import EnvironmentRuntime

NOTES = [{"id": 1, "title": "Cards", "pinned": False}, {"id": 2, "title": "Relays", "pinned": True}]
STATS = {"notes": 2, "uptime": 40}


def capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/notes", response=NOTES)
    har.call("GET", "/notes/1", response=NOTES[0])
    har.call("GET", "/notes/2", response=NOTES[1], response_retained=False)
    har.call("GET", "/stats", response=STATS, response_retained=False)
    made = {"id": 3, "title": "Tapes", "pinned": False}
    har.call("POST", "/notes", body={"title": "Tapes"}, status=201, response=made)
    har.call("GET", "/notes/3", response=made, response_retained=False)
    har.call("GET", "/notes", response=[*NOTES, made])
    return har.call("GET", "/notes/3", response=made)


def test_the_capture_warns_of_answers_kept_without_their_body(tmp_path) -> None:
    evidence = load_evidence(capture().write(tmp_path / "capture.har"))
    warning = next(w for w in evidence.warnings if "no body" in w)
    assert warning.startswith("3 answer(s) carry a size but no body") and "records 3, 4, 6" in warning, warning


def test_an_unkept_answer_neither_fails_the_read_gate_nor_the_create(tmp_path) -> None:
    bundle = build_from(capture(), tmp_path / "capture.har")
    items = next(v for v in bundle.view.views if v.tool == "get_notes_by_note_id")
    assert items.state_backed, items.reason
    create = next(p for p in bundle.view.writes if p.tool == "post_notes")
    assert create.served, create.reason


def test_serving_refuses_a_recording_without_its_body_and_answers_the_state(tmp_path) -> None:
    bundle = build_from(capture(), tmp_path / "capture.har")
    with http_in_thread(EnvironmentRuntime(bundle)) as serving:
        status, answer = send(serving, "GET", "/stats")
        assert status == 501 and "kept no body" in answer["message"], (status, answer)
        assert send(serving, "GET", "/notes/2") == (200, NOTES[1])  # the state holds what the list showed

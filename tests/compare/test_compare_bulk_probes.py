"""environment-compare sends a probe's body to a served bulk tool, a DELETE's included
(write-effects, "Bulk and action calls": "A served bulk tool takes its body as recorded …, a
DELETE included, and environment-compare sends a probe's body to it"; coverage row S36)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import SAME, compare, parse_probes

from fake_notes_app import NotesApp, serving  # noqa: E402  (tests/compare is on sys.path)
from support.capture_runs import plan
from support.har_builder import HarBuilder

NOTES = [{"id": 1, "title": "first"}, {"id": 2, "title": "second"}, {"id": 3, "title": "third"}]


class BulkNotesApp(NotesApp):
    """The notes app plus ``DELETE /notes`` with a body ``{"ids": [...]}``, answered 204."""

    def __init__(self) -> None:
        super().__init__()
        self.notes = [dict(note) for note in NOTES]
        self.bodies: list[bytes] = []

    def answer(self, method: str, path: str, body: bytes) -> tuple[int, Any]:
        if method == "DELETE" and path.split("?", 1)[0].rstrip("/") == "/notes":
            self.bodies.append(body)
            named = set(json.loads(body)["ids"])
            with self.lock:
                self.notes = [n for n in self.notes if n["id"] not in named]
            return 204, None
        return super().answer(method, path, body)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory):
    builder = HarBuilder().call("GET", "/notes", response=NOTES)
    for note in NOTES:
        builder.call("GET", f"/notes/{note['id']}", response=note)
    builder.call("DELETE", "/notes", body={"ids": [3]}, status=204)
    builder.call("GET", "/notes/3", status=404, response={"message": "no such note"})
    builder.call("GET", "/notes", response=NOTES[:2])
    return build_bundle(builder.write(tmp_path_factory.mktemp("capture") / "notes.har"))


def test_the_bulk_delete_tool_is_served(bundle):
    bulk = plan(bundle, "DELETE", "/notes")
    assert (bulk.effect, bulk.served) == ("bulk", True), (bulk.reason, bulk.build_reason)


@pytest.mark.parametrize("named", [[2], [1, 2]])
def test_a_bulk_delete_probes_body_reaches_the_live_app_and_the_model(bundle, named):
    """Both sides get the body: the live app records it, and the model removes the entities it
    names (without it the served tool would name none and the list read would differ)."""
    probes = parse_probes(json.dumps([
        {"name": "bulk delete", "method": "DELETE", "path": "/notes", "body": {"ids": named}, "expect": "same"},
        {"name": "the rest", "method": "GET", "path": "/notes", "expect": "same"},
        {"name": "a removed note", "method": "GET", "path": f"/notes/{named[0]}", "expect": "same"},
    ]))
    app = BulkNotesApp()
    with serving(app) as live:
        results = compare(bundle, probes, live)
    assert [json.loads(b) for b in app.bodies] == [{"ids": named}]
    assert json.loads(results[0].requests["model"].body) == {"ids": named}
    assert [r.verdict for r in results] == [SAME, SAME, SAME], [(r.verdict, r.differences) for r in results]
    remaining = json.loads(results[1].answers["model"].body)
    assert [n["id"] for n in remaining] == [n["id"] for n in NOTES if n["id"] not in named]

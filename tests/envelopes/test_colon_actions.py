"""Custom methods glued after a colon (``POST /notes/5:archive``, AIP-136 style): the verb is read
as the action segment it stands for when the capture addresses the text before it alone
(``/notes/5``) and no answer returns the glued segment as a value (``path-colon-actions``); the
entity is then named before its action segment, and serving reads request paths the same way."""

from __future__ import annotations

import json

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

N1, N2 = {"id": 1, "title": "a", "archived": False}, {"id": 2, "title": "b", "archived": False}


def archiving_app() -> HarBuilder:
    a1, a2 = {**N1, "archived": True}, {**N2, "archived": True}
    return (HarBuilder()
            .call("GET", "/v1/notes", response=[N1, N2])
            .call("GET", "/v1/notes/1", response=N1)
            .call("GET", "/v1/notes/2", response=N2)
            .call("GET", "/v1/notes/9", status=404, response={"error": "not found"})
            .call("POST", "/v1/notes/1:archive", response=a1)
            .call("GET", "/v1/notes/1", response=a1)
            .call("GET", "/v1/notes", response=[a1, N2])
            .call("POST", "/v1/notes/1:archive", response=a1)  # archived already: a set, not a toggle
            .call("GET", "/v1/notes/1", response=a1)
            .call("POST", "/v1/notes/2:archive", response=a2)
            .call("GET", "/v1/notes/2", response=a2)
            .call("GET", "/v1/notes", response=[a1, a2]))


def test_a_colon_verb_is_an_action_segment_spelled_glued():
    bundle = build_from(archiving_app())
    assert bundle.manifest.colon_actions == ("archive",)
    tool = bundle.manifest.tool("post_notes_archive")
    assert (tool.template, tool.spelled_template) == ("/v1/notes/{note_id}/:archive", "/v1/notes/{note_id}:archive")
    archive = plan(bundle, "post_notes_archive")
    assert (archive.effect, archive.address.segment, archive.served) == ("action", ":archive", True)
    assert bundle.manifest.route("POST", "/v1/notes/7:archive")[1] == {"note_id": "7"}
    assert bundle.manifest.route("POST", "/v1/notes/7:publish") is None


def test_a_served_colon_action_changes_the_entity_its_path_names():
    runtime = EnvironmentRuntime(build_from(archiving_app()))
    made = runtime.http(HttpRequest("POST", "/v1/notes/1:archive", (), (), b""))
    assert made.status == 200 and json.loads(made.body)["archived"] is True
    assert runtime.read("post_notes_archive", {"note_id": "1"})["state"]["id"] == 1
    # an entity the state does not hold: the recorded absence, never another note's recording
    missing = runtime.http(HttpRequest("POST", "/v1/notes/9:archive", (), (), b""))
    assert missing.status == 404


def test_a_glued_segment_the_answers_return_is_a_value():
    """``urn:isbn`` is a name the answers hold whole: the colon is part of the value."""
    books = [{"id": "urn:isbn", "title": "t"}, {"id": "urn:issn", "title": "u"}]
    har = (HarBuilder()
           .call("GET", "/books", response=books)
           .call("GET", "/books/urn:isbn", response=books[0])
           .call("GET", "/books/urn:issn", response=books[1])
           .call("GET", "/books/urn", status=404, response={"error": "not found"}))
    bundle = build_from(har)
    assert bundle.manifest.colon_actions == ()
    assert bundle.manifest.route("GET", "/books/urn:isbn")[0].name == "get_books_by_book_id"


def test_the_exported_readme_spells_a_colon_action_as_a_client_sends_it(tmp_path):
    from capenv.serving.export.readme import readme_text

    bundle = build_from(archiving_app())
    runtime = EnvironmentRuntime(bundle)
    try:
        text = readme_text(bundle, list(runtime.catalog.entries.values()), tmp_path)
    finally:
        runtime.close()
    assert "POST /v1/notes/{note_id}:archive" in text
    assert "/:archive" not in text

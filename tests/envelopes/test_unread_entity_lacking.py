"""An entity only a list showed, which lacks a field the item view showed of another entity (the
list left it out as its own projection and the state dropped it, or never showed it), is refused by
its item read, not answered without that field: the entity may hold it (a folder listed as
``children: []`` whose own read shows its files). Entities the item view read are answered as held,
an optional field missing included (a document holds no children)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

DOC = {"key": "notes-alpha", "kind": "doc", "title": "alpha", "words": 12}
NOTES = {"key": "notes", "kind": "folder", "title": "notes", "children": [DOC]}
DRAFTS = {"key": "drafts", "kind": "folder", "title": "drafts", "children": [{**DOC, "key": "drafts-beta"}]}


def listed(folder: dict) -> dict:
    return {**folder, "children": []}


def tree() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/items", response=[listed(NOTES), listed(DRAFTS), DOC])
            .call("GET", "/items/notes", response=NOTES)
            .call("GET", "/items/notes-alpha", response=DOC)
            .call("GET", "/items/nothing", status=404, response={"error": "not found"}))


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_folder_only_the_list_showed_is_refused_not_answered_without_its_children():
    runtime = EnvironmentRuntime(build_from(tree()))
    answer = get(runtime, "/items/drafts")
    assert answer.status == 501 and b'lacks \\"children\\"' in answer.body, answer.body
    assert b"refused" in answer.body


def test_read_entities_are_answered_with_or_without_the_field():
    runtime = EnvironmentRuntime(build_from(tree()))
    assert get(runtime, "/items/notes").status == 200
    doc = get(runtime, "/items/notes-alpha")
    assert doc.status == 200 and b"children" not in doc.body

"""The envelopes of a real DRF application (captures/label-studio): ``/api/projects/`` answers
``{"count","next","previous","results"}`` with absolute links, ``/api/tasks/?project=N`` answers
``{"total_annotations","total_predictions","total","tasks"}``, the others bare arrays. Every list
is answered from the state, its counters follow served writes where the state can count them,
and a list whose counters or links the state cannot compute is refused once its collection
changed, never answered with the recorded values."""

from __future__ import annotations

import json

import pytest

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

APP = "label-studio"


@pytest.fixture(scope="module")
def bundle(bundle_dir):
    return read_bundle(bundle_dir(APP))


def roles(bundle, tool: str) -> dict:
    return {m.pointer: (m.role, m.field) for m in bundle.view.view(tool).envelope_members}


def test_every_list_is_state_backed(bundle):
    lists = [v for v in bundle.view.views if v.kind == "list"]
    assert {v.tool for v in lists} >= {"get_projects", "get_tasks", "get_projects_tasks", "get_predictions"}
    assert all(v.state_backed for v in lists), [(v.tool, v.reason) for v in lists if not v.state_backed]


def test_the_envelopes_are_read(bundle):
    assert roles(bundle, "get_projects") == {"/count": ("count", None), "/next": ("next-link", "page"),
                                             "/previous": ("previous-link", "page")}
    assert roles(bundle, "get_tasks") == {"/total_annotations": ("sum", "total_annotations"),
                                          "/total_predictions": ("sum", "total_predictions"),
                                          "/total": ("count", None)}
    assert roles(bundle, "get_projects_tasks") == {}  # a bare array


def test_task_counters_are_never_rendered_stale(bundle):
    # /api/tasks/?project=1 filters by project, a query no learned meaning evaluates (the capture
    # has no whole listing of tasks to prove it against): the state cannot say which tasks it
    # counts, so once a task is gone the list is refused rather than answered with old totals (a
    # task delete changes its project's counters, so it is not served: the grader's data/add drops one)
    runtime = EnvironmentRuntime(bundle)
    before = runtime.read("get_tasks", {"query": {"project": "1"}})["body"]
    assert (before["total"], before["total_annotations"]) == (4, 1)
    annotated = next(t for t in before["tasks"] if t["total_annotations"])
    assert "no tool 'delete_tasks_by_task_id'" in runtime.call_tool(
        "delete_tasks_by_task_id", {"task_id": str(annotated["id"])}).structured["message"]
    document = json.loads(runtime.data_get())
    tasks = next(c for c in document["collections"] if c["path"] == "/api/tasks")
    tasks["entities"] = [e for e in tasks["entities"] if e["id"] != annotated["id"]]
    runtime.data_add(json.dumps(document).encode())
    refused = runtime.call_tool("get_tasks", {"query": {"project": "1"}})
    assert refused.is_error and "/total" in refused.structured["message"]
    assert "collection has changed since it was recorded" in refused.structured["message"]


def test_a_projects_page_links_to_its_neighbours_over_the_state(bundle):
    """The pages were recorded after the capture's own project creates and deletes (three projects
    then, two in the initial state): page 2 recorded a next page 3 the initial projects do not fill.
    The links are rendered from the state's count (list-member.next-page-link, previous-page-link):
    over MCP at the recorded origin, over HTTP at the origin the call reached; a page past the end
    (DRF answers 404 "Invalid page.") is refused. The whole list's are null."""
    runtime = EnvironmentRuntime(bundle)
    first = runtime.read("get_projects", {"query": {"page": "1", "page_size": "1"}})["body"]
    assert (first["count"], first["next"], first["previous"]) == (
        2, "http://127.0.0.1:42010/api/projects/?page=2&page_size=1", None)
    second = runtime.read("get_projects", {"query": {"page": "2", "page_size": "1"}})["body"]
    assert (second["next"], second["previous"]) == (None, "http://127.0.0.1:42010/api/projects/?page_size=1")
    past = runtime.call_tool("get_projects", {"query": {"page": "3", "page_size": "1"}})
    assert past.is_error and "past the 2 entities" in past.structured["message"], past.structured
    answer = runtime.http(HttpRequest("GET", "/api/projects/", (("page", "1"), ("page_size", "1")),
                                      (("authorization", "Token ls-capture-token-not-a-secret-000000001"),), b"",
                                      origin="http://env.test:8080"))
    assert json.loads(answer.body)["next"] == "http://env.test:8080/api/projects/?page=2&page_size=1", answer.body
    whole = runtime.read("get_projects")["body"]
    assert whole["count"] == 2 and whole["next"] is None
    # the projects change (a project delete cascades, so it is not served: the grader's data/add drops one)
    document = json.loads(runtime.data_get())
    projects = next(c for c in document["collections"] if c["path"] == "/api/projects")
    projects["entities"] = [e for e in projects["entities"] if e["id"] != 2]
    runtime.data_add(json.dumps(document).encode())
    whole = runtime.read("get_projects")["body"]
    assert whole["count"] == 1 and whole["next"] is None
    first = runtime.read("get_projects", {"query": {"page": "1", "page_size": "1"}})["body"]
    assert (first["count"], first["next"], first["previous"]) == (1, None, None)

"""A trailing slash is part of a path's spelling, not a segment (DRF style ``/api/projects/`` and
``/api/projects/1/``): one type, readable tool names, and the HTTP surface routes a spelling
only where the capture shows the application answering it."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

P1 = {"id": 1, "title": "alpha", "color": "red"}
P2 = {"id": 2, "title": "beta", "color": "blue"}


def drf_app() -> HarBuilder:
    return (HarBuilder().call("GET", "/api/projects/", response={"count": 2, "results": [P1, P2]})
            .call("GET", "/api/projects/1/", response=P1)
            .call("GET", "/api/projects/2/", response=P2)
            .call("GET", "/api/projects/2", response=P2)  # the application answers it unslashed too
            .call("GET", "/api/tasks/", response=[{"id": 7, "text": "t"}, {"id": 8, "text": "u"}])
            .call("GET", "/api/tasks/7/", response={"id": 7, "text": "t"})
            .call("GET", "/api/tasks/8/", response={"id": 8, "text": "u"})
            .call("PATCH", "/api/projects/2/", body={"color": "green"}, response={**P2, "color": "green"})
            .call("GET", "/api/projects/2/", response={**P2, "color": "green"}))


def http_get(runtime: EnvironmentRuntime, path: str) -> tuple[int, object]:
    answer = runtime.http(HttpRequest("GET", path, (), (), b""))
    return answer.status, json.loads(answer.body)


def test_collection_and_item_templates_make_one_type_with_readable_tool_names():
    bundle = build_from(drf_app())
    names = {t.name: t.template for t in bundle.manifest.tools}
    assert names == {"get_projects": "/api/projects/", "get_projects_by_project_id": "/api/projects/{project_id}/",
                     "get_tasks": "/api/tasks/", "get_tasks_by_task_id": "/api/tasks/{task_id}/",
                     "patch_projects_by_project_id": "/api/projects/{project_id}/"}
    projects = next(t for t in bundle.view.types if t.name == "projects")
    assert (projects.collection_template, projects.item_template) == ("/api/projects/", "/api/projects/{project_id}/")
    assert projects.list_tools == ("get_projects",) and projects.item_tools == ("get_projects_by_project_id",)


def test_the_http_surface_routes_a_spelling_only_where_the_capture_shows_it():
    runtime = EnvironmentRuntime(build_from(drf_app()))
    assert http_get(runtime, "/api/projects/1/") == (200, P1)
    assert http_get(runtime, "/api/projects/1") == (200, P1)  # both spellings recorded for this tool
    assert http_get(runtime, "/api/tasks/7/")[0] == 200
    status, body = http_get(runtime, "/api/tasks/7")  # never recorded unslashed: not answered
    assert status == 404 and "no tool answers GET /api/tasks/7" in json.dumps(body)


def test_a_served_write_is_read_back_in_either_recorded_spelling():
    bundle = build_from(drf_app())
    assert next(p for p in bundle.view.writes if p.tool == "patch_projects_by_project_id").served
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.call_tool("patch_projects_by_project_id", {"project_id": "1", "body": {"color": "green"}})
    assert answer.is_error is False
    assert http_get(runtime, "/api/projects/1")[1]["color"] == "green"
    assert http_get(runtime, "/api/projects/2/")[1]["color"] == "blue"

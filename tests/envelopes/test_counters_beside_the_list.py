"""Lists with extra counters (issue 16): Label Studio's ``{"total_annotations", "total_predictions",
"total", "tasks": […]}``, Strapi's ``{"data": […], "meta": {"pagination": {…, "total"}}}`` and
``{"items": […], "total": n}``. Each counter the recordings show counting the listed members,
or summing one of their fields, is computed from the state, so after a served write the list
still tells the truth; constants stay."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def task(n: int, annotations: int = 0) -> dict:
    return {"id": n, "text": f"t{n}", "total_annotations": annotations}


def tasks_list(tasks: list) -> dict:
    return {"total_annotations": sum(t["total_annotations"] for t in tasks), "total_predictions": 0,
            "total": len(tasks), "tasks": tasks}


def label_studio() -> HarBuilder:
    one, two, three = task(1, 1), task(2), task(3, 2)
    return (HarBuilder()
            .call("GET", "/tasks", response=tasks_list([one, two]))                             # 1
            .call("GET", "/tasks/1", response=one)                                              # 2
            .call("GET", "/tasks/2", response=two)                                              # 3
            .call("POST", "/tasks", body={"text": "t3", "total_annotations": 2}, status=201,
                  response=three)                                                               # 4
            .call("GET", "/tasks/3", response=three)                                            # 5
            .call("GET", "/tasks", response=tasks_list([one, two, three]))                      # 6
            .call("DELETE", "/tasks/1", status=204)                                             # 7
            .call("GET", "/tasks/1", status=404, response={"detail": "Not found."})             # 8
            .call("GET", "/tasks", response=tasks_list([two, three])))                          # 9


def test_counters_and_sums_of_a_field_are_computed():
    bundle = build_from(label_studio())
    view = bundle.view.view("get_tasks")
    assert {m.pointer: (m.role, m.field) for m in view.envelope_members} == {
        "/total_annotations": ("sum", "total_annotations"), "/total_predictions": ("constant", None),
        "/total": ("count", None)}
    assert view.state_backed
    assert plan(bundle, "POST", "/tasks").served and plan(bundle, "DELETE", "/tasks/{task_id}").served


def test_served_writes_keep_the_counters_true():
    runtime = EnvironmentRuntime(build_from(label_studio()))
    runtime.read("post_tasks", {"body": {"text": "t9", "total_annotations": 5}})
    runtime.read("delete_tasks_by_task_id", {"task_id": "2"})
    body = runtime.read("get_tasks")["body"]
    assert (body["total"], body["total_annotations"], body["total_predictions"]) == (2, 6, 0)
    assert [t["text"] for t in body["tasks"]] == ["t1", "t9"]


def strapi_list(items: list, page_size: int = 25) -> dict:
    return {"data": items, "meta": {"pagination": {"page": 1, "pageSize": page_size, "pageCount": 1,
                                                   "total": len(items)}}}


def strapi() -> HarBuilder:
    a, b, c = ({"id": n, "title": t} for n, t in ((1, "a"), (2, "b"), (3, "c")))
    return (HarBuilder()
            .call("GET", "/api/articles", response=strapi_list([a, b]))                         # 1
            .call("GET", "/api/articles/1", response={"data": a, "meta": {}})                    # 2
            .call("POST", "/api/articles", body={"data": {"title": "c"}}, status=201,
                  response={"data": c, "meta": {}})                                             # 3
            .call("GET", "/api/articles/3", response={"data": c, "meta": {}})                    # 4
            .call("GET", "/api/articles", response=strapi_list([a, b, c])))                     # 5


def test_a_nested_pagination_total_is_a_count():
    bundle = build_from(strapi())
    view = bundle.view.view("get_articles")
    assert {m.pointer: m.role for m in view.envelope_members} == {
        "/meta/pagination/page": "constant", "/meta/pagination/pageSize": "constant",
        "/meta/pagination/pageCount": "page-count", "/meta/pagination/total": "count"}  # pages of pageSize
    assert plan(bundle, "POST", "/api/articles").served
    runtime = EnvironmentRuntime(bundle)
    created = runtime.read("post_articles", {"body": {"data": {"title": "z"}}})
    assert created["body"] == {"data": {"id": 3, "title": "z"}, "meta": {}}
    listed = runtime.read("get_articles")["body"]
    assert listed["meta"] == {"pagination": {"page": 1, "pageSize": 25, "pageCount": 1, "total": 3}}
    assert [a["title"] for a in listed["data"]] == ["a", "b", "z"]


def items_total() -> HarBuilder:
    a, b = {"id": 1, "name": "a"}, {"id": 2, "name": "b"}
    return (HarBuilder()
            .call("GET", "/things", response={"items": [a], "total": 1})                        # 1
            .call("GET", "/things/1", response=a)                                               # 2
            .call("POST", "/things", body={"name": "b"}, status=201, response=b)               # 3
            .call("GET", "/things/2", response=b)                                               # 4
            .call("GET", "/things", response={"items": [a, b], "total": 2}))                    # 5


def test_items_and_total():
    bundle = build_from(items_total())
    assert {m.pointer: m.role for m in bundle.view.view("get_things").envelope_members} == {"/total": "count"}
    runtime = EnvironmentRuntime(bundle)
    runtime.read("post_things", {"body": {"name": "c"}})
    runtime.read("post_things", {"body": {"name": "d"}})
    body = runtime.read("get_things")["body"]
    assert body["total"] == 3 and [t["name"] for t in body["items"]] == ["a", "c", "d"]

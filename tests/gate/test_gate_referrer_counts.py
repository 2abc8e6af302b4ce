"""A project's ``task_count`` counts the tasks naming it (``referrer-counts``): a served create or
delete of a task would change the tasks alone, and the project would go on answering the old count
where the capture never read it again after such a write (before: served, and ``GET /projects/1``
answered 2 after a third task was made for it). Now the task's create and delete are not served
(``verdict.referrer-counted``), nor an update moving a task to another project; an update of other
members is. A count of the tasks held below a project's path counts alike. A member that only
happens to agree (one entity, no name of a count, too few distinct values) counts nothing."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

TASKS = [{"id": 1, "title": "Design", "project_id": 1}, {"id": 2, "title": "Build", "project_id": 1},
         {"id": 3, "title": "Test", "project_id": 2}]


def capture(projects: list[dict], tasks: list[dict] = TASKS, read_after_create: dict | None = None) -> HarBuilder:
    har = HarBuilder().call("GET", "/projects", response=projects)
    for project in projects:
        har.call("GET", f"/projects/{project['id']}", response=project)
    har.call("GET", "/tasks", response=tasks)
    for task in tasks:
        har.call("GET", f"/tasks/{task['id']}", response=task)
    made = {"id": 9, "title": "Ship", "project_id": 2}
    har.call("POST", "/tasks", body={"title": "Ship", "project_id": 2}, status=201, response=made)
    if read_after_create is not None:
        har.call("GET", f"/projects/{read_after_create['id']}", response=read_after_create)
    har.call("GET", "/tasks/9", response=made).call("GET", "/tasks", response=tasks + [made])
    renamed = {**tasks[0], "title": "Redesign"}
    har.call("PATCH", "/tasks/1", body={"title": "Redesign"}, response=renamed).call("GET", "/tasks/1", response=renamed)
    moved = {**tasks[1], "project_id": 2}
    har.call("PATCH", "/tasks/2", body={"project_id": 2}, response=moved).call("GET", "/tasks/2", response=moved)
    har.call("DELETE", "/tasks/3", status=204, response=None).call("GET", "/tasks/3", status=404,
                                                                   response={"error": "not found"})
    return har.call("GET", "/tasks", response=[renamed, moved, made])


def verdicts(tmp_path, projects) -> dict[str, tuple[bool, str | None]]:
    bundle = build_from(capture(projects), tmp_path / "capture.har")
    return {f"{m} {t}": (p.served, p.reason) for m, t in [("POST", "/tasks"), ("DELETE", "/tasks/{task_id}")]
            for p in [plan(bundle, m, t)]}


def test_writes_changing_a_count_are_not_served(tmp_path):
    projects = [{"id": 1, "name": "Apollo", "task_count": 2}, {"id": 2, "name": "Gemini", "task_count": 1}]
    bundle = build_from(capture(projects), tmp_path / "capture.har")
    for method, template in [("POST", "/tasks"), ("DELETE", "/tasks/{task_id}")]:
        found = plan(bundle, method, template)
        assert not found.served and found.reason == "side-effect", (method, found)
        assert any(e.rule_id == "verdict.referrer-counted" and e.outcome == "match" for e in found.traces)
    update = plan(bundle, "PATCH", "/tasks/{task_id}")
    assert not update.served and update.reason == "side-effect"  # it accepts project_id: it moves tasks


def test_a_member_that_agrees_by_chance_counts_nothing(tmp_path):
    """``priority`` equals the task counts (2 and 1), but its name says nothing of a count and two
    distinct values could agree by chance."""
    projects = [{"id": 1, "name": "Apollo", "priority": 2}, {"id": 2, "name": "Gemini", "priority": 1}]
    found = verdicts(tmp_path, projects)
    assert found == {"POST /tasks": (True, None), "DELETE /tasks/{task_id}": (True, None)}, found


def test_a_count_of_the_entities_below_a_path_counts_too(tmp_path):
    """Annotations held at ``/tasks/{task_id}/annotations``, counted by each task's ``total_annotations``."""
    tasks = [{"id": 1, "title": "a", "total_annotations": 2}, {"id": 2, "title": "b", "total_annotations": 0},
             {"id": 3, "title": "c", "total_annotations": 1}]
    notes = {1: [{"id": 10, "text": "x"}, {"id": 11, "text": "y"}], 2: [], 3: [{"id": 12, "text": "z"}]}
    har = HarBuilder().call("GET", "/tasks", response=tasks)
    for task in tasks:
        har.call("GET", f"/tasks/{task['id']}", response=task)
        har.call("GET", f"/tasks/{task['id']}/annotations", response=notes[task["id"]])
    made = {"id": 13, "text": "w"}
    har.call("POST", "/tasks/2/annotations", body={"text": "w"}, status=201, response=made)
    har.call("GET", "/tasks/2/annotations", response=[made])
    bundle = build_from(har, tmp_path / "capture.har")
    found = plan(bundle, "POST", "/tasks/{task_id}/annotations")
    assert not found.served and found.reason == "side-effect", found


def test_a_count_the_capture_shows_unchanged_after_a_create_counts_nothing(tmp_path):
    """The project the recorded create named, read just after it, still answers its old
    ``task_count``: the application does not count tasks there, so the create stays served."""
    projects = [{"id": 1, "name": "Apollo", "task_count": 2}, {"id": 2, "name": "Gemini", "task_count": 1}]
    bundle = build_from(capture(projects, read_after_create=projects[1]), tmp_path / "capture.har")
    assert plan(bundle, "POST", "/tasks").served

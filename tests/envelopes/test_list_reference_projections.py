"""A list that names a reference by its id where the item reads embed the object it names (a list of
files showing ``playbook: 1`` where a file's read shows ``playbook: {"id": 1, "name": ...}``, a
list serializer beside a detail one): ``list-projection.reference`` renders the listed member as
that member of the object the state holds, and refuses where the state holds no such object. A
list naming the object by no one member the item reads' objects hold stays refused."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.reads.render import with_references
from capenv.serving.runtime import EnvironmentRuntime

SITE = {"id": 1, "name": "site", "status": "completed"}
DEPLOY = {"id": 2, "name": "deploy", "status": "running"}


def file(n: int, playbook: dict | None, path: str) -> dict:
    return {"id": n, "path": path, "playbook": playbook}


FILES = [file(1, SITE, "/site.yml"), file(2, DEPLOY, "/deploy.yml"), file(3, SITE, "/roles.yml"),
         file(4, None, "/orphan.yml")]


def listed(entity: dict, key: str = "id") -> dict:
    return {**entity, "playbook": None if entity["playbook"] is None else entity["playbook"][key]}


def page(entities: list[dict], key: str = "id") -> dict:
    return {"count": len(entities), "results": [listed(f, key) for f in entities]}


def capture(key: str = "id", items: int = 4) -> HarBuilder:
    har = (HarBuilder().call("GET", "/files", response=page(FILES, key))
           .call("GET", "/files", query="playbook=2", response=page([FILES[1]], key))
           .call("GET", "/files", query="path=/site.yml", response=page([FILES[0]], key)))
    for entity in FILES[:items]:
        har.call("GET", f"/files/{entity['id']}", response=entity)
    return har


def whole(bundle):
    return next(line for line in bundle.view.view("get_files").lines if not line.query)


@pytest.fixture(scope="module")
def bundle():
    return build_from(capture())


def test_the_list_renders_the_id_of_the_object_the_state_holds(bundle):
    lines = bundle.view.view("get_files").lines
    assert len(lines) == 3
    for line in lines:
        assert line.state_backed, line.reason
        assert [(m.name, m.role, m.reference_field, m.rule_id) for m in line.projected_members] == [
            ("playbook", "reference", "id", "list-projection.reference")]
    runtime = EnvironmentRuntime(bundle)
    body = runtime.read("get_files")["body"]
    assert [(f["id"], f["playbook"]) for f in body["results"]] == [(1, 1), (2, 2), (3, 1), (4, None)]
    assert runtime.read("get_files_by_file_id", {"file_id": "2"})["body"] == FILES[1]  # the item keeps the object


@pytest.mark.parametrize(("value", "ids"), [("1", [1, 3]), ("2", [2]), ("7", [])])
def test_a_learned_filter_selects_by_the_reference_the_list_shows(bundle, value, ids):
    """The filter was learned on what the list shows (playbook=2 listed file 2): it compares the
    projected id, not the object the state holds (which no scalar equals: the list would be empty)."""
    assert "playbook" in {spec.param for spec in bundle.view.view("get_files").learned_queries}
    answer = EnvironmentRuntime(bundle).call_tool("get_files", {"query": {"playbook": value}})
    if not ids:  # selecting nothing: the capture never showed this list empty, so how it answers is unknown
        assert answer.is_error and "would list nothing" in answer.structured["message"], answer.structured
        return
    body = answer.structured["body"]
    assert [f["id"] for f in body["results"]] == ids and body["count"] == len(ids)


def test_the_decision_is_traced(bundle):
    events = [e for e in bundle.view.traces if e.table == "view-list-projections" and "'playbook'" in e.subject]
    assert events[-1].rule_id == "list-projection.reference" and events[-1].outcome == "match"
    assert events[-1].evidence["reference_field"] == "id"


def test_an_entity_holding_no_such_object_is_not_listed_as_a_guess(bundle):
    """A grader's state where a file holds the playbook as a bare 5 (or an object without an id):
    the list does not know how it shows it, and refuses rather than guess."""
    for held in (5, {"name": "x"}):
        runtime = EnvironmentRuntime(bundle)
        document = json.loads(runtime.data_get())
        files = next(c for c in document["collections"] if c["path"] == "/files")
        files["entities"][0]["value"]["playbook"] = held
        runtime.data_add(json.dumps(document).encode())
        refused = runtime.call_tool("get_files", {})
        assert refused.is_error and "playbook" in refused.structured["message"], refused.structured
    kept = {"id": 9, "playbook": {"id": 5}}
    rendered, lacking = with_references([kept], {"playbook": "id"})
    assert lacking is None and rendered == [{"id": 9, "playbook": 5}] and kept["playbook"] == {"id": 5}


def test_a_list_naming_the_object_by_a_member_of_no_object_is_refused():
    bundle = build_from(capture(key="name").call("GET", "/files/1", response=FILES[0]))
    line = whole(bundle)
    assert line.state_backed, line.reason  # a name is a member of the object too: rendered as the name
    assert [(m.role, m.reference_field) for m in line.projected_members] == [("reference", "name")]
    har = HarBuilder().call("GET", "/files", response=[{**listed(f), "playbook": "p" if f["playbook"] else None}
                                                       for f in FILES])
    for entity in FILES:
        har.call("GET", f"/files/{entity['id']}", response=entity)
    line = whole(build_from(har))
    assert not line.state_backed and "'playbook'" in line.reason


def test_one_pair_is_not_enough():
    line = whole(build_from(capture(items=1)))
    assert not line.state_backed and "'playbook'" in line.reason

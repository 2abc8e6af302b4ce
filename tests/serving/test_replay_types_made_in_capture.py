"""A replayed read shows a state type when its answers name entities of it, whether the initial
state held them or the capture's own writes made them (``ReplayTable.reads_types``): a node's
links read, outside the links collection, listing a link the capture created. Once the state's
links change (data/add, a served write), its recording may contradict them and is refused, never
answered as recorded (an empty list beside a state holding the node's link). The node read the
capture repeats is another node's, so no line of it changed across the capture's writes."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

LINK = {"link_id": "6b1d3c34-3b2f-4ac7-bee8-829ac80b11a0", "project_id": "p1",
        "nodes": [{"node_id": "n1", "port": 0}, {"node_id": "n2", "port": 0}]}


@pytest.fixture(scope="module")
def bundle():
    har = (HarBuilder()
           .call("GET", "/projects/p1/links", response=[])
           .call("GET", "/projects/p1/nodes/n2/links", response=[])
           .call("POST", "/projects/p1/links", body={"nodes": LINK["nodes"]}, status=201, response=LINK)
           .call("GET", f"/projects/p1/links/{LINK['link_id']}", response=LINK)
           .call("GET", "/projects/p1/links", response=[LINK])
           .call("GET", "/projects/p1/nodes/n1/links", response=[LINK]))
    return build_from(har)


def test_the_read_shows_the_type_its_answers_name_entities_of(bundle):
    tool = next(t for t in bundle.manifest.tools if t.template.endswith("/links") and "nodes" in t.template)
    assert bundle.replay.reads_types.get(tool.name) == ("links",), bundle.replay.reads_types


def test_its_recording_is_refused_once_the_state_holds_other_links(bundle):
    runtime = EnvironmentRuntime(bundle)
    first = runtime.http(HttpRequest("GET", "/projects/p1/nodes/n2/links", (), (), b""))
    assert first.status == 200 and json.loads(first.body) == []  # as the capture began
    document = json.loads(runtime.data_get())
    links = next(c for c in document["collections"] if c["path"] == "/projects/p1/links")
    links["entities"].append({"id": LINK["link_id"], "value": LINK})
    runtime.data_add(json.dumps(document).encode())
    after = runtime.http(HttpRequest("GET", "/projects/p1/nodes/n2/links", (), (), b""))
    assert after.status != 200 and json.loads(after.body).get("message"), (after.status, after.body)

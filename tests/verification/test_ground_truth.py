"""``ground-truth.yaml``: the README's Ground truth as data, matched to what a build serves.

Endpoints are matched through the tools their successful recorded calls reached, never through
capenv's templates; every capture in captures/ has one, and the served write tools never drop
under the floor it records (issue 16: json-server 14 — its post delete cascades, so it is unserved as its ground truth says —, Kinto 3, Prefect 10).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.interpreter.cli.main import main
from capenv.interpreter.ground_truth import (GROUND_TRUTH_FILE, Endpoint, GroundTruth, GroundTruthError,
                                             judge_endpoints, load_ground_truth)
from capenv.interpreter.gate.gate_notes import UNEXPLAINED
from capenv.interpreter.pipeline import build_bundle
from capenv.interpreter.rules_engine import TraceEvent
from support.har_builder import HarBuilder

REPO = Path(__file__).resolve().parents[2]
CAPTURE_DIRS = sorted(p.parent for p in (REPO / "captures").glob("*/capture.har"))


def endpoint(method: str, path: str, servable: bool = True) -> Endpoint:
    return Endpoint(method=method, path=path, servable=servable, why="because")


@pytest.mark.parametrize("path, spelled, matches", [
    ("/api/projects/{id}/", "/api/projects/5", True),  # a trailing slash is spelling
    ("/api/projects/{id}", "/api/projects/5/", True),
    ("/api/projects/{id}", "/api/projects/5/tasks", False),
    ("/api/contents/{path...}", "/api/contents/a/b/c.txt", True),
    ("/api/contents/{path...}", "/api/contents", False),
    ("/blog/{table}/-/insert", "/blog/articles/-/insert", True),
    ("/blog/{table}/-/insert", "/blog/-/insert", False),
    ("/issues/{id}.json", "/issues/7.json", True),  # a parameter before a format suffix
    ("/issues/{id}.json", "/issues/7", True),  # the suffix is spelling, as the build reads it
    ("/issues/{id}.json", "/issues/7/relations", False),
    ("/projects/{id}.json", "/projects/apollo/versions.json", False),
    ("/projects/{project}/versions.json", "/projects/apollo/versions", True),
    ("/projects/{project}/versions.json", "/projects/apollo", False),
])
def test_a_pattern_covers_one_segment_per_name_and_several_with_dots(path, spelled, matches):
    assert bool(endpoint("POST", path).pattern().fullmatch(spelled.rstrip("/"))) is matches


def test_a_call_belongs_to_the_most_literal_endpoint_covering_it(tmp_path):
    har = (HarBuilder()
           .call("GET", "/c/a.txt", response={"path": "a.txt"})
           .call("POST", "/c/a.txt/checkpoints", status=201, response={"id": "checkpoint"})
           .call("DELETE", "/c/a.txt/checkpoints/checkpoint", status=204)
           .call("DELETE", "/c/b.txt", status=204)
           .call("DELETE", "/c/missing.txt", status=404, response={"message": "no"}))
    bundle = build_bundle(har.write(tmp_path / "c.har"))
    truth = GroundTruth(application="test", endpoints=(
        endpoint("DELETE", "/c/{path...}"), endpoint("DELETE", "/c/{path...}/checkpoints/{id}", servable=False),
        endpoint("PUT", "/c/{path...}")))
    by_label = {v.endpoint.label: v for v in judge_endpoints(truth, bundle)}
    deletes, checkpoint = by_label["DELETE /c/{path...}"], by_label["DELETE /c/{path...}/checkpoints/{id}"]
    assert checkpoint.tools and deletes.tools and not set(checkpoint.tools) & set(deletes.tools)
    assert by_label["PUT /c/{path...}"].tools == () and not by_label["PUT /c/{path...}"].is_served
    for verdict in by_label.values():  # every tool not served says why
        assert len(verdict.reasons) == len(verdict.tools) - len(verdict.served)


@pytest.mark.parametrize("text, message", [
    ("application: x\nendpoints:\n  - {method: FETCH, path: /a, servable: true, why: w}\n",
     "endpoints/0/method"),
    ("application: x\nendpoints:\n  - {method: GET, path: 'a', servable: true, why: w}\n", "a path starting with /"),
    ("application: x\nendpoints:\n  - {method: GET, path: '/a/x{id}', servable: true, why: w}\n",
     "a parameter is the whole segment"),
    ("application: x\nendpoints:\n  - {method: GET, path: /a, servable: true}\n", "endpoints/0/why"),
    ("application: x\nbogus: 1\n", "bogus"),
    ("application: [unclosed\n", "cannot read it"),
])
def test_a_bad_file_is_one_line_naming_it(tmp_path, text, message):
    (tmp_path / GROUND_TRUTH_FILE).write_text(text)
    with pytest.raises(GroundTruthError) as caught:
        load_ground_truth(tmp_path / "capture.har")
    assert message in str(caught.value) and str(tmp_path / GROUND_TRUTH_FILE) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_verify_refuses_a_bad_ground_truth_with_exit_2(tmp_path, capsys):
    har = HarBuilder().call("GET", "/a", response={"id": 1}).write(tmp_path / "capture.har")
    (tmp_path / GROUND_TRUTH_FILE).write_text("application: x\nendpoints: 3\n")
    assert main(["verify", str(har), "--output", str(tmp_path / "v.md")]) == 2
    assert "ground-truth.yaml" in capsys.readouterr().err


@pytest.mark.parametrize("capture_dir", CAPTURE_DIRS, ids=lambda p: p.name)
def test_every_capture_has_a_ground_truth_that_names_its_application(capture_dir):
    truth = load_ground_truth(capture_dir / "capture.har")
    assert truth is not None, f"{capture_dir.name}: no {GROUND_TRUTH_FILE} (capenv verify measures against it)"
    assert truth.endpoints or truth.served_at_least is not None


FLOORS = [d for d in CAPTURE_DIRS if (load_ground_truth(d / "capture.har") or GroundTruth(application="-"))
          .served_at_least is not None]


@pytest.mark.parametrize("capture_dir", FLOORS, ids=lambda p: p.name)
def test_the_served_write_tools_do_not_drop_under_the_floor(capture_dir):
    truth = load_ground_truth(capture_dir / "capture.har")
    bundle = build_bundle(capture_dir / "capture.har")
    served = sorted(w["tool"] for w in bundle.report["writes"] if w["served"])
    assert len(served) >= truth.served_at_least, f"{capture_dir.name}: served only {served}"


def test_a_served_tool_whose_plan_refuses_every_call_of_an_endpoint_does_not_serve_it(tmp_path):
    # one tool for a generic segment (/classes/{name}) whose plan accepts one class's members refuses
    # the other class's recorded calls: that endpoint is not served, and the verdict says why
    author = {"id": 1, "name": "Lem"}
    har = (HarBuilder()
           .call("GET", "/authors", response=[author])
           .call("GET", "/authors/1", response=author)
           .call("POST", "/authors", status=201, body={"name": "Le Guin"}, response={"id": 2, "name": "Le Guin"})
           .call("GET", "/authors/2", response={"id": 2, "name": "Le Guin"})
           .call("GET", "/authors", response=[author, {"id": 2, "name": "Le Guin"}]))
    bundle = build_bundle(har.write(tmp_path / "a.har"))
    create = next(p for p in bundle.view.writes if p.effect == "create")
    assert create.served
    truth = GroundTruth(application="test", endpoints=(endpoint("POST", "/authors"),))
    assert judge_endpoints(truth, bundle)[0].is_served
    refused = TraceEvent(table="gate", rule_id=None, outcome="miss", subject=create.tool,
                         evidence={"record": 3, "kind": "call", UNEXPLAINED: True,
                                   "refusal": "member 'name' is not accepted; accepted members: title"},
                         reason="record 3: the plan does not explain this call", location="test")
    marked = create.model_copy(update={"traces": create.traces + (refused,)})
    view = bundle.view.model_copy(update={"writes": tuple(marked if p is create else p for p in bundle.view.writes)})
    verdict = judge_endpoints(truth, bundle.model_copy(update={"view": view}))[0]
    assert not verdict.is_served and verdict.tools == (create.tool,)
    assert verdict.reasons == (f"{create.tool}: served, but its plan explains none of this endpoint's calls "
                               "(record 3: serving refuses it: member 'name' is not accepted; accepted members: "
                               "title)",)

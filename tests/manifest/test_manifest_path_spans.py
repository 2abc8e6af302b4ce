"""A path parameter spanning segments (rules/manifest-path-spans.yaml, manifest-span-words.yaml):
file paths under one prefix are one parameter whatever their depth, a word following several
proven values is a literal sub-path, and serving folds a request path as the capture's were."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def _file(path: str, text: str) -> dict:
    return {"name": path.rsplit("/", 1)[-1], "key": path, "size": len(text), "text": text}


A, B, C = _file("a.txt", "one"), _file("docs/b.txt", "two"), _file("docs/sub/c.txt", "three")


def file_store() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/files/a.txt", response=A)
            .call("GET", "/files/docs/b.txt", response=B)
            .call("GET", "/files/docs/sub/c.txt", response=C)
            .call("GET", "/files/docs/b.txt/versions", response=[{"id": "v1", "size": 3}])
            .call("GET", "/files/a.txt/versions", response=[{"id": "v1", "size": 3}, {"id": "v2", "size": 3}])
            .call("GET", "/files/docs/nothing.md", status=404, response={"message": "no such file"}))


def test_file_paths_of_any_depth_are_one_parameter_and_a_following_word_a_literal():
    bundle = build_from(file_store())
    templates = {t.name: t.template for t in bundle.manifest.tools}
    assert templates == {"get_by_file_id": "/files/{file_id}", "get_versions": "/files/{file_id}/versions"}
    [span] = bundle.manifest.path_spans
    assert span.prefix == ("files",) and span.words == ("versions",)
    rules = {e.rule_id for e in bundle.manifest.traces if e.outcome == "match"}
    assert {"span.member-equals-tail", "span-word.follows-values", "segment.spanned-path"} <= rules
    view = bundle.view.view("get_by_file_id")
    assert view.kind == "item" and view.state_backed  # the key carries the whole path at every depth


def test_serving_folds_a_request_path_and_a_tool_argument_alike():
    runtime = EnvironmentRuntime(build_from(file_store()))
    answer = runtime.http(HttpRequest("GET", "/files/docs/sub/c.txt", (), (), b""))
    assert answer.status == 200 and json.loads(answer.body) == C
    called = runtime.read("get_by_file_id", {"file_id": "docs/b.txt"})
    assert called["status"] == 200 and called["body"] == B
    versions = runtime.http(HttpRequest("GET", "/files/docs/b.txt/versions", (), (), b""))
    assert versions.status == 200 and json.loads(versions.body) == [{"id": "v1", "size": 3}]


def test_a_fixed_two_segment_name_is_no_span():
    """full_name "owner/repo" equals the tail at one depth only: owner and repo stay two parameters."""
    har = HarBuilder()
    for owner, repo in (("alice", "proj"), ("bob", "lib"), ("carol", "app")):
        har.call("GET", f"/repos/{owner}/{repo}", response={"id": len(owner), "full_name": f"{owner}/{repo}",
                                                             "name": repo})
    bundle = build_from(har)
    assert bundle.manifest.path_spans == ()
    assert [t.template for t in bundle.manifest.tools] == ["/repos/{repo_id}/{repo_id_id}"] or all(
        "%2F" not in t.template for t in bundle.manifest.tools)

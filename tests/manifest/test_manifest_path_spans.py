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


def _dir(path: str) -> dict:
    return {"name": path.rsplit("/", 1)[-1], "key": path, "size": None, "text": None}


def tree_store() -> HarBuilder:
    """Deleting a file removes it; deleting a directory removes what is under it too."""
    missing = {"message": "no such file"}
    return (HarBuilder()
            .call("GET", "/files/a.txt", response=A)
            .call("GET", "/files/docs", response=_dir("docs"))
            .call("GET", "/files/docs/b.txt", response=B)
            .call("GET", "/files/docs/sub", response=_dir("docs/sub"))
            .call("GET", "/files/docs/sub/c.txt", response=C)
            .call("DELETE", "/files/a.txt", status=204)
            .call("GET", "/files/a.txt", status=404, response=missing)
            .call("DELETE", "/files/docs/sub", status=204)
            .call("GET", "/files/docs/sub", status=404, response=missing)
            .call("GET", "/files/docs/sub/c.txt", status=404, response=missing))


def test_a_delete_of_a_path_with_entities_under_it_is_refused_and_the_plain_delete_served():
    bundle = build_from(tree_store())
    [files] = bundle.view.types
    assert files.nested_ids
    delete = next(p for p in bundle.view.writes if p.method == "DELETE")
    assert delete.served, delete.reason
    refused = [t.reason for t in delete.traces if "serving refuses it" in (t.reason or "")]
    assert len(refused) == 1 and '"docs/sub/c.txt"' in refused[0]
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.http(HttpRequest("DELETE", "/files/docs", (), (), b""))
    assert answer.status >= 400 and "docs/b.txt" in answer.body.decode()
    assert runtime.http(HttpRequest("GET", "/files/docs/b.txt", (), (), b"")).status == 200  # nothing changed
    assert runtime.http(HttpRequest("DELETE", "/files/docs/b.txt", (), (), b"")).status == 204
    assert runtime.http(HttpRequest("GET", "/files/docs/b.txt", (), (), b"")).status == 404


def test_ids_that_are_no_paths_are_not_nested():
    har = (HarBuilder().call("GET", "/notes/1", response={"id": 1}).call("GET", "/notes/2", response={"id": 2})
           .call("DELETE", "/notes/1", status=204).call("GET", "/notes/1", status=404, response={}))
    assert not any(t.nested_ids for t in build_from(har).view.types)


def test_a_document_writes_unexplained_call_leaves_the_collection_at_its_path_checked():
    """A root document at the collection's own path (a directory's settings): a call its document
    plan does not explain (another query) brings the document to what its next read shows; it is
    no unmodelled write at the collection path, so the collection's deletes are still checked."""
    root = {"key": "", "kind": "dir", "label": "root"}
    har = (HarBuilder()
           .call("GET", "/files", response=root)
           .call("GET", "/files/a.txt", response=A)
           .call("GET", "/files/docs/b.txt", response=B)
           .call("GET", "/files/docs/sub/c.txt", response=C)
           .call("POST", "/files", body={"label": "top"}, response={**root, "label": "top"})
           .call("GET", "/files", response={**root, "label": "top"})
           .call("POST", "/files", query="force=1", body={"label": "y"}, response={**root, "label": "y"})
           .call("GET", "/files", response={**root, "label": "y"})
           .call("DELETE", "/files/a.txt", status=204)
           .call("GET", "/files/a.txt", status=404, response={"message": "no such file"}))
    bundle = build_from(har)
    document = next(p for p in bundle.view.writes if p.method == "POST")
    assert document.effect == "document" and document.build_reason is None
    delete = next(p for p in bundle.view.writes if p.method == "DELETE")
    assert delete.served, delete.reason

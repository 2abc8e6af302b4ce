"""What the bundle says about a call: its tool, served or not, and the scope of a write."""

from __future__ import annotations

import pytest

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare.tool_index import ToolIndex, within

from support.har_builder import HarBuilder

POSTS = [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> ToolIndex:
    har = (HarBuilder()
           .call("GET", "/posts", response=POSTS)
           .call("GET", "/posts/1", response=POSTS[0])
           .call("GET", "/posts/2", response=POSTS[1])
           .call("GET", "/profile", response={"name": "n"})
           .call("POST", "/posts", body={"title": "c"}, status=201, response={"id": 3, "title": "c"})
           .call("PATCH", "/posts/3", body={"title": "d"}, response={"id": 3, "title": "d"})
           .call("PATCH", "/posts/2", body={"title": "e"}, response={"id": 2, "title": "e"})
           .call("POST", "/posts/2/publish", response={"ok": True})
           .call("POST", "/posts/3/publish", response={"ok": True})
           .call("PUT", "/profile", body={"name": "m"}, response={"name": "m"}))
    return ToolIndex(build_bundle(har.write(tmp_path_factory.mktemp("capture") / "posts.har")))


def test_tools_and_what_is_served(index: ToolIndex):
    read = index.tool("GET", "/posts/2")
    assert read.name == "get_posts_by_post_id" and read.served and not read.writes
    assert index.tool("HEAD", "/posts").name == "get_posts"
    assert index.tool("PATCH", "/posts/9").writes
    unknown = index.tool("DELETE", "/nothing/1")
    assert unknown.name is None and not unknown.served and unknown.writes


def test_write_scopes(index: ToolIndex):
    assert index.write_scopes("PATCH", "/posts/2") == [("posts",)]  # an item write: its collection
    assert index.write_scopes("POST", "/posts") == [("posts",)]  # a create: the collection
    assert index.write_scopes("POST", "/posts/2/publish") == [("posts", "2", "publish"), ("posts",)]  # an action
    assert index.write_scopes("PUT", "/profile") == [("profile",)]  # a document
    assert index.write_scopes("DELETE", "/things/7") == [("things",)]  # no tool: an item write by its shape


def test_within_compares_whole_segments():
    assert within("/posts/2", ("posts",)) and within("/posts", ("posts",)) and within("/posts/", ("posts",))
    assert not within("/postsx/1", ("posts",)) and not within("/", ("posts",))


def test_a_write_addressed_another_way_also_scopes_its_types_collection(tmp_path):
    har = (HarBuilder()
           .call("GET", "/vars/1", response={"id": 1, "name": "a"})
           .call("GET", "/vars/2", response={"id": 2, "name": "b"})
           .call("PATCH", "/vars/name/a", body={"v": 1}, status=204)
           .call("PATCH", "/vars/name/b", body={"v": 2}, status=204))
    index = ToolIndex(build_bundle(har.write(tmp_path / "vars.har")))
    assert index.write_scopes("PATCH", "/vars/name/a") == [("vars", "name"), ("vars",)]


def test_a_create_read_back_under_another_collection_also_scopes_that_collection(tmp_path):
    """POST /silences answers {"silenceID": ...} and the silence is read at /silence/{id}: a
    create the model did not make as the application did leaves those reads apart too."""
    first, made = "6f0c1b52-1d55-4b7e-9a0e-3c2f1a7d9e01", "0b9a8c7d-2e3f-4a5b-8c6d-7e8f9a0b1c2d"
    silence = {"id": first, "comment": "disk", "createdBy": "ada"}
    har = (HarBuilder()
           .call("GET", "/silences", response=[silence])
           .call("GET", f"/silence/{first}", response=silence)
           .call("POST", "/silences", body={"comment": "web", "createdBy": "bob"}, response={"silenceID": made})
           .call("GET", f"/silence/{made}", response={"id": made, "comment": "web", "createdBy": "bob"}))
    index = ToolIndex(build_bundle(har.write(tmp_path / "silences.har")))
    assert index.write_scopes("POST", "/silences") == [("silences",), ("silence",)]



def test_a_write_under_a_read_no_type_owns_scopes_that_read(tmp_path):
    """privacyIDEA's tokens are listed at GET /token/ (an envelope no type is read from) and
    enrolled by POST /token/init, its default realm read at GET /defaultrealm and set by POST
    /defaultrealm/{name}: a write the model refused leaves those reads apart from the application's."""
    envelope = {"result": {"status": True, "value": {"count": 1, "tokens": [{"serial": "S1"}]}}}
    har = (HarBuilder()
           .call("GET", "/token/", response=envelope)
           .call("GET", "/defaultrealm", response={"result": {"value": {"corp": {"default": True}}}})
           .call("POST", "/token/init", body={"serial": "S2"}, response={"result": {"value": True}})
           .call("POST", "/defaultrealm/partners", response={"result": {"value": 1}}))
    index = ToolIndex(build_bundle(har.write(tmp_path / "tokens.har")))
    assert index.write_scopes("POST", "/token/init") == [("token", "init"), ("token",)]
    assert within("/token/", index.write_scopes("POST", "/token/init")[1])
    assert index.write_scopes("POST", "/defaultrealm/partners") == [("defaultrealm", "partners"), ("defaultrealm",)]
    # a write beside the reads, under none of them, keeps its own path alone
    assert index.write_scopes("POST", "/auth") == [("auth",)]

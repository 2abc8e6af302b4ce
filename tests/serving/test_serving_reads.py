"""Reads in process on json-server and small synthetic captures: item, list, document, missing,
replay exact and nearest, --replay-only, learned queries, whole lines, refusals."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.har_builder import HarBuilder  # noqa: E402

from capenv.interpreter.bundle.jsonvalue import dumps, loads  # noqa: E402
from capenv.interpreter.pipeline import build_bundle  # noqa: E402
from capenv.serving.runtime import EnvironmentRuntime  # noqa: E402
from capenv.serving.runtime_api import HttpRequest  # noqa: E402

POSTS = [{"id": 1, "title": "json-server", "author": "typicode", "views": 120, "published": True,
          "tags": ["rest", "mock"]},
         {"id": 2, "title": "Hello REST", "author": "alice", "views": 45, "published": False, "tags": ["intro"]},
         {"id": 3, "title": "Pagination tips", "author": "bob", "views": 300, "published": True,
          "tags": ["rest", "paging"]}]


@pytest.fixture(scope="module")
def runtime(json_server) -> EnvironmentRuntime:
    return EnvironmentRuntime(json_server)


def replayed(runtime: EnvironmentRuntime, tool: str, answer: dict) -> tuple[bool, str, str, tuple]:
    """What a replayed answer replays: exact or nearest, and the recorded call (method, path,
    query), so a test says which recording it expects without knowing its record number."""
    record = answer["replay"]["record"]
    call = next(c for c in runtime.bundle.replay.tools[tool] if c.ordinal == record)
    return answer["replay"]["exact_match"], call.method, call.path, tuple(call.query)


def recorded_call(runtime: EnvironmentRuntime, tool: str, path: str, query: tuple = ()):
    """The recording of ``tool`` at ``path`` and ``query`` (a message may name its record)."""
    return next(c for c in runtime.bundle.replay.tools[tool] if c.path == path and tuple(c.query) == query)


def test_item_read_answers_from_the_state(runtime) -> None:
    result = runtime.call_tool("get_posts_by_post_id", {"post_id": "3"})
    assert not result.is_error
    assert result.structured == {
        "status": 200, "content_type": "application/json; charset=utf-8", "body": POSTS[2],
        "state": {"source": "state", "view": "item", "type": "posts", "collection": "/posts", "id": 3}}


def test_list_read_answers_the_whole_collection_from_the_state(runtime) -> None:
    result = runtime.read("get_posts")
    assert result["body"] == POSTS
    assert result["state"] == {"source": "state", "view": "list", "type": "posts", "collection": "/posts", "id": None}
    assert "replay" not in result


def test_document_read_answers_from_the_state(runtime) -> None:
    result = runtime.read("get_profile")
    assert result["body"] == {"name": "typicode", "bio": "mock API author", "theme": "light"}
    assert result["state"]["view"] == "document" and result["state"]["path"] == "/profile"


def test_missing_entity_answers_the_recorded_404_labelled_missing(runtime) -> None:
    result = runtime.read("get_posts_by_post_id", {"post_id": "424242"})
    assert result["status"] == 404 and result["body"] == {}
    assert result["state"] == {"source": "state", "view": "missing", "type": "posts", "collection": "/posts",
                               "id": "424242"}


def test_learned_query_is_evaluated_over_the_state(runtime) -> None:
    result = runtime.read("get_posts", {"query": {"_sort": "views", "_order": "desc"}})
    assert [p["id"] for p in result["body"]] == [3, 1, 2]  # the initial state, not the later recording
    assert result["state"]["view"] == "list" and "replay" not in result
    combined = runtime.read("get_posts", {"query": {"author": "bob"}})  # a value never recorded
    assert [p["id"] for p in combined["body"]] == [3]
    assert combined["state"]["source"] == "state"


def test_a_query_the_view_never_proved_on_an_item_replays_only_while_the_state_is_as_recorded(runtime) -> None:
    # ?_embed=comments was recorded after the capture's own writes: it shows comments
    # the served state does not hold, so it is refused rather than replayed
    result = runtime.call_tool("get_posts_by_post_id", {"post_id": "1", "query": {"_embed": "comments"}})
    assert result.is_error and "not modelled over the current state" in result.structured["message"]
    recorded = recorded_call(runtime, "get_posts_by_post_id", "/posts/1", (("_embed", "comments"),))
    assert f"record {recorded.ordinal}" in result.structured["message"]


def test_replay_never_answers_another_entitys_recording_nor_one_the_state_left_behind(runtime) -> None:
    # post 5's comments were recorded after the capture's own writes: not the state served
    recorded = runtime.call_tool("get_posts_comments", {"post_id": "5"})
    assert recorded.is_error and "not modelled over the current state" in recorded.structured["message"]
    # post 77 is named by no recording: never post 5's comments
    unnamed = runtime.call_tool("get_posts_comments", {"post_id": "77"})
    assert unnamed.is_error and "nothing was recorded for GET /posts/77/comments" in unnamed.structured["message"]
    answer = runtime.http(HttpRequest("GET", "/posts/77/comments", (), (), b""))
    assert answer.status == 404 and b"nothing was recorded" in answer.body


def test_replay_only_serves_every_read_by_replay(json_server) -> None:
    replaying = EnvironmentRuntime(json_server, replay_only=True)
    assert replaying.catalog_report()["from_state"] == 0
    assert all("--replay-only" in spec.description for spec in replaying.tools())
    first = replaying.read("get_posts")
    assert replayed(replaying, "get_posts", first) == (True, "GET", "/posts", ())
    missing = replaying.read("get_posts_by_post_id", {"post_id": "999"})
    assert replayed(replaying, "get_posts_by_post_id", missing) == (True, "GET", "/posts/999", ())
    assert missing["status"] == 404
    unnamed = replaying.read("get_users_by_user_id", {"user_id": "12345"})  # never user 1's recording
    assert unnamed["status"] == 404 and unnamed["state"]["view"] == "missing" and "replay" not in unnamed
    # The data plane still works; reads just do not consult it.
    assert loads(replaying.data_get())["evidence_id"] == json_server.view.evidence_id


@pytest.mark.parametrize("name, arguments, phrases", [
    ("get_nope", {}, ["no tool 'get_nope'", "get_posts"]),
    ("get_posts_by_post_id", {}, ['"post_id" is missing', "recorded"]),
    ("get_posts_by_post_id", {"post_id": 3.5}, ['"post_id" must be a string or integer, not number']),
    ("get_posts_by_post_id", {"post_id": ""}, ['"post_id"']),
    ("get_posts", {"query": {"sort": "views"}}, ['"sort" was never recorded', '"_sort"']),
    ("get_posts", {"query": {"_sort": 1}}, ['"_sort" must be a string, not integer', '"views"']),
    ("get_posts", {"query": "views"}, ['"query" must be an object']),
    ("get_posts", {"limit": "2"}, ['does not take "limit"', '"query" (an object of']),
    ("get_profile", {"query": {"x": "1"}}, ['get_profile does not take "query"', "accepts no arguments"]),
])
def test_refusals_name_what_is_accepted(runtime, name, arguments, phrases) -> None:
    result = runtime.call_tool(name, arguments)
    assert result.is_error
    assert result.structured["error"] == "refused"
    for phrase in phrases:
        assert phrase in result.structured["message"], result.structured["message"]


def test_http_surface_answers_as_the_tool_and_names_the_tools_for_unknown_paths(runtime) -> None:
    answer = runtime.http(HttpRequest("GET", "/posts/2", (), (), b""))
    assert answer.status == 200
    assert answer.body == dumps(POSTS[1])
    assert ("content-type", "application/json; charset=utf-8") in [(k.lower(), v) for k, v in answer.headers]
    missing = runtime.http(HttpRequest("GET", "/posts/999", (), (), b""))
    assert missing.status == 404 and missing.body == b"{}"
    unknown = runtime.http(HttpRequest("GET", "/nowhere", (), (), b""))
    assert unknown.status == 404
    message = loads(unknown.body)["message"]
    assert "GET /posts/{post_id}" in message and "GET /profile" in message
    unserved = runtime.http(HttpRequest("PUT", "/users/1", (), (), b'{"name": "x"}'))
    assert unserved.status == 405 and "not serve" in loads(unserved.body)["message"]
    refused = runtime.http(HttpRequest("GET", "/posts", (("bogus", "1"),), (), b""))
    assert refused.status == 400 and "never recorded" in loads(refused.body)["message"]


# --- synthetic captures: whole lines, empty values, defaults, the MCP path -------------------

ITEMS = [{"id": i, "name": f"n{i}", "tag": "a" if i % 2 else "b"} for i in (1, 2, 3)]


@pytest.fixture(scope="module")
def paging_runtime(tmp_path_factory) -> EnvironmentRuntime:
    har = (HarBuilder()
           .call("GET", "/items", query=[("limit", "10")], response=ITEMS)
           .call("GET", "/items/1", response=ITEMS[0])
           .call("GET", "/items", query="q=", response=ITEMS)
           .call("GET", "/items/99", status=404, response={"error": "nope"})
           .call("GET", "/mcp", response={"x": 1})
           .call("GET", "/stats", query=[("v", "2")], response={"count": 3})
           .call("GET", "/stats", query=[("v", "2")], response={"count": 3})
           .call("POST", "/items", body={"name": "n4"}, status=201, response={"id": 4, "name": "n4"})
           .write(tmp_path_factory.mktemp("paging") / "paging.har"))
    return EnvironmentRuntime(build_bundle(har))


def test_a_call_with_no_query_answers_from_a_whole_line_that_pages(paging_runtime) -> None:
    result = paging_runtime.read("get_items")
    assert result["body"] == ITEMS
    assert result["state"]["view"] == "list"
    # the line's query differs from the call's
    assert replayed(paging_runtime, "get_items", result) == (False, "GET", "/items", (("limit", "10"),))
    exact = paging_runtime.read("get_items", {"query": {"limit": "10"}})
    assert exact["body"] == ITEMS and "replay" not in exact


def test_an_empty_recorded_value_is_described_not_an_enum_literal(paging_runtime) -> None:
    spec = next(s for s in paging_runtime.tools() if s.name == "get_items")
    q = spec.input_schema["properties"]["query"]["properties"]["q"]
    assert "enum" not in q and "an empty value" in q["description"]
    assert spec.input_schema["properties"]["query"]["properties"]["limit"]["examples"] == ["10"]
    assert '"q" (may be empty)' in spec.description
    result = paging_runtime.read("get_items", {"query": {"q": ""}})
    assert result["body"] == ITEMS and result["state"]["source"] == "state"


def test_a_parameter_every_call_sent_defaults_to_its_value(paging_runtime) -> None:
    spec = next(s for s in paging_runtime.tools() if s.name == "get_stats")
    assert spec.input_schema["properties"]["query"]["properties"]["v"]["default"] == "2"
    result = paging_runtime.read("get_stats")
    assert replayed(paging_runtime, "get_stats", result) == (True, "GET", "/stats", (("v", "2"),)) or (
        result["state"]["view"] == "document")
    assert result["body"] == {"count": 3}


def test_a_missing_entity_with_its_own_recorded_absence(paging_runtime) -> None:
    result = paging_runtime.read("get_items_by_item_id", {"item_id": "5"})
    assert result["status"] == 404 and result["body"] == {"error": "nope"}
    assert result["state"]["view"] == "missing"


def test_mcp_moves_off_a_path_the_application_uses(paging_runtime, json_server) -> None:
    assert paging_runtime.reserved_mcp_path() == "/_mcp"
    assert EnvironmentRuntime(json_server).reserved_mcp_path() == "/mcp"


def test_a_missing_entity_without_a_recorded_absence_is_a_tool_error_naming_what_exists(tmp_path) -> None:
    har = (HarBuilder()
           .call("GET", "/notes", response=[{"id": "a1"}, {"id": "b2"}])
           .call("GET", "/notes/a1", response={"id": "a1"})
           .call("GET", "/notes/b2", response={"id": "b2"})
           .write(tmp_path / "notes.har"))
    runtime = EnvironmentRuntime(build_bundle(har))
    result = runtime.call_tool("get_notes_by_note_id", {"note_id": "zz"})
    assert result.is_error
    message = result.structured["message"]
    assert '"zz"' in message and '"a1"' in message and '"b2"' in message
    answer = runtime.http(HttpRequest("GET", "/notes/zz", (), (), b""))
    assert answer.status == 404 and loads(answer.body)["error"] == "not_found"

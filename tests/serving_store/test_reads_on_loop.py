"""An SQLite runtime's reads answered on a transport's event loop (``EnvironmentRuntime.http_on_loop``):
only a read, and only while the copy it holds is the store's state (the head check); anything else is
left to ``http`` on the runtime's thread (None), which catches up first. A read answered on the loop
never answers a state another process has moved past, nor one a data/add committed aside replaced."""

from __future__ import annotations

import json
from typing import Any

from serving_store_support import POST_BODY

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest
from capenv.serving.store import open_store
from capenv.serving.store.postgres import PostgresStore

JSON = (("content-type", "application/json"),)


def get(path: str) -> HttpRequest:
    return HttpRequest("GET", path, (), (), b"")


def post(body: dict[str, Any]) -> HttpRequest:
    return HttpRequest("POST", "/posts", (), JSON, dumps(body))


def answered(answer: Any) -> tuple[int, Any]:
    assert answer is not None
    return answer.status, json.loads(answer.body)


def test_a_read_of_the_stores_state_is_answered_on_the_loop_as_on_the_thread(bundle, sqlite_url) -> None:
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    try:
        for path in ("/posts/1", "/posts", "/posts/999"):
            assert answered(runtime.http_on_loop(get(path))) == answered(runtime.http(get(path)))
        assert answered(runtime.http_on_loop(get("/posts/1")))[0] == 200
    finally:
        runtime.close()


def test_a_write_is_left_to_the_thread_and_changes_nothing_on_the_loop(bundle, sqlite_url) -> None:
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    try:
        before = runtime.data_get()
        assert runtime.http_on_loop(post(POST_BODY)) is None
        assert runtime.http_on_loop(HttpRequest("PATCH", "/posts/1", (), JSON, dumps({"views": 9}))) is None
        assert runtime.data_get() == before
        status, created = answered(runtime.http(post(POST_BODY)))
        assert status == 201
        assert answered(runtime.http_on_loop(get(f"/posts/{created['id']}"))) == (200, created)
    finally:
        runtime.close()


def test_after_another_process_wrote_the_read_goes_to_the_thread_which_sees_the_write(bundle, sqlite_url) -> None:
    here = EnvironmentRuntime(bundle, store=sqlite_url)
    there = EnvironmentRuntime(bundle, store=sqlite_url)  # a second process's runtime on the same file
    try:
        assert answered(here.http_on_loop(get("/posts")))[0] == 200  # the copy is current
        status, created = answered(there.http(post(POST_BODY)))
        assert status == 201
        read = get(f"/posts/{created['id']}")
        assert here.http_on_loop(read) is None  # its copy is behind the store: not answered as it is
        assert here.http_on_loop(get("/posts")) is None
        assert answered(here.http(read)) == (200, created)  # the thread catches up, then answers
        assert answered(here.http_on_loop(read)) == (200, created)  # current again
        status, listed = answered(here.http_on_loop(get("/posts")))
        assert status == 200 and created in listed
    finally:
        here.close()
        there.close()


def test_a_data_add_committed_aside_is_taken_up_on_the_thread_before_a_read_on_the_loop(bundle, sqlite_url) -> None:
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    try:
        document = json.loads(runtime.data_get())
        for collection in document["collections"]:
            if collection["path"] == "/posts":
                collection["entities"] = [{"id": 7, "value": {**POST_BODY, "id": 7}}]
        install = runtime.prepare_add(json.dumps(document).encode())
        assert answered(runtime.http_on_loop(get("/posts/1")))[0] == 200  # prepared only: the state before
        install.aside()  # committed: the store holds the added state, the runtime not yet
        assert runtime.http_on_loop(get("/posts/1")) is None
        assert runtime.http_on_loop(get("/posts/7")) is None
        install()
        assert answered(runtime.http_on_loop(get("/posts/1")))[0] == 404
        assert answered(runtime.http_on_loop(get("/posts/7"))) == (200, {**POST_BODY, "id": 7})
    finally:
        runtime.close()


def test_only_a_store_whose_reads_never_wait_answers_on_the_loop(bundle, sqlite_url) -> None:
    store = open_store(sqlite_url)
    assert store.reads_never_wait is True
    store.close()
    assert PostgresStore.reads_never_wait is False  # a read is a round trip to the server
    runtime = EnvironmentRuntime(bundle, store="memory:")
    try:
        assert runtime.nonblocking_calls()  # the worker answers its every quick call on the loop instead
        assert runtime.http_on_loop(get("/posts/1")) is None
    finally:
        runtime.close()


def test_a_read_tool_is_answered_on_the_loop_only_while_the_copy_is_the_stores(bundle, sqlite_url) -> None:
    here = EnvironmentRuntime(bundle, store=sqlite_url)
    there = EnvironmentRuntime(bundle, store=sqlite_url)
    try:
        first = here.call_tool_on_loop("get_posts_by_post_id", {"post_id": "1"})
        assert first is not None and first.structured == here.call_tool("get_posts_by_post_id", {"post_id": "1"}).structured
        assert first.structured["status"] == 200
        assert here.call_tool_on_loop("no_such_tool", {}).is_error  # refused before any state is read
        before = here.data_get()
        assert here.call_tool_on_loop("post_posts", {"body": POST_BODY}) is None  # a write: the thread's
        assert here.data_get() == before
        created = there.call_tool("post_posts", {"body": POST_BODY}).structured
        assert created["status"] == 201
        arguments = {"post_id": str(created["body"]["id"])}
        assert here.call_tool_on_loop("get_posts_by_post_id", arguments) is None  # behind the store
        assert here.call_tool("get_posts_by_post_id", arguments).structured["body"] == created["body"]
        again = here.call_tool_on_loop("get_posts_by_post_id", arguments)
        assert again is not None and again.structured["body"] == created["body"]
    finally:
        here.close()
        there.close()


def test_the_agentenv_surface_passes_reads_on_the_loop_through_and_keeps_its_own_paths_on_the_thread(
        bundle, sqlite_url) -> None:
    from capenv.serving.transport.agentenv_card import RPC_PATH, WELL_KNOWN_PATH
    from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime

    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    surface = AgentEnvRuntime(runtime, "posts")
    try:
        assert answered(surface.http_on_loop(get("/posts/1"))) == answered(runtime.http(get("/posts/1")))
        read = surface.call_tool_on_loop("get_posts_by_post_id", {"post_id": "1"})
        assert read is not None and read.structured["status"] == 200
        assert surface.call_tool_on_loop("post_posts", {"body": POST_BODY}) is None
        assert surface.http_on_loop(get(WELL_KNOWN_PATH)) is None
        rpc = HttpRequest("POST", RPC_PATH, (), JSON, dumps({"jsonrpc": "2.0", "id": 1, "method": "data/get"}))
        assert surface.http_on_loop(rpc) is None
    finally:
        runtime.close()

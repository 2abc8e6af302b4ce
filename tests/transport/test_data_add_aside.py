"""data/add prepares the new state aside (parse, checks, the subjects it is made of) and only then
swaps it in whole under the runtime's lock: other calls are answered while a large document is
being prepared, every call sees the state before or after the add (never a mix), and a refused
add leaves the state as it was. No timings: the tests hold the preparation until they have seen
other calls answered, and compare what each read saw with the two whole states."""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any

import pytest

from support.capture_runs import build_from, items_app
from support.http_thread import http_in_thread

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import DataPlaneRefusal
from capenv.serving.transport.http_app import Access

TOKEN = "grader"
GRADER = {"authorization": f"Bearer {TOKEN}", "content-type": "application/json"}
WAIT = 60  # seconds a guard waits before the test fails (a hang, not a timing)


@pytest.fixture(scope="module")
def bundle():
    builder = items_app().call("POST", "/items", body={"title": "c"}, status=201, response={"id": 3, "title": "c"})
    builder.call("GET", "/items/3", response={"id": 3, "title": "c"})
    built = build_from(builder)
    assert any(p.served and p.tool == "post_items" for p in built.view.writes), built.report
    return built


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    conn.request(method, path, body=body, headers=headers or {"content-type": "application/json"})
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, data


def document_of(titles: list[str], first_id: int = 100) -> bytes:
    """A state document holding one item per title (ids from ``first_id``)."""
    entities = [{"id": first_id + n, "value": {"id": first_id + n, "title": t}, "records": []} for n, t in enumerate(titles)]
    return json.dumps({"collections": [{"path": "/items", "type": "items", "args": {}, "entities": entities}],
                       "documents": []}).encode()


def listed(runtime: EnvironmentRuntime) -> list[dict[str, Any]]:
    answer = runtime.read("get_items")
    assert "body" in answer, answer
    return answer["body"]


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_prepared_add_changes_nothing_until_it_is_installed(bundle, tmp_path, store: str) -> None:
    runtime = EnvironmentRuntime(bundle, store=f"sqlite:{tmp_path / 's.db'}" if store == "sqlite" else None)
    install = runtime.prepare_add(document_of(["new a", "new b"]))
    before = runtime.data_get()
    assert [i["title"] for i in listed(runtime)] == ["t1", "t2"]
    created = runtime.read("post_items", {"body": {"title": "written meanwhile"}})  # a write between the two steps
    assert created.get("status") == 201, created
    install()
    assert [i["title"] for i in listed(runtime)] == ["new a", "new b"]  # the add's state whole, the write gone
    held = json.loads(runtime.data_get())
    assert held["collections"] == json.loads(document_of(["new a", "new b"]))["collections"]
    assert before != runtime.data_get()
    runtime.close()


def test_a_refused_add_is_refused_before_anything_is_prepared(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    bad = document_of(["x"]).replace(b'"id": 100, "value": {"id": 100', b'"id": 100, "value": {"id": 101')
    with pytest.raises(DataPlaneRefusal):
        runtime.prepare_add(bad)
    assert runtime.data_get() == before


def hold_method(owner: Any, name: str, *, after_it_ran: bool) -> tuple[threading.Event, threading.Event]:
    """Hold ``owner.name`` (before it runs, or after it ran and before it returns): the first event
    is set once it is held, and it goes on when the test sets the second."""
    held, release = threading.Event(), threading.Event()
    method = getattr(owner, name)

    def held_method(*args, **kwargs):
        result = method(*args, **kwargs) if after_it_ran else None
        held.set()
        assert release.wait(WAIT), f"the test never released {name}"
        return result if after_it_ran else method(*args, **kwargs)

    setattr(owner, name, held_method)
    return held, release


def grader_post_in_thread(port: int, path: str, body: bytes) -> tuple[threading.Thread, dict[str, Any]]:
    """The grader's POST sent from a thread (started): its answer lands in the dict under "answer"."""
    added: dict[str, Any] = {}
    adding = threading.Thread(target=lambda: added.update(answer=request(port, "POST", path, body, GRADER)))
    adding.start()
    return adding, added


def test_calls_are_answered_while_a_data_add_is_being_prepared(bundle) -> None:
    """The preparation is held until other calls (a read, a write, data/get) have been answered:
    with the preparation on the runtime's thread this would never finish."""
    runtime = EnvironmentRuntime(bundle)
    preparing, release = hold_method(runtime, "prepare_add", after_it_ran=True)
    with http_in_thread(runtime, access=Access(data_token=TOKEN)) as serving:
        adding, added = grader_post_in_thread(serving.port, "/_capenv/data/add", document_of(["added"]))
        try:
            assert preparing.wait(WAIT)
            status, body = request(serving.port, "GET", "/items")
            assert status == 200 and [i["title"] for i in json.loads(body)] == ["t1", "t2"]
            status, body = request(serving.port, "POST", "/items", b'{"title": "meanwhile"}')
            assert status == 201, body
            status, body = request(serving.port, "GET", "/_capenv/data/get", headers=GRADER)
            assert status == 200 and b"meanwhile" in body and b"added" not in body
        finally:
            release.set()
            adding.join(WAIT)
        assert added["answer"][0] == 200, added
        status, body = request(serving.port, "GET", "/items")
        assert status == 200 and [i["title"] for i in json.loads(body)] == ["added"]


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_every_read_sees_one_whole_state_while_adds_swap_it(bundle, tmp_path, store: str) -> None:
    """Readers over HTTP while the grader adds two large states in turn: each list read is one of
    the two states whole, and a failed add between them changes nothing."""
    runtime = EnvironmentRuntime(bundle, store=f"sqlite:{tmp_path / 's.db'}" if store == "sqlite" else None)
    first = [f"a{n}" for n in range(400)]
    second = [f"b{n}" for n in range(250)]
    states = {tuple(["t1", "t2"]), tuple(first), tuple(second)}
    seen: list[tuple[str, ...]] = []
    failures: list[Any] = []
    done = threading.Event()
    with http_in_thread(runtime, access=Access(data_token=TOKEN)) as serving:
        def read() -> None:
            while not done.is_set():
                status, body = request(serving.port, "GET", "/items")
                if status != 200:
                    failures.append((status, body))
                    return
                seen.append(tuple(i["title"] for i in json.loads(body)))

        readers = [threading.Thread(target=read) for _ in range(2)]
        for reader in readers:
            reader.start()
        try:
            for round_ in range(3):
                for titles in (first, second):
                    status, body = request(serving.port, "POST", "/_capenv/data/add", document_of(titles), GRADER)
                    assert status == 200, body
                held = request(serving.port, "GET", "/_capenv/data/get", headers=GRADER)[1]
                status, body = request(serving.port, "POST", "/_capenv/data/add",
                                       document_of(first)[:-2] + b"}", GRADER)  # not JSON: refused
                assert status == 400, body
                assert request(serving.port, "GET", "/_capenv/data/get", headers=GRADER)[1] == held
        finally:
            done.set()
            for reader in readers:
                reader.join(WAIT)
    assert not failures, failures[:3]
    assert seen and set(seen) <= states, [s[:3] for s in set(seen) - states][:3]
    runtime.close()


def test_an_add_installs_whole_over_what_another_runtime_wrote_to_the_shared_store(bundle, tmp_path) -> None:
    """The install diffs against its own copy brought up to the store first: a write another
    runtime committed after this one last looked is replaced too, not left beside the new state."""
    store = f"sqlite:{tmp_path / 'shared.db'}"
    adding, writing = EnvironmentRuntime(bundle, store=store), EnvironmentRuntime(bundle, store=store)
    install = adding.prepare_add(document_of(["new"]))
    assert writing.read("post_items", {"body": {"title": "elsewhere"}}).get("status") == 201
    install()
    for runtime in (adding, writing):
        assert [i["title"] for i in listed(runtime)] == ["new"]
        assert json.loads(runtime.data_get())["collections"] == json.loads(document_of(["new"]))["collections"]
    adding.close()
    writing.close()


def test_calls_are_answered_while_an_agentenv_data_add_is_being_prepared(bundle) -> None:
    """The AgentEnv JSON-RPC data/add takes the same two steps as /_capenv/data/add: its
    preparation, held here, does not hold up the agent's calls (on the runtime's thread, the
    read below would wait for it for ever)."""
    from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime

    runtime = EnvironmentRuntime(bundle)
    preparing, release = hold_method(runtime, "prepare_add", after_it_ran=True)
    rpc = {"jsonrpc": "2.0", "id": 7, "method": "data/add",
           "params": {"parts": [{"kind": "data", "data": json.loads(document_of(["added"]))}]}}
    with http_in_thread(AgentEnvRuntime(runtime, "items"), access=Access(data_token=TOKEN)) as serving:
        adding, added = grader_post_in_thread(serving.port, "/agentenv", json.dumps(rpc).encode())
        try:
            assert preparing.wait(WAIT)
            status, body = request(serving.port, "GET", "/items")
            assert status == 200 and [i["title"] for i in json.loads(body)] == ["t1", "t2"]
            status, body = request(serving.port, "POST", "/items", b'{"title": "meanwhile"}')
            assert status == 201, body
        finally:
            release.set()
            adding.join(WAIT)
        status, body = added["answer"]
        assert status == 200 and json.loads(body) == {"jsonrpc": "2.0", "id": 7, "result": {}}, body
        status, body = request(serving.port, "GET", "/items")
        assert status == 200 and [i["title"] for i in json.loads(body)] == ["added"]
        refused = {**rpc, "params": {"parts": [{"kind": "data", "data": {"collections": "no"}}]}}
        status, body = request(serving.port, "POST", "/agentenv", json.dumps(refused).encode(), GRADER)
        assert status == 200 and json.loads(body)["error"]["data"]["code"] == "add_failed", body
        assert [i["title"] for i in json.loads(request(serving.port, "GET", "/items")[1])] == ["added"]


def test_reads_are_answered_while_a_data_add_commits_to_a_shared_store(bundle, tmp_path) -> None:
    """On SQLite (a store other processes share) the add's commit runs aside too: held here in the
    middle of the store's commit, reads are answered from the state before it, and after it has
    landed every read sees the added state (taken up without reading the store's state back)."""
    runtime = EnvironmentRuntime(bundle, store=f"sqlite:{tmp_path / 's.db'}")
    store = runtime._holder.store
    committing, release = hold_method(store, "commit_replace", after_it_ran=False)
    with http_in_thread(runtime, access=Access(data_token=TOKEN)) as serving:
        adding, added = grader_post_in_thread(serving.port, "/_capenv/data/add", document_of(["added"]))
        try:
            assert committing.wait(WAIT)
            status, body = request(serving.port, "GET", "/items")
            assert status == 200 and [i["title"] for i in json.loads(body)] == ["t1", "t2"]
            status, body = request(serving.port, "GET", "/_capenv/data/get", headers=GRADER)
            assert status == 200 and b"added" not in body
        finally:
            release.set()
            adding.join(WAIT)
        assert added["answer"][0] == 200, added
        status, body = request(serving.port, "GET", "/items")
        assert status == 200 and [i["title"] for i in json.loads(body)] == ["added"]
        status, body = request(serving.port, "POST", "/items", b'{"title": "after"}')
        assert status == 201, body
    assert [i["title"] for i in listed(runtime)] == ["added", "after"]
    runtime.close()


def test_reads_are_answered_while_a_data_reset_commits_to_a_shared_store(bundle, tmp_path) -> None:
    """A data/reset of a large state takes the same steps on SQLite: its commit (deleting every
    subject the added state had) runs aside, and reads meanwhile see the state before it."""
    runtime = EnvironmentRuntime(bundle, store=f"sqlite:{tmp_path / 's.db'}")
    runtime.data_add(document_of([f"big {n}" for n in range(300)]))
    store = runtime._holder.store
    committing, release = hold_method(store, "commit_replace", after_it_ran=False)
    with http_in_thread(runtime, access=Access(data_token=TOKEN)) as serving:
        reset: dict[str, Any] = {}
        resetting = threading.Thread(target=lambda: reset.update(answer=request(
            serving.port, "POST", "/_capenv/data/reset", b"{}", GRADER)))
        resetting.start()
        try:
            assert committing.wait(WAIT)
            status, body = request(serving.port, "GET", "/items")
            assert status == 200 and len(json.loads(body)) == 300
        finally:
            release.set()
            resetting.join(WAIT)
        assert reset["answer"][0] == 200, reset
        status, body = request(serving.port, "GET", "/items")
        assert status == 200 and [i["title"] for i in json.loads(body)] == ["t1", "t2"]
    runtime.close()

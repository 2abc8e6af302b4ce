"""A data/reset or data/add on the memory store swaps the state in under the runtime's lock, and
the state it replaced is freed after, beside the other calls: CPython frees a container where its
last reference goes (~90k objects for a large state), so the install keeps the replaced copy and
store rows and the transport lets go of them on its aside thread. No timings: an object planted in
the old state holds its release until the test has seen a read answered meanwhile (freed under
the lock, the read would wait for it)."""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any

import pytest

from support.capture_runs import build_from, items_app
from support.http_thread import http_in_thread

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport.http_app import Access

TOKEN = "grader"
GRADER = {"authorization": f"Bearer {TOKEN}", "content-type": "application/json"}
WAIT = 60  # seconds a guard waits before the test fails (a hang, not a timing)


@pytest.fixture(scope="module")
def bundle():
    return build_from(items_app())


class HeldRelease:
    """What the test sees of a planted object's release, and lets go on."""

    def __init__(self) -> None:
        self.releasing, self.release, self.released = threading.Event(), threading.Event(), threading.Event()


class Planted:
    """Planted in a state (the test keeps no reference to it): when that state is freed, waits
    for the test to let the release go on."""

    def __init__(self, held: HeldRelease) -> None:
        self.held = held

    def __del__(self) -> None:
        self.held.releasing.set()
        self.held.release.wait(WAIT)
        self.held.released.set()


def plant(runtime: EnvironmentRuntime, where: str, held: HeldRelease) -> None:
    holder = runtime._holder
    if where == "copy":  # the copy the runtime reads from
        holder._mirror.planted = Planted(held)
    else:  # the store's rows of a type the install replaces
        rows = next(iter(holder.store._types.values()))
        rows.history["planted"] = [Planted(held)]


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    conn.request(method, path, body=body, headers=headers or {})
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, data


def document_of(titles: list[str]) -> bytes:
    entities = [{"id": 100 + n, "value": {"id": 100 + n, "title": t}, "records": []} for n, t in enumerate(titles)]
    return json.dumps({"collections": [{"path": "/items", "type": "items", "args": {}, "entities": entities}],
                       "documents": []}).encode()


@pytest.mark.parametrize("where", ["copy", "store"])
@pytest.mark.parametrize("path, body, after", [
    ("/_capenv/data/reset", b"{}", ["t1", "t2"]),
    ("/_capenv/data/add", document_of(["added"]), ["added"]),
])
def test_a_read_is_answered_while_the_replaced_state_is_being_freed(bundle, where: str, path: str, body: bytes,
                                                                     after: list[str]) -> None:
    runtime = EnvironmentRuntime(bundle)
    runtime.data_add(document_of([f"old {n}" for n in range(50)]))
    held = HeldRelease()
    plant(runtime, where, held)
    with http_in_thread(runtime, access=Access(data_token=TOKEN)) as serving:
        installed: dict[str, Any] = {}
        installing = threading.Thread(target=lambda: installed.update(answer=request(
            serving.port, "POST", path, body, GRADER)))
        installing.start()
        try:
            assert held.releasing.wait(WAIT), "the replaced state was never freed"
            status, answer = request(serving.port, "GET", "/items")
            assert not held.released.is_set(), "the read waited for the replaced state to be freed"
            assert status == 200 and [i["title"] for i in json.loads(answer)] == after
        finally:
            held.release.set()
            installing.join(WAIT)
        assert installed["answer"][0] == 200, installed
    runtime.close()


@pytest.mark.parametrize("where", ["copy", "store"])
def test_a_read_is_answered_while_an_agentenv_reset_frees_the_replaced_state(bundle, where: str) -> None:
    from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime

    runtime = EnvironmentRuntime(bundle)
    runtime.data_add(document_of([f"old {n}" for n in range(50)]))
    held = HeldRelease()
    plant(runtime, where, held)
    rpc = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "data/reset", "params": {}}).encode()
    with http_in_thread(AgentEnvRuntime(runtime, "items"), access=Access(data_token=TOKEN)) as serving:
        installed: dict[str, Any] = {}
        installing = threading.Thread(target=lambda: installed.update(answer=request(
            serving.port, "POST", "/agentenv", rpc, GRADER)))
        installing.start()
        try:
            assert held.releasing.wait(WAIT), "the replaced state was never freed"
            status, answer = request(serving.port, "GET", "/items")
            assert not held.released.is_set(), "the read waited for the replaced state to be freed"
            assert status == 200 and [i["title"] for i in json.loads(answer)] == ["t1", "t2"]
        finally:
            held.release.set()
            installing.join(WAIT)
        status, answer = installed["answer"]
        assert status == 200 and json.loads(answer) == {"jsonrpc": "2.0", "id": 3, "result": {}}, answer
    runtime.close()

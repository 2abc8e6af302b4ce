"""A state a call replaced is freed after the runtime's lock, on the releasing thread, whatever
replaced it: a data/reset called straight on the runtime (AgentEnv's JSON-RPC handled in process,
``AgentEnvRuntime._dispatch``), a data/add called so, and a shared store's state reloaded whole by
the call that found it changed (another process's data/add). CPython frees a container where its
last reference goes (~90k objects for a large state), so freed under the lock every other call
would wait for it. No timings: an object planted in the old state holds its release until the test
has seen another call answered meanwhile (freed under the lock, that call would wait for it)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support.capture_runs import build_from, items_app

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

WAIT = 60  # seconds a guard waits before the test fails (a hang, not a timing)


@pytest.fixture(scope="module")
def bundle():
    return build_from(items_app())


class Planted:
    """Planted in a state (the test keeps no reference to it): when that state is freed, notes the
    thread and waits for the test to let the release go on."""

    def __init__(self) -> None:
        self.releasing, self.release, self.released = threading.Event(), threading.Event(), threading.Event()
        self.thread: str | None = None

    def plant(self, runtime: EnvironmentRuntime, where: str) -> None:
        holder = runtime._holder
        if where == "copy":  # the copy the runtime reads from
            holder._mirror.planted = _Freed(self)
        else:  # the memory store's rows of a type the install replaces
            rows = next(iter(holder.store._types.values()))
            rows.history["planted"] = [_Freed(self)]


class _Freed:
    def __init__(self, watch: Planted) -> None:
        self.watch = watch

    def __del__(self) -> None:
        self.watch.thread = threading.current_thread().name
        self.watch.releasing.set()
        self.watch.release.wait(WAIT)
        self.watch.released.set()


def titles(runtime: EnvironmentRuntime) -> list[str]:
    answer = runtime.http(HttpRequest("GET", "/items", (), (), b""))
    assert answer.status == 200, answer.body
    return [item["title"] for item in json.loads(answer.body)]


def document_of(titles: list[str]) -> bytes:
    entities = [{"id": 100 + n, "value": {"id": 100 + n, "title": t}, "records": []} for n, t in enumerate(titles)]
    return json.dumps({"collections": [{"path": "/items", "type": "items", "args": {}, "entities": entities}],
                       "documents": []}).encode()


def agentenv_reset(runtime: EnvironmentRuntime) -> None:
    from capenv.serving.transport.agentenv_rpc import AgentEnvRuntime

    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "data/reset", "params": {}}).encode()
    answer = AgentEnvRuntime(runtime, "items").http(
        HttpRequest("POST", "/agentenv", (), (("content-type", "application/json"),), body))
    assert json.loads(answer.body) == {"jsonrpc": "2.0", "id": 1, "result": {}}, answer.body


def while_freed(planted: Planted, replace: Callable[[], Any], meanwhile: Callable[[], Any]) -> Any:
    """Run ``replace`` in a thread until the planted object is being freed; then ``meanwhile``
    (which must not wait for it); the release then goes on."""
    done: dict[str, Any] = {}
    replacing = threading.Thread(target=lambda: done.update(result=replace()))
    replacing.start()
    try:
        assert planted.releasing.wait(WAIT), "the replaced state was never freed"
        answered = meanwhile()
        assert not planted.released.is_set(), "the call waited for the replaced state to be freed"
    finally:
        planted.release.set()
        replacing.join(WAIT)
    assert "result" in done, "the replacing call failed"
    assert planted.thread == "capenv-release"
    return answered


@pytest.mark.parametrize("where", ["copy", "store"])
@pytest.mark.parametrize("replace", ["agentenv reset", "data_reset", "data_add"])
def test_a_state_replaced_in_process_is_freed_after_the_lock(bundle, where: str, replace: str) -> None:
    runtime = EnvironmentRuntime(bundle)
    runtime.data_add(document_of([f"old {n}" for n in range(50)]))
    planted = Planted()
    planted.plant(runtime, where)
    action = {"agentenv reset": lambda: agentenv_reset(runtime), "data_reset": runtime.data_reset,
              "data_add": lambda: runtime.data_add(document_of(["added"]))}[replace]
    after = ["added"] if replace == "data_add" else ["t1", "t2"]
    assert while_freed(planted, action, lambda: titles(runtime)) == after
    runtime.close()


def test_a_shared_store_reloaded_whole_frees_the_copy_it_held_after_the_lock(bundle, tmp_path: Path) -> None:
    url = f"sqlite:{tmp_path / 'shared.sqlite'}"
    reader, other = EnvironmentRuntime(bundle, store=url), EnvironmentRuntime(bundle, store=url)
    other.data_add(document_of([f"old {n}" for n in range(50)]))
    assert len(titles(reader)) == 50  # the reader holds the added state
    planted = Planted()
    planted.plant(reader, "copy")
    other.data_add(document_of(["another process's"]))  # the reader's next call reloads whole
    assert while_freed(planted, lambda: titles(reader), lambda: titles(reader)) == ["another process's"]
    reader.close()
    other.close()

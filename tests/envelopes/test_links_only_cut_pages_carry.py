"""A list whose envelope carries a member only on a cut page: ``{"nodes": [...]}`` when the answer
lists every node, ``{"nodes": [...], "next": "<url>"}`` when ``limit`` cut it (Ironic's marker
paging). The whole list's recording lacks ``next``, and the state cannot compute the URL: a call
paging otherwise than a recording (another ``limit``) may carry it, so it is refused rather than
answered without it (regression: ``?limit=1`` answered with no ``next``). Calls that do not page
still answer from the state, and the recorded page answers as recorded while the collection holds."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

ORIGIN = "http://127.0.0.1:3000"
N1, N2, N3 = ({"uuid": f"node-uuid-{n:04d}", "name": f"node-{n}", "kind": k}
              for n, k in ((1, "large"), (2, "small"), (3, "small")))


def nxt(limit: int, marker: str) -> str:
    return f"{ORIGIN}/nodes?limit={limit}&marker={marker}"


def capture() -> HarBuilder:
    return (HarBuilder(origin=ORIGIN)
            .call("GET", "/nodes", response={"nodes": [N1, N2, N3]})
            .call("GET", "/nodes/node-uuid-0001", response=N1)
            .call("GET", "/nodes/node-uuid-0002", response=N2)
            .call("GET", "/nodes", query="limit=2", response={"nodes": [N1, N2], "next": nxt(2, N2["uuid"])})
            .call("GET", "/nodes", query=f"limit=2&marker={N2['uuid']}", response={"nodes": [N3]})
            .call("GET", "/nodes", query="kind=small", response={"nodes": [N2, N3]}))


def test_another_page_size_is_refused_naming_the_member():
    runtime = EnvironmentRuntime(build_from(capture()))
    answer = runtime.call_tool("get_nodes", {"query": {"limit": "1"}})
    assert answer.is_error, answer.structured
    assert "/next" in answer.structured["message"], answer.structured


def test_the_recorded_page_and_unpaged_calls_still_answer():
    runtime = EnvironmentRuntime(build_from(capture()))
    assert runtime.read("get_nodes", {"query": {"limit": "2"}})["body"] == {"nodes": [N1, N2], "next": nxt(2, N2["uuid"])}
    assert runtime.read("get_nodes")["body"] == {"nodes": [N1, N2, N3]}
    assert runtime.read("get_nodes", {"query": {"kind": "small"}})["body"] == {"nodes": [N2, N3]}

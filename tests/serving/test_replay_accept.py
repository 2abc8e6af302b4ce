"""Content negotiation (JupyterHub's lists): one URL answers another shape per Accept header.
The view reads the usual Accept's recordings only; replay answers another Accept only with its
own recordings; a call sending no Accept (every MCP call) is the usual one, and never gets the
other shape."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

PAGED = "application/x-paged+json"
USERS = [{"name": "ann", "admin": False}, {"name": "bob", "admin": True}]


def negotiating_app() -> HarBuilder:
    page = {"items": USERS[:1], "_pagination": {"offset": 0, "limit": 1, "total": 2}}
    return (HarBuilder()
            .call("GET", "/users", response=USERS)
            .call("GET", "/users/ann", response=USERS[0])
            .call("GET", "/users/bob", response=USERS[1])
            .call("GET", "/users", query="limit=1", response=USERS[:1])
            .call("GET", "/users", query="limit=1", headers=[("Accept", PAGED)], response=page))


def http_get(runtime: EnvironmentRuntime, query: tuple = (), accept: str | None = None):
    headers = (("accept", accept),) if accept else ()
    return runtime.http(HttpRequest("GET", "/users", query, headers, b""))


def test_the_list_view_reads_the_usual_accept_only_and_the_replay_table_keeps_both():
    bundle = build_from(negotiating_app())
    assert bundle.view.view("get_users").kind == "list"
    assert bundle.replay.default_accept == {"get_users": "*/*"}
    assert [c.accept for c in bundle.replay.tools["get_users"]] == ["*/*", "*/*", PAGED]


def test_a_call_without_accept_never_gets_the_other_shape():
    runtime = EnvironmentRuntime(build_from(negotiating_app()))
    for accept in (None, "*/*"):
        answer = http_get(runtime, (("limit", "1"),), accept)
        assert answer.status == 200 and b"_pagination" not in answer.body


def test_another_accept_is_answered_by_its_own_recording_or_refused_saying_why():
    runtime = EnvironmentRuntime(build_from(negotiating_app()))
    assert b"_pagination" in http_get(runtime, (("limit", "1"),), PAGED).body
    refused = http_get(runtime, (), PAGED)  # recorded only with the usual Accept
    assert refused.status == 404 and b"Accept header" in refused.body and b"_pagination" not in refused.body


def test_a_tool_recorded_with_one_accept_keeps_no_accept_facts():
    bundle = build_from(HarBuilder().call("GET", "/users", response=USERS)
                        .call("GET", "/users/ann", response=USERS[0]))
    assert bundle.replay.default_accept == {}
    assert all(c.accept is None for calls in bundle.replay.tools.values() for c in calls)

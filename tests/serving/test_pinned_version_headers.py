"""A header selecting a version of the API (``request-version-headers``) that every recorded call of
a tool sent with one value: an HTTP call sending another value, or none (the application's oldest
version), is refused, read or write, with the state unchanged, naming the value to send; the
recorded value is served. A header of another name sent alike (a client's User-Agent) is not
pinned, nor a version header the recordings sent with several values (a variant), and tool calls
carry no headers."""

from __future__ import annotations


import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

VERSION = ("X-Shelf-Api-Version", "2.7")


def capture(header: tuple[str, str]) -> HarBuilder:
    """Crates listed, read and relabelled by PATCH, every call sending ``header``."""
    har = HarBuilder()
    crates = [{"id": 1, "label": "one"}, {"id": 2, "label": "two"}]
    har.call("GET", "/crates", response=crates, headers=[header])
    for crate in crates:
        har.call("GET", f"/crates/{crate['id']}", response=crate, headers=[header])
    for crate, label in ((crates[0], "first"), (crates[1], "second")):
        crate["label"] = label
        har.call("PATCH", f"/crates/{crate['id']}", body={"label": label}, response=crate, headers=[header])
        har.call("GET", f"/crates/{crate['id']}", response=crate, headers=[header])
        har.call("GET", "/crates", response=crates, headers=[header])
    return har


@pytest.fixture(scope="module", params=["version", "user-agent"])
def built(request, tmp_path_factory):
    header = VERSION if request.param == "version" else ("User-Agent", "shelf-client/2.7")
    return header, build_from(capture(header), tmp_path_factory.mktemp("b") / "capture.har")


def test_another_version_is_refused(built) -> None:
    (name, value), bundle = built
    assert plan(bundle, "PATCH", "/crates/{crate_id}").served
    pinned = name == VERSION[0]
    assert bundle.replay.pinned_headers.get("get_crates_by_crate_id", {}) == ({name.lower(): value} if pinned else {})
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            for headers in ({}, {name: "1.0"}):
                status, answer = send(serving, "PATCH", "/crates/1", {"label": "old"}, headers)
                if pinned:
                    assert status == 400 and value in answer["message"], answer
                    assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                    status, answer = send(serving, "GET", "/crates/1", headers=headers)
                    assert status == 400 and value in answer["message"], answer
                else:
                    assert status == 200 and answer["label"] == "old", answer
            status, answer = send(serving, "PATCH", "/crates/2", {"label": "kept"}, {name: value})
            assert status == 200 and answer["label"] == "kept", answer
            status, answer = send(serving, "GET", "/crates/2", headers={name: value})
            assert status == 200 and answer["label"] == "kept", answer
    finally:
        runtime.close()


def test_tool_calls_are_not_held_to_headers(built) -> None:
    _, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = runtime.call_tool(plan(bundle, "PATCH", "/crates/{crate_id}").tool,
                                   {"crate_id": "1", "body": {"label": "via a tool"}})
        assert not answer.is_error, answer.structured
        assert not runtime.call_tool("get_crates_by_crate_id", {"crate_id": "1"}).is_error
    finally:
        runtime.close()

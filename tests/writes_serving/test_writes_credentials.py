"""Headers carrying credentials (``write-credentials``): every successful recorded call of a tool
sent one (an Authorization header, or a header of the application's own whose name says it carries
a key or token), and calls without it were answered 403. An HTTP call leaving the header out (or
sending it empty) is refused with the state unchanged, where the application would refuse it.
Reads are held to it alike. A header no call left out, or not a credential (a request id), is not
required; MCP calls carry no headers and are not held to it. A credential sent with one value
throughout, never issued by an answer, is static: another value is refused too (401), the recorded
one served (test_writes_static_credentials.py holds the kinds that are not static)."""

from __future__ import annotations


import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

KEY = ("X-Shop-Api-Key", "k-0001")
TRACE = ("X-Request-Id", "r-1")


def capture(header: tuple[str, str]) -> HarBuilder:
    """Notes read and renamed by PATCH, every call sending ``header`` (and a request id); two writes
    sending the request id alone answered 403."""
    har = HarBuilder()
    sent = [header, TRACE] if header != TRACE else [TRACE]
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har.call("GET", "/notes", response=notes, headers=sent)
    for note in notes:
        har.call("GET", f"/notes/{note['id']}", response=note, headers=sent)
    for note in notes:  # sent without the header (with the request id alone)
        har.call("PATCH", f"/notes/{note['id']}", body={"title": "x"}, status=403, response={"message": "forbidden"},
                 headers=[TRACE])
    for note, title in ((notes[0], "first"), (notes[1], "second")):
        note["title"] = title
        har.call("PATCH", f"/notes/{note['id']}", body={"title": title}, response=note, headers=sent)
        har.call("GET", f"/notes/{note['id']}", response=note, headers=sent)
        har.call("GET", "/notes", response=notes, headers=sent)
    return har


@pytest.fixture(scope="module", params=["named", "authorization", "not-credentials"])
def built(request, tmp_path_factory):
    header = {"named": KEY, "authorization": ("Authorization", "Bearer t0k3n"), "not-credentials": TRACE}[request.param]
    return header, build_from(capture(header), tmp_path_factory.mktemp("b") / "capture.har")


def test_a_call_without_the_credentials_is_refused(built) -> None:
    (name, value), bundle = built
    update = plan(bundle, "PATCH", "/notes/{note_id}")
    assert update.served, update.reason
    credentials = name != TRACE[0]
    assert update.credential_headers == ((name.lower(),) if credentials else ())
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            for headers in ({}, {name: ""}):
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "anon"}, headers)
                if credentials:
                    assert status == 401 and name.lower() in answer["message"], answer
                    assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                    status, answer = send(serving, "GET", "/notes/1", headers=headers)
                    assert status == 401 and name.lower() in answer["message"], answer
                else:
                    assert status == 200 and answer["title"] == "anon", answer
            # the credential is static (one value throughout, never issued by an answer): another
            # value is refused as the application refuses a wrong key, the recorded one served
            status, answer = send(serving, "PATCH", "/notes/2", {"title": "keyed"}, {name: "another value"})
            if credentials:
                assert status == 401 and name.lower() in answer["message"], answer
                assert value not in answer["message"] and "recorded credentials" in answer["message"]
                assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                status, answer = send(serving, "GET", "/notes/2", headers={name: "another value"})
                assert status == 401, answer
            else:
                assert status == 200 and answer["title"] == "keyed", answer
            status, answer = send(serving, "PATCH", "/notes/2", {"title": "keyed"}, {name: value})
            assert status == 200 and answer["title"] == "keyed", answer
            status, answer = send(serving, "GET", "/notes/2", headers={name: value})
            assert status == 200 and answer["title"] == "keyed", answer
    finally:
        runtime.close()


def test_tool_calls_are_not_held_to_headers(built) -> None:
    """A tool call (MCP) carries no request headers: it is served as before."""
    _, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        answer = runtime.call_tool(plan(bundle, "PATCH", "/notes/{note_id}").tool,
                                   {"note_id": "1", "body": {"title": "via a tool"}})
        assert not answer.is_error, answer.structured
        assert not runtime.call_tool("get_notes_by_note_id", {"note_id": "1"}).is_error
    finally:
        runtime.close()

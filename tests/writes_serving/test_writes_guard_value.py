"""A guarded header value (``guard-value.other-value-refused``): every successful recorded call of a
tool sent one Origin, and a create sending another Origin alone was answered 400 ("Client is not
allowed"). Serving refuses an HTTP call sending another value or none, with the state unchanged,
naming the value to send, where before it applied the write the application refuses. An Origin
whose other value was answered 404 is not guarded, nor is the create's guard held against reads
(no read was refused for it), and tool calls carry no headers."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client
from capenv.serving.transport.http_app import Access

ORIGIN = ("Origin", "http://notes.test")
ELSEWHERE = "http://elsewhere.test"
AUTH = ("Authorization", "Basic YWRtaW46c2VjcmV0")


def capture(refusal: int) -> HarBuilder:
    """Notes listed and created, every call sending one Origin and credentials; one create sent
    from another Origin alone, answered ``refusal``."""
    har = HarBuilder()
    sent = [ORIGIN, AUTH]
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har.call("GET", "/notes", response=notes, headers=sent)
    for note in notes:
        har.call("GET", f"/notes/{note['id']}", response=note, headers=sent)
    for title in ("three", "four"):
        note = {"id": len(notes) + 1, "title": title}
        notes.append(note)
        har.call("POST", "/notes", body={"title": title}, status=201, response=note, headers=sent)
        har.call("GET", f"/notes/{note['id']}", response=note, headers=sent)
        har.call("GET", "/notes", response=notes, headers=sent)
    answer = {"error": {"status": refusal, "msg": "Client is not allowed"}}
    har.call("POST", "/notes", body={"title": "elsewhere"}, status=refusal, response=answer,
             headers=[("Origin", ELSEWHERE), AUTH])
    har.call("GET", "/notes", response=notes, headers=sent)
    return har


@pytest.fixture(scope="module", params=[400, 404], ids=["refused-400", "refused-404"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(request.param), tmp_path_factory.mktemp("o") / "capture.har")


def test_a_call_from_another_origin_is_refused(built) -> None:
    refusal, bundle = built
    create = plan(bundle, "POST", "/notes")
    assert create.served, create.reason
    guarded = refusal == 400
    assert bundle.replay.guarded_headers.get(create.tool, {}) == ({"origin": ORIGIN[1]} if guarded else {})
    assert not bundle.replay.guarded_headers.get("get_notes_by_note_id")
    runtime = EnvironmentRuntime(bundle)
    try:
        # the listener lets both origins through (--cors), as a front serving the application's clients may
        with http_in_thread(runtime, access=Access(cors_origins=(ORIGIN[1], ELSEWHERE))) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            # a guard the capture shows on its creates tells nothing of its reads
            status, answer = send(serving, "GET", "/notes/1", headers={AUTH[0]: AUTH[1], "Origin": ELSEWHERE})
            assert status == 200 and answer["title"] == "one", answer
            for title, origin in (("from elsewhere", {"Origin": ELSEWHERE}), ("from nowhere", {})):
                status, answer = send(serving, "POST", "/notes", {"title": title}, {AUTH[0]: AUTH[1], **origin})
                if guarded:
                    assert status == 400 and ORIGIN[1] in answer["message"], answer
                    assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                else:
                    assert status == 201 and answer["title"] == title, answer
            status, answer = send(serving, "POST", "/notes", {"title": "at home"}, dict([ORIGIN, AUTH]))
            assert status == 201 and answer["title"] == "at home", answer
            via_tool = runtime.call_tool(create.tool, {"body": {"title": "via a tool"}})
            assert not via_tool.is_error, via_tool.structured
    finally:
        runtime.close()


def test_the_decision_is_traced(built) -> None:
    refusal, bundle = built
    events = [e for e in bundle.view.traces if e.table == "request-guard-values" and e.subject.endswith("header origin")]
    assert events and any(e.outcome == "match" for e in events) == (refusal == 400), events
    # a body of another length sent another Content-Length: a header any client sends, never guarded
    assert {e.subject for e in bundle.view.traces if e.table == "request-guard-values" and e.outcome == "match"} \
        <= {e.subject for e in events}

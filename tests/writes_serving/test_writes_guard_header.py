"""A guard header (``credential.guard-header``): every successful recorded call of a tool sent a
header of the application's own (an X-Requested-With it demands against cross-site requests), and a
call leaving out that header alone was answered 400 "Required Header Missing". Serving refuses an
HTTP call leaving it out, with the state unchanged, where before it applied the write the application
refuses. A header some call left out with another refusal (a 404 for a missing note) is not required,
nor is the guard of a create required of reads (no read was refused without it)."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

GUARD = ("X-Requested-With", "rest")
AUTH = ("Authorization", "Basic YWRtaW46c2VjcmV0")


def capture(refusal: int) -> HarBuilder:
    """Notes listed and created, every call sending the guard header and credentials; one create
    sent without the guard header alone, answered ``refusal``."""
    har = HarBuilder()
    sent = [GUARD, AUTH]
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
    answer = {"error": {"status": 400, "msg": "Required Header Missing"}} if refusal == 400 else {"msg": "no"}
    har.call("POST", "/notes", body={"title": "unguarded"}, status=refusal, response=answer, headers=[AUTH])
    har.call("GET", "/notes", response=notes, headers=sent)
    return har


@pytest.fixture(scope="module", params=[400, 404], ids=["refused-400", "refused-404"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(request.param), tmp_path_factory.mktemp("g") / "capture.har")


def test_a_call_without_the_guard_header_is_refused(built) -> None:
    refusal, bundle = built
    create = plan(bundle, "POST", "/notes")
    assert create.served, create.reason
    guarded = refusal == 400
    assert ("x-requested-with" in create.credential_headers) == guarded
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            # a guard the capture shows demanded of its creates tells nothing of its reads
            status, answer = send(serving, "GET", "/notes/1", headers={AUTH[0]: AUTH[1]})
            assert status == 200 and answer["title"] == "one", answer
            status, answer = send(serving, "POST", "/notes", {"title": "unguarded"}, {AUTH[0]: AUTH[1]})
            if guarded:
                assert status == 401 and "X-Requested-With".lower() in answer["message"].lower(), answer
                assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                status, answer = send(serving, "POST", "/notes", {"title": "guarded"}, dict([GUARD, AUTH]))
                assert status == 201 and answer["title"] == "guarded", answer
            else:
                assert status == 201 and answer["title"] == "unguarded", answer
    finally:
        runtime.close()

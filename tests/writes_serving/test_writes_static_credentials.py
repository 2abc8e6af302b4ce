"""Credentials static across a capture (``write-credential-values``): an HTTP call sending a
credentials header with another value than every successful recorded call sent is refused (401,
naming the header, never the recorded value), state unchanged, where the application refuses a
wrong password or key. HTTP Basic credentials are compared decoded (the scheme's spelling and the
padding aside). A token a recorded answer issued (a login's, which a fresh login replaces) is not
static: any value is taken, as before. A JWT no answer issued that stays the same across the capture
(a long-lived access token, ``credential-value.signed-static``) is compared whole: the capture shows
only it accepted, and another token of its shape (another user's, expired, unsigned) cannot be told
from a good one, so it is refused. JWTs the client signs anew per call are compared by their shape
(``credential-value.signed-alike``): a token of another header or signature length (a malformed or
forged one) is refused, one signed alike is taken whatever it claims."""

from __future__ import annotations

import base64

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

BASIC = "Basic " + base64.b64encode(b"admin:s3cret-pw").decode()
WRONG_BASIC = "Basic " + base64.b64encode(b"admin:wrong").decode()
ISSUED = "Bearer 9f8e7d6c5b4a-session"
JWT = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLXBhcnQ"
CASES = {"basic": BASIC, "issued": ISSUED, "jwt": JWT, "minted": JWT}
ALIKE = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IiLCJpYXQiOjF9.c2lnbmF0dXJlLXBhcnS"
"""Signed as JWT is (its header, a signature of the same length), with other claims: another user's."""


def minted(call: int) -> str:
    """The token a client signing per call sends on its ``call``-th call (iat moves, the shape stays)."""
    claims = base64.urlsafe_b64encode(f'{{"sub":"admin","iat":{1000 + call}}}'.encode()).decode().rstrip("=")
    return f"Bearer eyJhbGciOiJIUzI1NiJ9.{claims}.c2lnbmF0dXJlLXBhcnQ"


def capture(case: str) -> HarBuilder:
    """Notes read and renamed by PATCH, every call sending Authorization (``issued``: the token a
    recorded login answered)."""
    har = HarBuilder()
    calls = iter(range(100))

    def sent() -> list[tuple[str, str]]:
        return [("Authorization", minted(next(calls)) if case == "minted" else CASES[case])]
    if case == "issued":
        har.call("POST", "/login", body={"user": "admin", "password": "pw"},
                 response={"token": ISSUED.split(" ", 1)[1]})
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har.call("GET", "/notes", response=notes, headers=sent())
    for note in notes:
        har.call("GET", f"/notes/{note['id']}", response=note, headers=sent())
    for note, title in ((notes[0], "first"), (notes[1], "second")):
        note["title"] = title
        har.call("PATCH", f"/notes/{note['id']}", body={"title": title}, response=note, headers=sent())
        har.call("GET", f"/notes/{note['id']}", response=note, headers=sent())
        har.call("GET", "/notes", response=notes, headers=sent())
    return har


@pytest.fixture(scope="module", params=sorted(CASES))
def built(request, tmp_path_factory):
    return request.param, build_from(capture(request.param), tmp_path_factory.mktemp(request.param) / "capture.har")


def test_basic_credentials_and_signed_tokens_are_static(built) -> None:
    case, bundle = built
    assert plan(bundle, "PATCH", "/notes/{note_id}").credential_headers == ("authorization",)
    static = bundle.replay.static_credentials
    if case == "basic":
        (rule,) = static.values()
        assert rule.compare == "user-password" and rule.rule_id == "credential-value.static-basic"
        assert "s3cret-pw" not in bundle.replay.model_dump_json()  # a digest, never the secret
    elif case == "jwt":
        (rule,) = static.values()
        assert rule.compare == "value" and rule.rule_id == "credential-value.signed-static"
    elif case == "minted":
        (rule,) = static.values()
        assert rule.compare == "signed-shape" and rule.rule_id == "credential-value.signed-alike"
    else:
        assert static == {}


def test_a_wrong_value_is_refused_where_static(built) -> None:
    case, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            wrong = {"basic": WRONG_BASIC, "issued": "Bearer another-session", "jwt": "Bearer a.b.c",
                     "minted": "Bearer a.b.c"}[case]
            status, answer = send(serving, "PATCH", "/notes/1", {"title": "wrong"}, {"Authorization": wrong})
            if case == "basic":
                assert status == 401 and "authorization" in answer["message"], answer
                assert "s3cret" not in answer["message"] and "recorded credentials" in answer["message"]
                assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                status, answer = send(serving, "GET", "/notes/1", headers={"Authorization": wrong})
                assert status == 401, answer
                # the same credentials spelt otherwise (the scheme's case, no padding) are taken
                again = "basic " + base64.b64encode(b"admin:s3cret-pw").decode().rstrip("=")
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "right"}, {"Authorization": again})
                assert status == 200 and answer["title"] == "right", answer
            elif case == "jwt":  # a static token: another of its shape is refused too, state unchanged
                assert status == 401 and "recorded credentials" in answer["message"], answer
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "bob"}, {"Authorization": ALIKE})
                assert status == 401 and "recorded credentials" in answer["message"], answer
                assert "eyJ" not in answer["message"]  # never the recorded token
                status, answer = send(serving, "GET", "/notes/1", headers={"Authorization": ALIKE})
                assert status == 401, answer
                assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "signed"}, {"Authorization": JWT})
                assert status == 200 and answer["title"] == "signed", answer  # the recorded token is taken
            elif case == "minted":  # not a signed token at all: refused, state unchanged
                assert status == 401 and "another shape" in answer["message"], answer
                assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                forged = JWT.rsplit(".", 1)[0] + ".forged"  # a signature of another length
                status, answer = send(serving, "GET", "/notes/1", headers={"Authorization": forged})
                assert status == 401, answer
                # another token signed alike (other claims, a signature of the same length) is taken
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "signed"}, {"Authorization": ALIKE})
                assert status == 200 and answer["title"] == "signed", answer
            else:  # a fresh login's token: the capture cannot tell it wrong
                assert status == 200 and answer["title"] == "wrong", answer
    finally:
        runtime.close()


def test_signed_tokens_the_capture_shows_refused_alike_are_compared_whole(tmp_path) -> None:
    """Where the capture also records a token of the successful calls' shape refused 401 (expired,
    or signed with another secret), the shape vouches for no token: only a token a successful call
    sent is taken over HTTP (``credential-value.signed-refused-alike``)."""
    har = capture("jwt")
    alike = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IiLCJpYXQiOjF9.c2lnbmF0dXJlLXBhcnS"  # signed alike, refused
    har.call("GET", "/notes", status=401, response={"message": "Not authorized"}, headers=[("Authorization", alike)])
    bundle = build_from(har, tmp_path / "capture.har")
    (rule,) = bundle.replay.static_credentials.values()
    assert rule.compare == "signed-recorded" and rule.rule_id == "credential-value.signed-refused-alike"
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            other = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYXQiLCJpYXQiOjJ9.c2lnbmF0dXJlLXBhcnT"
            status, answer = send(serving, "PATCH", "/notes/1", {"title": "signed"}, {"Authorization": other})
            assert status == 401 and "no successful recorded call sent" in answer["message"], answer
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            status, answer = send(serving, "GET", "/notes/1", headers={"Authorization": other})
            assert status == 401, answer
            status, answer = send(serving, "PATCH", "/notes/1", {"title": "signed"}, {"Authorization": JWT})
            assert status == 200 and answer["title"] == "signed", answer  # the recorded token is taken
    finally:
        runtime.close()

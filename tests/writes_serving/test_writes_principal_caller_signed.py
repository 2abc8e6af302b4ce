"""Several callers with signed tokens (``credential-value.signed-principal-of-callers``): where a
capture's successful calls were sent with two JWTs - two long-lived tokens, or two a login issued -
each caller may be answered a view of their own. The state holds what the principal (the token most
calls sent) was shown, and another caller's JWT has the principal's shape, so serving refuses it
rather than answer it the principal's view (before, ``signed-static`` accepted each recorded value and
an issued JWT any value), and the gate passes over the other caller's calls, which show their view."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send
from test_writes_principal_caller import renamed_by_the_principal

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

ADMIN = ("Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9."
         "c2lnbmVkLWJ5LXRoZS1zZXJ2ZXItZm9yLWFkbWluLTAx")
OTHER = ("Bearer eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvdGhlciJ9."
         "c2lnbmVkLWJ5LXRoZS1zZXJ2ZXItZm9yLW90aGVyLTAy")


def capture(*, issued: bool) -> HarBuilder:
    """Notes read and renamed by the admin; a second user, between the admin's writes, is answered
    an empty list (none of the notes theirs) and a 403 for a note. With ``issued``, a login answers
    each token; otherwise both are long-lived (no answer holds them)."""
    har = HarBuilder()
    admin = [("Authorization", ADMIN)]
    other = [("Authorization", OTHER)]
    if issued:
        har.call("POST", "/login", body={"user": "admin"}, response={"token": ADMIN.split()[1]})
        har.call("POST", "/login", body={"user": "other"}, response={"token": OTHER.split()[1]})
    renamed_by_the_principal(har, admin, other)
    return har


@pytest.fixture(scope="module", params=[False, True], ids=["long-lived", "issued"])
def bundle(request, tmp_path_factory):
    return build_from(capture(issued=request.param), tmp_path_factory.mktemp("signed") / "capture.har")


def test_the_principal_jwt_alone_is_kept(bundle) -> None:
    (credential,) = bundle.replay.static_credentials.values()
    assert credential.rule_id == "credential-value.signed-principal-of-callers"
    assert len(credential.digests) == 1
    patch = plan(bundle, "PATCH", "/notes/{note_id}")
    assert patch.served, patch.reason  # the other caller's empty list is their view, not the state's


def test_another_callers_jwt_is_refused(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send(serving, "GET", "/notes", headers={"Authorization": OTHER})
            assert status == 401 and "authorization" in answer["message"], answer
            status, answer = send(serving, "PATCH", "/notes/1", {"title": "theirs"}, {"Authorization": OTHER})
            assert status == 401, answer
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            status, answer = send(serving, "GET", "/notes", headers={"Authorization": ADMIN})
            assert status == 200 and [n["id"] for n in answer] == [1, 2], answer
            status, answer = send(serving, "PATCH", "/notes/1", {"title": "mine"}, {"Authorization": ADMIN})
            assert status == 200 and answer["title"] == "mine", answer
    finally:
        runtime.close()

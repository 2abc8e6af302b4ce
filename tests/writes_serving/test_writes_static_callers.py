"""Several callers with API keys nobody issued in the capture (``credential-value.static-callers-refused-apart``):
an administrator's key and a translator's, each sent by several successful calls, the translator's
refused 403 for a write the administrator made. The application answers each caller by their key (the
users list: every account with emails for the administrator, the translator alone for herself), so the
state and the recordings hold the principal's view (the key most calls sent): another caller's key is
refused over HTTP rather than answered the principal's recording or state. Without a refusal, the
users list read with both keys and answered differently, nothing written between, tells the callers apart
too (``credential-value.static-callers-answered-apart``); with neither, two keys stay static alike
(``credential-value.static-token``) and both are served, as before.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime

ADMIN = "Token wlu_admin000000000000000000000000001"
TRANSLATOR = "Token wlu_translator0000000000000000000002"
EVERY_ACCOUNT = {"count": 2, "results": [{"id": 1, "username": "admin", "email": "admin@example.com"},
                                          {"id": 2, "username": "tr", "email": "tr@example.com"}]}
HERSELF = {"count": 1, "results": [{"id": 2, "username": "tr"}]}


def capture(*, translator_refused: bool, shown_apart: bool = True) -> HarBuilder:
    """The administrator reads the users and projects, renames a project; the translator reads the
    users (herself alone; with ``shown_apart`` false, every account as the administrator is shown) and
    the projects; with ``translator_refused``, her rename is refused 403."""
    har = HarBuilder()
    admin = [("Authorization", ADMIN)]
    translator = [("Authorization", TRANSLATOR)]
    project = {"slug": "hello", "name": "Hello", "web": "https://hello.example.com/"}
    har.call("GET", "/api/users/", response=EVERY_ACCOUNT, headers=admin)
    har.call("GET", "/api/projects/hello/", response=dict(project), headers=admin)
    har.call("GET", "/api/users/", response=HERSELF if shown_apart else EVERY_ACCOUNT, headers=translator)
    har.call("GET", "/api/users/", response={"count": 0, "results": []})  # nobody signed in
    har.call("GET", "/api/projects/hello/", response=dict(project), headers=translator)
    if translator_refused:
        har.call("PATCH", "/api/projects/hello/", body={"name": "Mine"}, status=403,
                 response={"detail": "Can not edit project"}, headers=translator)
    project["name"] = "Hello World"
    har.call("PATCH", "/api/projects/hello/", body={"name": "Hello World"}, response=dict(project), headers=admin)
    har.call("GET", "/api/projects/hello/", response=dict(project), headers=admin)
    har.call("GET", "/api/users/", response=EVERY_ACCOUNT, headers=admin)
    return har


KEPT_BY = {"translator-refused": "credential-value.static-callers-refused-apart",
           "shown-apart": "credential-value.static-callers-answered-apart", "shown-alike": None}


@pytest.fixture(scope="module", params=list(KEPT_BY))
def built(request, tmp_path_factory):
    har = capture(translator_refused=request.param == "translator-refused", shown_apart=request.param != "shown-alike")
    return KEPT_BY[request.param], build_from(har, tmp_path_factory.mktemp("static-callers") / "capture.har")


def test_the_principal_key_alone_is_kept_when_the_callers_were_told_apart(built) -> None:
    refused, bundle = built
    (credential,) = bundle.replay.static_credentials.values()
    if refused:
        assert credential.rule_id == refused, credential
        assert len(credential.digests) == 1
    else:
        assert credential.rule_id == "credential-value.static-token" and len(credential.digests) == 2, credential
    patch = plan(bundle, "patch_projects_hello")
    assert patch.served, patch.reason  # the translator's refusal is hers, no condition on the project


def test_another_callers_key_is_not_answered_the_principals_view(built) -> None:
    refused, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, answer = send(serving, "GET", "/api/users/", headers={"Authorization": ADMIN})
            assert status == 200 and answer["count"] == 2, answer
            status, answer = send(serving, "GET", "/api/users/", headers={"Authorization": TRANSLATOR})
            if refused:
                # the translator was answered herself alone: the administrator's list would be a wrong answer
                assert status == 401 and "authorization" in answer["message"], answer
                status, answer = send(serving, "PATCH", "/api/projects/hello/", {"name": "Mine"},
                                      {"Authorization": TRANSLATOR})
                assert status == 401, answer
                status, answer = send(serving, "GET", "/api/projects/hello/", headers={"Authorization": TRANSLATOR})
                assert status == 401, answer  # read alike by both, but her view is not the state's to answer
                status, answer = send(serving, "GET", "/api/users/")
                assert status == 401 and "authorization" in answer["message"], answer
            else:
                assert status == 200, answer
    finally:
        runtime.close()

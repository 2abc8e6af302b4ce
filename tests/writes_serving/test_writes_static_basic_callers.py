"""Several users sending HTTP Basic credentials nobody issued in the capture
(``credential-value.static-basic-callers-refused-apart``): a site administrator's and a member's, each
sent by several successful calls, the member refused 401 on a private page the administrator reads. The
application answers each user by their roles (the private page: 200 to the administrator, 401 to the
member), so the state and the recordings hold the principal's view (the user most calls sent): another
user's credentials are refused over HTTP rather than answered the principal's recording or state. Without
a refusal, the public page read by both and answered differently, nothing written between, tells the users
apart too (``credential-value.static-basic-callers-answered-apart``); with neither, both stay static alike
(``credential-value.static-basic``) and both are served, as before. The state takes the principal's answer of an entity another user read later (the
application names its reader as the creator of a page nobody created: another user's name there would be
a wrong answer to the principal).
"""

from __future__ import annotations

import base64

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


ADMIN = basic("sam", "sam-pw-1")
MEMBER = basic("bob", "bob-pw-1")
PRIVATE = {"@id": "http://127.0.0.1:8080/site/news/plans", "id": "plans", "title": "Plans", "review_state": "private"}
PUBLIC = {"@id": "http://127.0.0.1:8080/site/news/launch", "id": "launch", "title": "Launch", "review_state": "published",
          "creators": ["sam"]}
AS_MEMBER = {**PUBLIC, "creators": ["bob"]}
REFUSED = {"type": "Unauthorized", "message": "You are not authorized to access this resource."}


def capture(*, member_refused: bool, shown_apart: bool = True) -> HarBuilder:
    """The administrator reads both pages and renames the public one; the member reads the public page
    twice (named its creator; with ``shown_apart`` false, answered as the administrator is); with
    ``member_refused``, the member is refused the private page (401)."""
    har = HarBuilder()
    admin, member = [("Authorization", ADMIN)], [("Authorization", MEMBER)]
    har.call("GET", "/site/news/plans", response=dict(PRIVATE), headers=admin)
    har.call("GET", "/site/news/launch", response=dict(PUBLIC), headers=admin)
    seen = AS_MEMBER if shown_apart else PUBLIC
    har.call("GET", "/site/news/launch", response=dict(seen), headers=member)
    if member_refused:
        har.call("GET", "/site/news/plans", status=401, response=REFUSED, headers=member)
    har.call("GET", "/site/news/launch", response=dict(seen), headers=member)
    renamed = {**PUBLIC, "title": "Launch day"}
    har.call("PATCH", "/site/news/launch", body={"title": "Launch day"}, response=renamed, headers=admin)
    har.call("GET", "/site/news/launch", response=renamed, headers=admin)
    har.call("GET", "/site/news/plans", response=dict(PRIVATE), headers=admin)
    return har


KEPT_BY = {"member-refused": "credential-value.static-basic-callers-refused-apart",
           "shown-apart": "credential-value.static-basic-callers-answered-apart", "shown-alike": None}


@pytest.fixture(scope="module", params=list(KEPT_BY))
def built(request, tmp_path_factory):
    har = capture(member_refused=request.param == "member-refused", shown_apart=request.param != "shown-alike")
    return (request.param, KEPT_BY[request.param]), build_from(
        har, tmp_path_factory.mktemp("static-basic-callers") / "capture.har")


def test_the_principal_user_alone_is_kept_when_the_users_were_told_apart(built) -> None:
    (_, refused), bundle = built
    (credential,) = bundle.replay.static_credentials.values()
    if refused:
        assert credential.rule_id == refused, credential
        assert credential.compare == "user-password" and len(credential.digests) == 1
    else:
        assert credential.rule_id == "credential-value.static-basic" and len(credential.digests) == 2, credential


def test_another_users_credentials_are_not_answered_the_principals_view(built) -> None:
    (case, refused), bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, answer = send(serving, "GET", "/site/news/plans", headers={"Authorization": ADMIN})
            assert status == 200 and answer["title"] == "Plans", answer
            status, answer = send(serving, "GET", "/site/news/plans", headers={"Authorization": MEMBER})
            if refused:
                # the member was refused this very page: the administrator's view would be a wrong answer
                assert status == 401 and "authorization" in answer["message"], answer
                status, answer = send(serving, "GET", "/site/news/launch", headers={"Authorization": ADMIN})
                assert status == 200 and answer["creators"] == ["sam"], answer  # the principal's view, not bob's
                # the page the member read: their own recording (answers vary by the Authorization sent), or
                # a refusal, never the principal's view
                status, answer = send(serving, "GET", "/site/news/launch", headers={"Authorization": MEMBER})
                assert status == 401 or (case == "member-refused" and status == 200 and answer["creators"] == ["bob"]), \
                    answer
            else:
                assert status == 200, answer
    finally:
        runtime.close()

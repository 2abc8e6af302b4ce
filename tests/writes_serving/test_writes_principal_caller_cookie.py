"""Several callers by their session cookie (``credential-value.session-cookie-principal``): where a
capture's calls were sent as two users, each by the session cookie a login set, and the application
refused the second user's PATCH (403) that the first user's PATCH had been answered, serving keeps to
the principal's session (the one most successful calls were sent as): a call sending the other
user's session cookie is refused (401) over HTTP rather than applied, while the principal's calls,
after the application renewed its session cookie (Set-Cookie) and beside a CSRF cookie that changed,
are served. Without the refusal the model would apply a write the application refused."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send, send_headers

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

ADMIN = "sid=admin-session-0001; csrftoken=csrf-a"
ADMIN_RENEWED = "sid=admin-session-0002; csrftoken=csrf-b"
OTHER = "sid=other-session-0003; csrftoken=csrf-c"


def capture(*, other_refused: bool) -> HarBuilder:
    """Notes read and renamed by the admin, whose session the application renews midway; a second
    user reads the notes and (``other_refused``) is refused a PATCH of one (403), else answered it."""
    har = HarBuilder()
    admin, renewed, other = ({"Cookie": c, "X-CSRFToken": c.rsplit("=", 1)[1]} for c in (ADMIN, ADMIN_RENEWED, OTHER))
    har.call("POST", "/login", body={"user": "admin"}, response={"ok": True},
             response_headers=[("Set-Cookie", "sid=admin-session-0001; Path=/; HttpOnly")])
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har.call("GET", "/notes", response=notes, headers=list(admin.items()))
    for note in notes:
        har.call("GET", f"/notes/{note['id']}", response=note, headers=list(admin.items()))
    notes[0]["title"] = "first"
    har.call("PATCH", "/notes/1", body={"title": "first"}, response=notes[0], headers=list(admin.items()),
             response_headers=[("Set-Cookie", "sid=admin-session-0002; Path=/; HttpOnly"),
                               ("Set-Cookie", "csrftoken=csrf-b; Path=/")])
    har.call("GET", "/notes/1", response=notes[0], headers=list(renewed.items()))
    har.call("GET", "/notes", response=notes, headers=list(renewed.items()))
    har.call("POST", "/login", body={"user": "other"}, response={"ok": True},
             response_headers=[("Set-Cookie", "sid=other-session-0003; Path=/; HttpOnly")])
    har.call("GET", "/notes/2", response=notes[1], headers=list(other.items()))
    if other_refused:
        har.call("PATCH", "/notes/2", body={"title": "theirs"}, status=403, response={"detail": "forbidden"},
                 headers=list(other.items()))
    else:
        notes[1]["title"] = "theirs"
        har.call("PATCH", "/notes/2", body={"title": "theirs"}, response=notes[1], headers=list(other.items()))
    har.call("GET", "/notes/2", response=notes[1], headers=list(other.items()))
    notes[1]["title"] = "second"
    har.call("PATCH", "/notes/2", body={"title": "second"}, response=notes[1], headers=list(renewed.items()))
    har.call("GET", "/notes/2", response=notes[1], headers=list(renewed.items()))
    har.call("GET", "/notes", response=notes, headers=list(renewed.items()))
    return har


@pytest.fixture(scope="module", params=[True, False], ids=["other-refused", "other-answered"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(other_refused=request.param),
                                     tmp_path_factory.mktemp("cookie") / "capture.har")


def test_the_principals_session_is_kept(built) -> None:
    other_refused, bundle = built
    patch = plan(bundle, "PATCH", "/notes/{note_id}")
    assert patch.served, patch.reason
    static = bundle.replay.static_credentials
    if other_refused:
        assert "cookie" in patch.credential_headers  # another value was refused
        # the other user's read was answered: the read requires the cookie as kept to the principal
        assert "cookie" in bundle.replay.credential_headers["get_notes_by_note_id"]
        credential = static["cookie"]
        assert credential.rule_id == "credential-value.session-cookie-principal"
        assert credential.cookie == "sid" and len(credential.digests) == 2  # the session and its renewal
    else:
        assert "cookie" not in static  # no caller refused: cookies are not compared


def test_another_sessions_write_is_refused(built) -> None:
    other_refused, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send(serving, "PATCH", "/notes/1", {"title": "theirs"},
                                  {"Cookie": OTHER, "X-CSRFToken": "csrf-c"})
            if not other_refused:
                assert status == 200, answer
                return
            assert status == 401 and "sid" in answer["message"], answer
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            for cookie in (ADMIN, ADMIN_RENEWED, "csrftoken=csrf-z; sid=admin-session-0002"):
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "mine"},
                                      {"Cookie": cookie, "X-CSRFToken": "csrf-z"})
                assert status == 200 and answer["title"] == "mine", (cookie, answer)
            status, answer = send(serving, "PATCH", "/notes/1", {"title": "mine"},
                                  {"Cookie": "csrftoken=csrf-a", "X-CSRFToken": "csrf-a"})
            assert status == 401, answer  # the CSRF cookie alone is no session
            # a read the other user was answered in the capture answers by the caller too: refused
            status, answer = send(serving, "GET", "/notes/1", headers={"Cookie": OTHER})
            assert status == 401 and "sid" in answer["message"], answer
            status, answer = send(serving, "GET", "/notes/1", headers={"Cookie": ADMIN_RENEWED})
            assert status == 200 and answer["title"] == "mine", answer
    finally:
        runtime.close()


def test_a_second_session_beside_the_principals_is_refused(built) -> None:
    """Another caller's session cookie cannot ride beside the principal's: in a second Cookie header
    (HTTP/2 sends a client's cookies so, and the application reads them joined) or named twice in one
    header (many frameworks keep the last). Both were applied before, serving reading the first."""
    other_refused, bundle = built
    if not other_refused:
        pytest.skip("the other caller answered alike: no principal's session to keep apart")
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            for cookies in ([("Cookie", ADMIN_RENEWED), ("Cookie", OTHER)],
                            [("Cookie", "sid=admin-session-0002; sid=other-session-0003; csrftoken=csrf-c")]):
                for method, path, body in (("PATCH", "/notes/1", {"title": "theirs"}), ("GET", "/notes/1", None)):
                    status, answer = send_headers(serving, method, path, body,
                                                  [*cookies, ("X-CSRFToken", "csrf-c")])
                    assert status == 401 and "sid" in answer["message"], (cookies, method, answer)
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            # the principal's session in a second Cookie header (its CSRF cookie in the first) is served,
            # as is its session named twice with one value
            for cookies in ([("Cookie", "csrftoken=csrf-b"), ("Cookie", "sid=admin-session-0002")],
                            [("Cookie", "sid=admin-session-0002; csrftoken=csrf-b; sid=admin-session-0002")]):
                status, answer = send_headers(serving, "PATCH", "/notes/1", {"title": "mine"},
                                              [*cookies, ("X-CSRFToken", "csrf-b")])
                assert status == 200 and answer["title"] == "mine", (cookies, answer)
    finally:
        runtime.close()

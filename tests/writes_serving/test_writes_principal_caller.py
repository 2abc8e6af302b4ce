"""Several callers (``credential-value.principal-of-callers``): where a capture's successful calls
were sent with a few tokens a login issued, each caller may be answered a view of their own (their
own annotations, a 403 for what they may not see). The state holds what the principal (the token
most calls sent) was shown, so serving refuses another caller's token rather than answer them the
principal's view, and the gate passes over another caller's calls, which show their view, not the
state: a write of the principal stays served though another caller's list differed, and a delete
another caller was refused (403) holds no condition on the entity."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send, send_headers

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

ADMIN = "Token admin-token-0001"
OTHER = "Token other-token-0002"


def renamed_by_the_principal(har: HarBuilder, admin: list, other: list | None) -> list[dict]:
    """The admin reads two notes and renames each, reading it back and the list; with ``other``'s
    credentials, a second caller is answered between the renames an empty list (none of the notes
    theirs) and a 403 for a note. The notes as the admin left them."""
    notes = [{"id": 1, "title": "one"}, {"id": 2, "title": "two"}]
    har.call("GET", "/notes", response=notes, headers=admin)
    for note in notes:
        har.call("GET", f"/notes/{note['id']}", response=note, headers=admin)
    for note, title in ((notes[0], "first"), (notes[1], "second")):
        note["title"] = title
        har.call("PATCH", f"/notes/{note['id']}", body={"title": title}, response=note, headers=admin)
        har.call("GET", f"/notes/{note['id']}", response=note, headers=admin)
        if other is not None:
            har.call("GET", "/notes", response=[], headers=other)
            har.call("GET", "/notes/2", status=403, response={"detail": "forbidden"}, headers=other)
        har.call("GET", "/notes", response=notes, headers=admin)
    return notes


def capture(*, other_caller: bool) -> HarBuilder:
    """Notes read and renamed by the admin; with ``other_caller``, a second user logs in and is
    answered an empty list of notes (none of them theirs) between the admin's writes."""
    har = HarBuilder()
    admin = [("Authorization", ADMIN)]
    other = [("Authorization", OTHER)]
    har.call("POST", "/login", body={"user": "admin"}, response={"key": ADMIN.split()[1]})
    if other_caller:
        har.call("POST", "/login", body={"user": "other"}, response={"key": OTHER.split()[1]})
    notes = renamed_by_the_principal(har, admin, other if other_caller else None)
    notes.append({"id": 3, "title": "three"})
    har.call("POST", "/notes", body={"title": "three"}, status=201, response=notes[-1], headers=admin)
    har.call("GET", "/notes/3", response=notes[-1], headers=admin)
    if other_caller:  # refused for who asked, not for the note: the delete holds no condition
        har.call("DELETE", "/notes/3", status=403, response={"detail": "forbidden"}, headers=other)
    har.call("DELETE", "/notes/3", status=204, headers=admin)
    notes.pop()
    har.call("GET", "/notes/3", status=404, response={"detail": "not found"}, headers=admin)
    har.call("GET", "/notes", response=notes, headers=admin)
    return har


@pytest.fixture(scope="module", params=[False, True], ids=["one-caller", "two-callers"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(other_caller=request.param),
                                     tmp_path_factory.mktemp("caller") / "capture.har")


def test_the_principal_alone_is_served_where_callers_differ(built) -> None:
    two_callers, bundle = built
    patch = plan(bundle, "PATCH", "/notes/{note_id}")
    assert patch.served, patch.reason  # another caller's empty list contradicts nothing
    delete = plan(bundle, "DELETE", "/notes/{note_id}")
    assert delete.served, delete.reason  # another caller's 403 is no condition on the note
    static = bundle.replay.static_credentials
    if two_callers:
        (credential,) = static.values()
        assert credential.rule_id == "credential-value.principal-of-callers" and len(credential.digests) == 1
    else:
        assert static == {}  # one caller's issued token: a fresh login's may replace it


def test_another_callers_token_is_refused(built) -> None:
    two_callers, bundle = built
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send(serving, "GET", "/notes", headers={"Authorization": OTHER})
            if two_callers:
                assert status == 401 and "authorization" in answer["message"], answer
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "theirs"}, {"Authorization": OTHER})
                assert status == 401, answer
                assert data_client.data_get(serving.base_url, token=serving.data_token) == before
                status, answer = send(serving, "PATCH", "/notes/1", {"title": "mine"}, {"Authorization": ADMIN})
                assert status == 200 and answer["title"] == "mine", answer
            else:
                assert status == 200 and [n["id"] for n in answer] == [1, 2], answer
    finally:
        runtime.close()


def test_a_token_sent_twice_with_another_callers_is_refused(built) -> None:
    """Authorization sent twice, the principal's token and another caller's: the application may
    read either, so serving refuses it (it read the first before); sent twice alike, it is served."""
    two_callers, bundle = built
    if not two_callers:
        pytest.skip("one caller: no other caller's token to send beside the principal's")
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            for method, path, body in (("PATCH", "/notes/1", {"title": "theirs"}), ("GET", "/notes/1", None)):
                status, answer = send_headers(serving, method, path, body,
                                              [("Authorization", ADMIN), ("Authorization", OTHER)])
                assert status == 401 and "more than once" in answer["message"], (method, answer)
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            status, answer = send_headers(serving, "PATCH", "/notes/1", {"title": "mine"},
                                          [("Authorization", ADMIN), ("Authorization", ADMIN)])
            assert status == 200 and answer["title"] == "mine", answer
    finally:
        runtime.close()

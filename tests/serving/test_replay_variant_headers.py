"""A request header other than Accept that selects the answer (an API version sent in a header):
one URL answers another shape per value. Two reads of one path with no write between, one
without the header and one with it, answered in different shapes prove it (view-variant-headers);
the view reads the usual variant only, replay answers another value only with its own
recordings, a value never recorded is refused, and a call sending none (every MCP call) is the
usual one. A header whose values change nothing of the answer's shape selects nothing."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

ITEMS = [{"id": "a1", "label": "one"}, {"id": "b2", "label": "two"}]
VERSION = "X-Api-Version"


def versioned_app() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/things", response=ITEMS)
            .call("GET", "/things", headers=[(VERSION, "2")], response={"things": ITEMS, "rev": "r1"})
            .call("GET", "/things/a1", response=ITEMS[0])
            .call("GET", "/things/b2", response=ITEMS[1])
            .call("GET", "/things", headers=[(VERSION, "9")], status=400, response={"code": "bad_version"})
            .call("GET", "/things", response=ITEMS))


def http_get(runtime: EnvironmentRuntime, version: str | None = None, path: str = "/things"):
    headers = (("x-api-version", version),) if version else ()
    return runtime.http(HttpRequest("GET", path, (), headers, b""))


def test_the_header_selects_the_variant_and_the_view_reads_the_usual_one():
    bundle = build_from(versioned_app())
    assert bundle.replay.variant_headers == {"get_things": ("x-api-version",)}
    assert bundle.replay.default_accept == {"get_things": "x-api-version: "}
    assert bundle.view.view("get_things").kind == "list"
    assert any(t.rule_id == "variant-header.selects-shape" for t in bundle.view.traces)


def test_each_value_is_answered_by_its_own_recording_and_an_unrecorded_one_is_refused():
    runtime = EnvironmentRuntime(build_from(versioned_app()))
    usual = http_get(runtime)
    assert usual.status == 200 and b'"rev"' not in usual.body
    second = http_get(runtime, "2")
    assert second.status == 200 and b'"rev"' in second.body
    assert http_get(runtime, "9").status == 400
    refused = http_get(runtime, "7")
    assert refused.status == 404 and b"X-Api-Version" in refused.body and b'"label"' not in refused.body


def test_a_header_that_changes_no_shape_selects_nothing():
    bundle = build_from(HarBuilder()
                        .call("GET", "/things", headers=[("X-Request-Id", "r-1")], response=ITEMS)
                        .call("GET", "/things", headers=[("X-Request-Id", "r-2")], response=ITEMS)
                        .call("GET", "/things/a1", response=ITEMS[0]))
    assert bundle.replay.variant_headers == {} and bundle.replay.default_accept == {}
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.http(HttpRequest("GET", "/things", (), (("x-request-id", "r-3"),), b""))
    assert answer.status == 200 and b'"label"' in answer.body


def test_credentials_never_select_a_variant():
    bundle = build_from(HarBuilder()
                        .call("GET", "/things", headers=[("Authorization", "Bearer t1")], response=ITEMS)
                        .call("GET", "/things", status=401, response={"error": "unauthorized"})
                        .call("GET", "/things/a1", headers=[("Authorization", "Bearer t1")], response=ITEMS[0]))
    assert bundle.replay.variant_headers == {}


def test_a_key_header_only_ever_refused_without_is_credentials_not_a_variant():
    bundle = build_from(HarBuilder()
                        .call("GET", "/things", headers=[("X-Service-Key", "k1")], response=ITEMS)
                        .call("GET", "/things", status=401, response={"error": "missing key"})
                        .call("GET", "/things/a1", headers=[("X-Service-Key", "k1")], response=ITEMS[0]))
    assert bundle.replay.variant_headers == {}


def test_another_spelling_of_a_recorded_value_is_refused_not_taken_for_it():
    # the application may compare the value exactly (Node-RED answers 400 to V2): only white space
    # around it, which HTTP does not carry, is no spelling
    runtime = EnvironmentRuntime(build_from(versioned_app()))
    for spelling in ("V2", "02", "2.0"):
        answer = http_get(runtime, spelling)
        assert answer.status == 404 and b'"rev"' not in answer.body, spelling
    assert b'"rev"' in http_get(runtime, " 2 ").body


def caller_app() -> HarBuilder:
    """A whoami: no token answers {}, a login's token answers the caller's own object (a write between)."""
    return (HarBuilder()
            .call("GET", "/me", response={})
            .call("POST", "/session", body={"user": "ann", "password": "pw-ann-1"}, status=201,
                  response={"token": "t-ann-0001"})
            .call("GET", "/me", headers=[("Authorization", "Bearer t-ann-0001")], response={"username": "ann"})
            .call("GET", "/things", headers=[("Authorization", "Bearer t-ann-0001")], response=ITEMS)
            .call("GET", "/things/a1", headers=[("Authorization", "Bearer t-ann-0001")], response=ITEMS[0]))


def me(runtime: EnvironmentRuntime, authorization: str | None = None):
    headers = (("authorization", authorization),) if authorization else ()
    return runtime.http(HttpRequest("GET", "/me", (), headers, b""))


def test_credentials_answering_each_caller_their_own_object_select_the_answer():
    bundle = build_from(caller_app())
    assert bundle.replay.variant_headers == {"get_me": ("authorization",)}
    assert bundle.replay.credential_variant_headers == {"get_me": ("authorization",)}
    assert any(t.rule_id == "variant-header.credentials-name-the-caller" for t in bundle.view.traces)
    runtime = EnvironmentRuntime(bundle)
    ann = me(runtime, "Bearer t-ann-0001")  # answered by its own recording, or refused (made after a write): never {}
    assert (ann.status == 200 and b'"ann"' in ann.body) or ann.status == 409, (ann.status, ann.body)
    anonymous = me(runtime)
    assert anonymous.status == 200 and b'"username"' not in anonymous.body


def test_another_callers_credentials_are_refused_without_saying_any_value():
    runtime = EnvironmentRuntime(build_from(caller_app()))
    other = me(runtime, "Basic Ym9iOnB3LWJvYi0x")
    assert other.status == 404 and b"Authorization" in other.body
    assert b'"username"' not in other.body and b"t-ann-0001" not in other.body and b"Ym9iOnB3LWJvYi0x" not in other.body


def test_over_http_a_call_without_credentials_is_the_anonymous_caller_not_the_usual_one():
    """A login status read first with the principal's token ({status: loggedIn, username}) and then with
    none ({status: notLoggedIn}), no write between: the usual variant is the token's, which an MCP call
    (no headers) stands for; an HTTP call sending no Authorization is a caller without credentials, whom
    the capture shows answered otherwise, so only the anonymous recording answers it. Before the fix it
    was taken for the usual caller and answered the principal's status from the state."""
    token = [("Authorization", "Bearer t-ann-0001")]
    har = (HarBuilder()
           .call("POST", "/session", body={"user": "ann", "password": "pw-ann-1"}, response={"token": "t-ann-0001"})
           .call("GET", "/status", headers=token, response={"status": "loggedIn", "username": "ann", "open": True})
           .call("GET", "/status", response={"status": "notLoggedIn", "open": True})
           .call("GET", "/things", headers=token, response=ITEMS)
           .call("GET", "/things/a1", headers=token, response=ITEMS[0]))
    bundle = build_from(har)
    assert bundle.replay.credential_variant_headers == {"get_status": ("authorization",)}
    runtime = EnvironmentRuntime(bundle)
    anonymous = runtime.http(HttpRequest("GET", "/status", (), (), b""))
    assert anonymous.status == 200 and b"notLoggedIn" in anonymous.body and b"ann" not in anonymous.body
    principal = runtime.http(HttpRequest("GET", "/status", (), (("authorization", "Bearer t-ann-0001"),), b""))
    assert principal.status == 200 and b'"ann"' in principal.body
    assert runtime.read("get_status", {})["body"]["username"] == "ann"  # over MCP: the usual caller

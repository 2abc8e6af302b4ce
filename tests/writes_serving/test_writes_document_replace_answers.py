"""A document replaced by PUT answers with what the call sent: the members the object held and the
call did not send are gone with the replace, not left out of the answer (``write-answer-omissions``
judges a replace's answer against the object the call leaves, its body). A later PUT sending one of
those members again is answered with it, as serving renders the object after the write."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

BEFORE = {"name": "typicode", "bio": "demo", "theme": "light"}


def capture() -> HarBuilder:
    har = HarBuilder(start="2026-12-05T07:29:19.000Z")
    har.call("GET", "/profile", response=BEFORE)
    for body in ({"name": "typicode", "theme": "solarized"}, {"name": "typicode", "bio": "again", "theme": "dark"}):
        har.call("PUT", "/profile", body=body, response=body)
        har.call("GET", "/profile", response=body)
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("replace") / "capture.har")


def test_the_replace_is_served_leaving_nothing_out_of_its_answer(bundle) -> None:
    write = plan(bundle, "PUT", "/profile")
    assert write.served, write.reason
    assert write.replace and write.response.omitted == ()


def test_the_answer_and_the_read_show_the_replaced_object(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, answer = send_json(serving, "/profile", {"name": "probe", "theme": "dark"}, method="PUT")
            assert status == 200 and answer == {"name": "probe", "theme": "dark"}, answer
            status, answer = send_json(serving, "/profile", {"name": "probe", "bio": "b", "theme": "x"}, method="PUT")
            assert status == 200 and answer == {"name": "probe", "bio": "b", "theme": "x"}, answer
            status, read = send_json(serving, "/profile", None, method="GET")
            assert status == 200 and read == {"name": "probe", "bio": "b", "theme": "x"}, read
    finally:
        runtime.close()

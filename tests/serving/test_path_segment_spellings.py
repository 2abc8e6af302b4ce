"""A path segment names what the application reads once it percent-decodes it, once: ``%2F`` and
``%2f`` name "/", while ``%252F`` names the text "%2F", another parent (a virtual host of that name)
that the capture never showed. A call spelling it is never answered with the recording, or the
state, of the one ``%2F`` names."""

from __future__ import annotations

import json
import re

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.values import same_spelling, spelling_pattern
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

EMAIL = {"name": "email", "vhost": "/", "durable": True}
AUDIT = {"name": "audit", "vhost": "/", "durable": False}
JOBS = {"name": "jobs", "vhost": "staging", "durable": True}
MAIL = {"name": "mail", "vhost": "prod", "durable": True}


@pytest.fixture(scope="module")
def runtime():
    har = (HarBuilder()
           .call("GET", "/api/vhosts", response=[{"name": "/"}, {"name": "staging"}, {"name": "prod"}])
           .call("GET", "/api/queues", response=[EMAIL, AUDIT, JOBS, MAIL])
           .call("GET", "/api/queues/%2F", response=[EMAIL, AUDIT])
           .call("GET", "/api/queues/%2F/email", response=EMAIL)
           .call("GET", "/api/queues/%2F/audit", response=AUDIT)
           .call("GET", "/api/queues/staging", response=[JOBS])
           .call("GET", "/api/queues/staging/jobs", response=JOBS)
           .call("GET", "/api/queues/prod", response=[MAIL])
           .call("GET", "/api/queues/prod/mail", response=MAIL)
           .call("GET", "/api/overview/%2F", response={"queues": 2})
           .call("GET", "/api/overview/prod", response={"queues": 1})
           .call("GET", "/api/overview/staging", response={"queues": 1}))
    return EnvironmentRuntime(build_from(har))


def get(runtime, path):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


@pytest.mark.parametrize("path", ["/api/queues/%2F/email", "/api/queues/%2f/email"])
def test_a_spelling_of_the_same_parent_reads_the_entity(runtime, path):
    answer = get(runtime, path)
    assert answer.status == 200 and json.loads(answer.body) == EMAIL


@pytest.mark.parametrize("path", ["/api/queues/%252F/email", "/api/queues/%252F", "/api/queues/%252f",
                                  "/api/overview/%252F"])
def test_a_twice_encoded_parent_names_another_one(runtime, path):
    answer = get(runtime, path)
    assert answer.status != 200, answer.body
    assert json.loads(answer.body).get("message")  # a refusal saying why, not a recording


@pytest.mark.parametrize(("a", "b", "same"), [
    ("%2F", "%2f", True), ("a%20b", "a b", True), ("ops%40x", "ops@x", True), ("%41", "A", True),
    ("%252F", "%2F", False), ("%2F", "%252F", False), ("%2541", "%41", False), ("%2541", "A", False),
    ("%FF", "%FE", False),  # undecodable bytes stay themselves, not one replacement character
])
def test_segments_are_the_same_only_once_both_are_decoded(a, b, same):
    assert same_spelling(a, b) is same and same_spelling(b, a) is same


@pytest.mark.parametrize(("recorded", "takes", "refuses"), [
    ("%2F", ["%2F", "%2f"], ["%252F", "%25%32%46"]),
    ("ops%40x", ["ops%40x", "ops@x", "%6Fps@x"], ["ops%2540x"]),
    ("%2541", ["%2541", "%25%34%31"], ["%41", "A"]),
])
def test_the_schema_pattern_takes_what_same_spelling_takes(recorded, takes, refuses):
    pattern = re.compile(spelling_pattern(recorded))
    for sent in takes:
        assert pattern.fullmatch(sent) and same_spelling(sent, recorded), sent
    for sent in refuses:
        assert not pattern.fullmatch(sent) and not same_spelling(sent, recorded), sent

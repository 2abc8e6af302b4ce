"""A read whose Accept header takes none of the media types its tool was recorded answering is
refused (406, naming the type it would answer), on the state's answers and on replay alike;
any Accept taking a recorded type (exactly, by ``type/*`` or ``*/*``), or none at all, is answered."""

from __future__ import annotations

import json

import pytest

from capenv.serving.reads.media_ranges import acceptable, media_ranges
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def get(runtime: EnvironmentRuntime, path: str, accept: str | None):
    headers = (("accept", accept),) if accept is not None else ()
    return runtime.http(HttpRequest("GET", path, (), headers, b""))


@pytest.mark.parametrize("path", ["/posts", "/posts/1", "/profile"])
@pytest.mark.parametrize("accept", ["text/html", "text/html, application/xhtml+xml;q=0.9", "application/json;q=0",
                                    "image/*"])
def test_an_accept_taking_no_recorded_type_is_refused(json_server, path, accept) -> None:
    runtime = EnvironmentRuntime(json_server)
    answer = get(runtime, path, accept)
    assert answer.status == 406, answer
    assert "application/json" in json.loads(answer.body)["message"]
    runtime.close()


@pytest.mark.parametrize("accept", [None, "", "*/*", "application/json", "application/*",
                                    "text/html;q=0.9, application/json", "text/html, */*;q=0.1",
                                    "Application/JSON; charset=utf-8", "not a media range"])
def test_an_accept_taking_a_recorded_type_is_answered(json_server, accept) -> None:
    runtime = EnvironmentRuntime(json_server)
    answer = get(runtime, "/posts/1", accept)
    assert answer.status == 200, answer
    assert json.loads(answer.body)["id"] == 1
    runtime.close()


def test_the_most_specific_range_decides() -> None:
    ranges = media_ranges("application/*;q=0, application/json")
    assert ranges is not None and acceptable(ranges, "application/json")
    assert not acceptable(ranges, "application/problem+json")
    assert not acceptable(media_ranges("*/*, application/json;q=0"), "application/json")

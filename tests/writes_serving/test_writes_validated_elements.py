"""A refusal quoting an array member's element (``validated.quoted-element``): a settings document's
``hooks`` list is replaced by PUT, added to by POST, and one POST was refused 400 with an answer
quoting the one element no successful call sent ('bad://x' is not a valid hook). The application
validates the elements; which others it takes the capture cannot say, so every write of the
document (the PUT learns it from the POST's refusal) accepts only arrays of elements a recorded
call succeeded with, and refuses another with the state unchanged, saying which are accepted.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

ONE, TWO, THREE = "hook://127.0.0.1/one", "hook://127.0.0.1/two", "hook://127.0.0.1/three"


def capture() -> HarBuilder:
    har = HarBuilder().call("GET", "/settings", response={"hooks": []})
    har.call("POST", "/settings", body={"hooks": [ONE]}, status=201, response={"hooks": [ONE]})
    har.call("GET", "/settings", response={"hooks": [ONE]})
    har.call("POST", "/settings", body={"hooks": [TWO, ONE]}, status=201, response={"hooks": [TWO, ONE]})
    har.call("GET", "/settings", response={"hooks": [ONE, TWO]})
    har.call("PUT", "/settings", body={"hooks": [THREE]}, response={"hooks": [THREE]})
    har.call("GET", "/settings", response={"hooks": [THREE]})
    har.call("POST", "/settings", body={"hooks": ["bad://x"]}, status=400, response="'bad://x' is not a valid hook.")
    return har.call("GET", "/settings", response={"hooks": [THREE]})


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("validated-elements") / "capture.har")


def test_the_put_learns_the_elements_are_validated(bundle) -> None:
    put = plan(bundle, "PUT", "/settings")
    assert put.served, put.reason
    [validated] = put.validated_values
    assert (validated.member, validated.rule_id, validated.by_element) == ("hooks", "validated.quoted-element", True)
    assert set(validated.accepted) == {ONE, TWO, THREE}


def test_an_unseen_element_is_refused_and_recorded_ones_served(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send_json(serving, "/settings", {"hooks": ["other://y"]}, "PUT")
            assert status == 400 and "'hooks'" in answer["message"] and ONE in answer["message"]
            status, answer = send_json(serving, "/settings", {"hooks": [ONE, "other://y"]}, "PUT")
            assert status == 400
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before  # nothing written
            status, answer = send_json(serving, "/settings", {"hooks": [TWO, ONE]}, "PUT")
            assert status == 200 and answer == {"hooks": [TWO, ONE]}
    finally:
        runtime.close()

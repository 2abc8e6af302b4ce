"""A create whose own path names no collection of its type (``POST /boards/{board}/cards``
creating a card a later ``/cards/{id}`` read shows) is tied to its exemplar's path values
(write-effects "Creates"): serving refuses another board's create, and says truly why (no
recorded call shows what a create under another board stores, answers or where it goes, since
its path names no collection of the type) and what it accepts (the recorded board, in any
percent-encoding), over HTTP and in the tool's input schema; the recorded board's create is served.
"""

from __future__ import annotations

import json

import anyio
import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import call_tool, send_json

from capenv.serving.runtime import EnvironmentRuntime

CARDS = [{"id": 1, "text": "one", "board": 1}, {"id": 2, "text": "two", "board": 2}]


def capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/boards", response=[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}])
    har.call("GET", "/cards", response=CARDS)
    har.call("GET", "/cards/1", response=CARDS[0])
    har.call("POST", "/boards/3/cards", body={"text": "three"}, status=201, response={"id": 3})
    har.call("GET", "/cards/3", response={"id": 3, "text": "three", "board": 3})
    har.call("GET", "/cards", response=[*CARDS, {"id": 3, "text": "three", "board": 3}])
    # another board's create, last and never read: its path makes the board a path parameter
    har.call("POST", "/boards/2/cards", body={"text": "z"}, status=201, response={"id": 4})
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("tied") / "capture.har")


def test_another_parent_is_refused_saying_why_and_what_is_accepted(bundle) -> None:
    create = plan(bundle, "POST", "/boards/{board_id}/cards")
    assert create.served and create.collection == "/cards", create.reason
    runtime = EnvironmentRuntime(bundle)
    with http_in_thread(runtime) as serving:
        status, answer = send_json(serving, "/boards/1/cards", {"text": "x"})  # the state is unchanged after
        assert status == 400, answer
        message = answer["message"]
        assert "'board_id' must be '3'" in message and "recorded call" in message and "/boards/3/cards" in message
        assert "its path names no collection of the cards type (/cards)" in message, message
        assert "Accepted: board_id '3' (in any percent-encoding)" in message
        assert "tied to" not in message
        assert send_json(serving, "/cards", None, method="GET")[1] == CARDS  # nothing was created
        status, made = send_json(serving, "/boards/3/cards", {"text": "four"})
        assert status == 201 and set(made) == {"id"}, made
        result = anyio.run(call_tool, serving, runtime, create.tool, {"board_id": "2", "body": {"text": "y"}})
        said = json.loads(result.content[0].text)["message"]
        assert result.is_error and 'only with "3" (recorded call' in said and "creating in /cards" in said, said

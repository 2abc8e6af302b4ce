"""A document write answered with the object wrapped in a member of its own and without a member
every read of the document shows (Payload's ``POST /api/globals/settings`` answering
``{"message", "result": {...}}`` without ``globalType``): the plan finds the object under that member
(so it learns the updatedAt clock the call stamps), leaves the member out of its answer as the
application does (``write-answer-omissions``), and is served: the answer and the read after it show
the merged members."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

BEFORE = {"id": 1, "siteName": "blog", "postsPerPage": 10, "maintenance": False,
          "updatedAt": "2026-12-01T09:00:00.000Z", "createdAt": "2026-12-01T09:00:00.000Z", "globalType": "settings"}


def capture() -> HarBuilder:
    har = HarBuilder(start="2026-12-05T07:29:19.000Z")
    har.call("GET", "/api/globals/settings", response=BEFORE)
    state = dict(BEFORE)
    for body, clock in (({"postsPerPage": 25}, "2026-12-05T07:29:20.000Z"),
                        ({"siteName": "journal", "maintenance": True}, "2026-12-05T07:29:21.000Z"),
                        ({"maintenance": False}, "2026-12-05T07:29:23.000Z")):
        state = {**state, **body, "updatedAt": clock}
        result = {name: value for name, value in state.items() if name != "globalType"}
        har.call("POST", "/api/globals/settings", body=body, response={"message": "Updated successfully.",
                                                                         "result": result})
        har.call("GET", "/api/globals/settings", response=state)
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("wrapped") / "capture.har")


def test_the_document_write_is_served_without_the_member_its_answer_leaves_out(bundle) -> None:
    write = plan(bundle, "POST", "/api/globals/settings")
    assert write.served, write.reason
    assert write.response.locator.member == "result" and write.response.omitted == ("globalType",)


def test_the_answer_and_the_read_show_the_merge(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            status, answer = send_json(serving, "/api/globals/settings", {"siteName": "notes"})
            assert status == 200, answer
            assert answer["message"] == "Updated successfully."
            assert answer["result"]["siteName"] == "notes" and "globalType" not in answer["result"]
            assert answer["result"]["postsPerPage"] == 10  # the state starts as the first read showed it
            status, read = send_json(serving, "/api/globals/settings", None, method="GET")
            assert status == 200 and read["siteName"] == "notes" and read["globalType"] == "settings", read
    finally:
        runtime.close()

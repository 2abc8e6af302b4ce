"""A create listed first that another member orders first as well (``insert.first-unproven``,
``InsertRule.unproven``): a rate created after the two held is listed before them, and the rates
are listed highest first too, so the capture cannot tell a list newest first from one sorted by
rate. Serving places the create first (as recorded; the gate replays that list) and
refuses the collection's list once a served create placed one beside another, saying why; item
reads still answer, and a reset brings the list back. Where no other member orders the recorded
list so, the create is first, proven, and listed.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

HELD = [{"id": 1, "name": "zero", "rate": "19.00", "note": "c"}, {"id": 3, "name": "alpha", "rate": "0.00", "note": "a"}]


def capture(created: dict) -> HarBuilder:
    har = HarBuilder().call("GET", "/rates", response=HELD)
    for held in HELD:
        har.call("GET", f"/rates/{held['id']}", response=held)
    made = {"id": 4, **created}
    har.call("POST", "/rates", body=created, status=201, response=made)
    har.call("GET", "/rates/4", response=made)
    return har.call("GET", "/rates", response=[made, *HELD])


@pytest.fixture(scope="module")
def ambiguous(tmp_path_factory):
    return build_from(capture({"name": "mid", "rate": "25.00", "note": "b"}),
                      tmp_path_factory.mktemp("ambiguous") / "capture.har")


@pytest.fixture(scope="module")
def proven(tmp_path_factory):
    return build_from(capture({"name": "mid", "rate": "10.00", "note": "b"}),
                      tmp_path_factory.mktemp("proven") / "capture.har")


def create(runtime: EnvironmentRuntime, name: str, rate: str) -> dict:
    answer = runtime.call_tool("post_rates", {"body": {"name": name, "rate": rate, "note": f"note {name}"}})
    assert not answer.is_error, answer.structured
    return answer.structured["body"]


def test_another_member_ordering_the_list_leaves_the_place_unproven(ambiguous) -> None:
    made = plan(ambiguous, "post_rates")
    assert made.served, made.reason
    assert made.insert is not None and (made.insert.kind, made.insert.unproven) == ("first", True)
    assert made.insert.rule_id == "insert.first-unproven"
    runtime = EnvironmentRuntime(ambiguous)
    try:
        assert not runtime.call_tool("get_rates", {}).is_error  # as recorded: answered
        entity = create(runtime, "beta", "30.00")
        refused = runtime.call_tool("get_rates", {})
        assert refused.is_error and "a served create or update placed" in refused.structured["message"]
        item = runtime.call_tool("get_rates_by_rate_id", {"rate_id": str(entity["id"])})
        assert not item.is_error and item.structured["body"]["name"] == "beta"
        runtime.data_reset()
        assert not runtime.call_tool("get_rates", {}).is_error
    finally:
        runtime.close()


def test_a_create_first_by_no_other_member_is_listed_first(proven) -> None:
    made = plan(proven, "post_rates")
    assert made.served, made.reason
    assert made.insert is not None and (made.insert.kind, made.insert.unproven) == ("first", False)
    runtime = EnvironmentRuntime(proven)
    try:
        entity = create(runtime, "beta", "30.00")
        answer = runtime.call_tool("get_rates", {})
        assert not answer.is_error, answer.structured
        assert [r["id"] for r in answer.structured["body"]] == [entity["id"], 1, 3]
    finally:
        runtime.close()
